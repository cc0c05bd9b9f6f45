/**
 * @slow The testing entry's mocks as a team uses them, from a project outside the repository: a
 * jest suite over a program of the dynamic resources and one of the plugin's Node.js SDK, with
 * the package installed from its packed tarball (`pulumi-voice-platform/testing`), and a pytest
 * suite over a Python program with the generated Python SDK installed by pip
 * (`pulumi_voiceplatform.testing`). No engine, no provider process, no platform. The Python mocks'
 * states are held equal to the TypeScript mocks' for the same inputs, and each suite times a
 * 20-resource program (printed for BENCHMARKS.md). Then docs/testing-your-stacks.md's two test
 * files that expect a refusal, copied from the page as it stands into a project set up as its
 * "What a test project needs" says, pass, refusing with the provider's check's message; their
 * wall times are printed (the issue's target is under 5 s each; a time is not asserted).
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { mockIdFormats, voicePlatformMocks } from "../../provider/testing";
import { nodeSdk, pulumiVersion, pythonVenv, runTool, SDK_DIR } from "../languages/toolchains";
import { docsBlock } from "../support/docs-snippets";
import {
  createFixtureProject,
  npmEnv,
  packPackage,
  removeFixtureProject,
  REPO_ROOT,
  writeFixtureFile,
} from "../support/packed-package";

const run = promisify(execFile);
jest.setTimeout(900_000);

const SAMPLE = join(REPO_ROOT, "examples", "basic", "samples", "greeting.wav");

/** Inputs both languages' mocks are given, by resource kind; states are compared across them. */
const cases: [kind: string, inputs: Record<string, unknown>][] = [
  ["Voice", { name: "Plain voice", files: [SAMPLE] }],
  [
    "Voice",
    {
      name: "Support agent",
      providerType: "CARTESIA",
      supportedLocales: ["es-es", "en-US"],
      stability: 0.4,
      speed: 1.1,
      isMultilingual: true,
      files: [SAMPLE],
    },
  ],
  ["Voice", { name: "Adopted voice", existingVoiceId: "65a1f0c2e4b0a1b2c3d4e5f7" }],
  [
    "SipCarrier",
    {
      name: "main-trunk",
      registerPassword: "mocked-password",
      gateways: [
        { outbound: true, ipv4: "sip.example.com", port: 5061, protocol: "tls" },
        { inbound: true, ipv4: "203.0.113.10", port: 5060 },
      ],
      phoneNumbers: [{ phoneNumber: "+14155550101" }, { phoneNumber: "+14155550100" }],
    },
  ],
  ["SipCarrier", { name: "recorded", existingCarrierId: "c-123" }],
  [
    "CampaignWebhook",
    {
      campaignId: "65A1F0C2E4B0A1B2C3D4E5F6",
      url: "https://hooks.example.com/calls",
      events: ["POST_PROCESSING_FINISHED:WRONG_NUMBER", "POST_PROCESSING_FINISHED:INTERESTED"],
    },
  ],
  [
    "CampaignWebhook",
    {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/adv",
      isAdvanced: true,
      advancedWebhook: {
        url: "https://crm.example.com/hook?token=mocked",
        method: "GET",
        headers: [{ name: "X-Token", value: "mocked-header" }],
      },
    },
  ],
  [
    "CampaignWebhook",
    {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/old",
      alreadySubscribed: true,
    },
  ],
];

/** Made-up ids masked, so only their forms have to agree. */
function masked(value: unknown): unknown {
  if (typeof value === "string") {
    if (mockIdFormats.objectId.test(value)) return "<ObjectId>";
    if (mockIdFormats.providerVoiceId.test(value)) return "<provider voice id>";
    if (mockIdFormats.webhookId.test(value)) return `${value.slice(0, 24)}/<UUID>`;
    return value;
  }
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item)]));
  }
  return value;
}

/** A program of `count` resources (a third of each kind) for the Node.js suites. */
function nodeProgram(moduleName: string): string {
  return `const pulumi = require("@pulumi/pulumi");
const vp = require(${JSON.stringify(moduleName)});

/** The resources of a small call centre: ${"`count`"} of them, a third of each kind. */
function callCentre(count) {
  const made = [];
  for (let i = 0; made.length < count; i++) {
    made.push(new vp.Voice("agent-" + i, { name: "Agent " + i, supportedLocales: ["en-us"], files: ["greeting.wav"] }));
    if (made.length < count) made.push(new vp.SipCarrier("trunk-" + i, {
      name: "trunk-" + i,
      registerPassword: pulumi.secret("trunk-password-" + i),
      gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113." + (i + 1), port: 5060, protocol: "udp" }],
      phoneNumbers: [{ phoneNumber: "+1415555" + String(1000 + i) }],
    }));
    if (made.length < count) made.push(new vp.CampaignWebhook("leads-" + i, {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/leads/" + i,
      events: ["POST_PROCESSING_FINISHED:INTERESTED"],
    }));
  }
  return made;
}
module.exports = { callCentre };
`;
}

/** A jest suite a team would write for that program. */
function nodeSuite(moduleName: string): string {
  return `const pulumi = require("@pulumi/pulumi");
const { voicePlatformMocks, mockIdFormats } = require("pulumi-voice-platform/testing");

pulumi.runtime.setMocks(voicePlatformMocks(), "call-centre", "test", false);
const { callCentre } = require("./program-${moduleName}");
const value = (output) => new Promise((resolve) => output.apply(resolve));

test("${moduleName}: each resource gets the platform's ids and the provider's outputs", async () => {
  const [voice, trunk, webhook] = callCentre(3);
  expect(await value(voice.id)).toMatch(mockIdFormats.objectId);
  expect(await value(voice.voiceId)).toMatch(mockIdFormats.providerVoiceId);
  expect(await value(voice.supportedLocales)).toEqual(["en-US"]);
  expect((await value(voice.samples))[0]).toMatchObject({ name: "greeting.wav", size: ${"SAMPLE_SIZE"} });
  expect(await value(trunk.carrierId)).toBe(await value(trunk.id));
  expect(await pulumi.isSecret(trunk.registerPassword)).toBe(true);
  expect(await value(webhook.id)).toMatch(/^65a1f0c2e4b0a1b2c3d4e5f6\\//);
  expect(await value(webhook.status)).toBe("success");
});

test("${moduleName}: a 20-resource program resolves every output", async () => {
  const started = process.hrtime.bigint();
  const made = callCentre(20);
  await Promise.all(made.map((resource) => value(resource.id)));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log("MOCKS-20 ${moduleName} " + ms.toFixed(1) + " ms");
  expect(made).toHaveLength(20);
});
`;
}

const pythonProgram = `import pulumi
import pulumi_voiceplatform as vp


def call_centre(count):
    made = []
    i = 0
    while len(made) < count:
        made.append(vp.Voice(f"agent-{i}", name=f"Agent {i}", supported_locales=["en-us"], files=["greeting.wav"]))
        if len(made) < count:
            made.append(vp.SipCarrier(
                f"trunk-{i}",
                name=f"trunk-{i}",
                register_password=pulumi.Output.secret(f"trunk-password-{i}"),
                gateways=[vp.SipGatewayArgs(inbound=True, outbound=True, ipv4=f"203.0.113.{i + 1}", port=5060, protocol="udp")],
                phone_numbers=[vp.SipPhoneNumberArgs(phone_number=f"+1415555{1000 + i}")],
            ))
        if len(made) < count:
            made.append(vp.CampaignWebhook(
                f"leads-{i}",
                campaign_id="65a1f0c2e4b0a1b2c3d4e5f6",
                url=f"https://hooks.example.com/leads/{i}",
                events=["POST_PROCESSING_FINISHED:INTERESTED"],
            ))
        i += 1
    return made
`;

const pythonSuite = `import time

import pulumi
import pytest
from pulumi_voiceplatform.testing import ID_FORMATS, InputError, VoicePlatformMocks

pulumi.runtime.set_mocks(VoicePlatformMocks(), project="call-centre", stack="test", preview=False)

from program import call_centre  # noqa: E402  (after set_mocks, as Pulumi's docs show)


@pulumi.runtime.test
def test_each_resource_gets_the_platforms_ids_and_the_providers_outputs():
    voice, trunk, webhook = call_centre(3)

    def check(values):
        voice_id, provider_voice_id, locales, samples, carrier_id, trunk_id, webhook_id, status = values
        assert ID_FORMATS["object_id"].fullmatch(voice_id)
        assert ID_FORMATS["provider_voice_id"].fullmatch(provider_voice_id)
        assert locales == ["en-US"]
        assert samples[0]["name"] == "greeting.wav" and samples[0]["size"] == SAMPLE_SIZE
        assert carrier_id == trunk_id
        assert webhook_id.startswith("65a1f0c2e4b0a1b2c3d4e5f6/")
        assert status == "success"

    return pulumi.Output.all(
        voice.id, voice.voice_id, voice.supported_locales, voice.samples,
        trunk.carrier_id, trunk.id, webhook.id, webhook.status,
    ).apply(check)


def test_the_password_stays_secret():
    trunk = call_centre(2)[1]
    # Output.is_secret() is awaitable; the SDK's own tests wait on it this way.
    assert pulumi.runtime.sync_await._sync_await(trunk.register_password.is_secret())


@pulumi.runtime.test
def test_a_20_resource_program_resolves_every_output():
    started = time.perf_counter()
    made = call_centre(20)

    def done(ids):
        print(f"MOCKS-20 python {(time.perf_counter() - started) * 1000:.1f} ms")
        assert len(ids) == 20 and all(ids)

    return pulumi.Output.all(*[resource.id for resource in made]).apply(done)


@pulumi.runtime.test
def a_trunk_on_port(port):
    import pulumi_voiceplatform as vp

    trunk = vp.SipCarrier(f"trunk-{port}", name="t", gateways=[vp.SipGatewayArgs(ipv4="203.0.113.10", port=port)])
    return trunk.carrier_id


def test_a_port_preview_refuses_is_refused_in_its_words():
    started = time.perf_counter()
    with pytest.raises(InputError) as refused:
        a_trunk_on_port(70000)
    assert str(refused.value) == (
        'SipCarrier "trunk-70000" has inputs \`pulumi preview\` would refuse:\\n'
        "  gateways[0].port must be at most 65535, not number 70000"
    )
    print(f"REFUSAL python {(time.perf_counter() - started) * 1000:.1f} ms")
    a_trunk_on_port(5060)
`;

/** Runs the same inputs through the Python mocks; prints their ids and states as JSON. */
const pythonStates = `import json, sys
import pulumi
from pulumi.runtime.mocks import MockResourceArgs
from pulumi_voiceplatform.testing import VoicePlatformMocks

mocks = VoicePlatformMocks(organization_id="org-fixed")
cases = json.load(open(sys.argv[1]))
out = []
for kind, inputs in cases:
    args = MockResourceArgs(typ="voiceplatform:index:" + kind, name="case", inputs=inputs, provider="", resource_id="", custom=True)
    resource_id, state = mocks.new_resource(args)
    out.append({"id": resource_id, "state": state})
print(json.dumps(out))
`;

const DOCS_PAGE = "testing-your-stacks.md";
const NEEDS = "### What a test project needs";

/** The gateway the docs' refusal tests give, and the refusal the provider's check gives for it. */
async function checkRefusal(name: string): Promise<string> {
  const refused = voicePlatformMocks().newResource({
    type: "voiceplatform:index:SipCarrier",
    name,
    inputs: { name: "main-trunk", gateways: [{ ipv4: "203.0.113.10", port: 70000 }] },
    custom: true,
  });
  return Promise.resolve(refused).then(
    () => "",
    (error: Error) => error.message,
  );
}

/** A command's output and how long it took, failing with its output. */
async function timed(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = Date.now();
  const { stdout, stderr } = await run(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new Error(
        `${file} ${args.join(" ")} failed in ${cwd}:\n${error.stdout ?? ""}${error.stderr ?? ""}`,
      );
    },
  );
  return { output: `${stdout}${stderr}`, seconds: (Date.now() - started) / 1000 };
}

describe("the mocks from a project outside the repository", () => {
  let project: string;
  let sampleSize: number;

  beforeAll(async () => {
    sampleSize = (await readFile(SAMPLE)).length;
    project = await createFixtureProject({ name: "call-centre-tests" });
    await cp(SAMPLE, join(project, "greeting.wav"));
  });

  afterAll(async () => {
    if (project !== undefined) await removeFixtureProject(project);
  });

  test("a jest suite with pulumi-voice-platform/testing passes for the dynamic resources and the plugin's Node.js SDK", async () => {
    const sdk = await nodeSdk();
    await runTool(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "jest@29",
        sdk.tarball,
      ],
      { cwd: project },
    );
    for (const moduleName of ["pulumi-voice-platform", "pulumi-voice-platform-sdk"]) {
      await writeFixtureFile(project, `program-${moduleName}.js`, nodeProgram(moduleName));
      await writeFixtureFile(
        project,
        `${moduleName}.test.js`,
        nodeSuite(moduleName).replace("SAMPLE_SIZE", String(sampleSize)),
      );
    }
    const { stdout, stderr } = await run(
      "npx",
      ["--no-install", "jest", "--ci", "--colors=false"],
      {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`jest failed in ${project}:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    });
    const output = `${stdout}${stderr}`;
    expect(output).toMatch(/Tests:\s+4 passed, 4 total/);
    for (const line of output.match(/MOCKS-20 .*/g) ?? [])
      console.log(`mocks, 20 resources: ${line}`);
    expect(output.match(/MOCKS-20 /g)).toHaveLength(2);
  });

  test("a pytest suite with pulumi_voiceplatform.testing passes, and its states are the TypeScript mocks'", async () => {
    const venv = await pythonVenv();
    const python = join(venv, "bin", "python");
    const tools = await mkdtemp(join(tmpdir(), "mocks-pytest-"));
    try {
      // pytest beside the shared venv (PYTHONPATH), so the venv stays as other suites expect it.
      await runTool(python, ["-m", "pip", "install", "--quiet", "--target", tools, "pytest"], {
        cwd: project,
        env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
      });
      const env = { ...process.env, PYTHONPATH: tools };
      await writeFile(join(project, "program.py"), pythonProgram);
      await writeFile(
        join(project, "test_call_centre.py"),
        pythonSuite.replace("SAMPLE_SIZE", String(sampleSize)),
      );
      const pytest = await run(python, ["-m", "pytest", "-s", "-q", "test_call_centre.py"], {
        cwd: project,
        env,
      }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`pytest failed in ${project}:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
      });
      expect(pytest.stdout).toMatch(/4 passed/);
      console.log(`python refusal: ${pytest.stdout.match(/REFUSAL .*/)?.[0] ?? "?"}`);
      console.log(`mocks, 20 resources: ${pytest.stdout.match(/MOCKS-20 .*/)?.[0] ?? "?"}`);

      await writeFile(join(project, "cases.json"), JSON.stringify(cases));
      await writeFile(join(project, "states.py"), pythonStates);
      const fromPython = JSON.parse(
        await runTool(python, ["states.py", "cases.json"], { cwd: project, env }),
      ) as { id: string; state: unknown }[];
      const mocks = voicePlatformMocks({ organizationId: "org-fixed" });
      for (const [index, [kind, inputs]] of cases.entries()) {
        const fromTypeScript = (await mocks.newResource({
          type: `voiceplatform:index:${kind}`,
          name: "case",
          inputs,
          custom: true,
        })) as { id: string; state: unknown };
        expect({ case: index, ...(masked(fromPython[index]) as object) }).toEqual({
          case: index,
          ...(masked(fromTypeScript) as object),
        });
      }
    } finally {
      await rm(tools, { recursive: true, force: true });
    }
  });

  test("the docs' jest test that expects a refusal passes in a project with the docs' package.json, refusing in the check's words", async () => {
    const manifestPath = join(project, "package.json");
    const fixture = JSON.parse(await readFile(manifestPath, "utf8")) as { name: string };
    const needs = JSON.parse(docsBlock(DOCS_PAGE, NEEDS, { language: "json" })) as {
      dependencies: Record<string, string>;
    };
    // The packed tarball stands in for the registry, as the examples' README says before a release.
    needs.dependencies["pulumi-voice-platform"] = `file:${await packPackage()}`;
    await writeFile(manifestPath, JSON.stringify({ name: fixture.name, ...needs }, null, 2));
    await runTool(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      {
        cwd: project,
        env: npmEnv(),
      },
    );
    const file = "refusal.test.ts";
    await writeFile(
      join(project, file),
      docsBlock(DOCS_PAGE, "### TypeScript", { language: "ts", file }),
    );
    const { output, seconds } = await timed(
      "npm",
      ["test", "--", "--ci", "--colors=false", file],
      project,
      npmEnv(),
    );
    expect(output).toMatch(/PASS \.\/refusal\.test\.ts/);
    expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
    // The refusal the mocks printed is the check's, whole.
    const refusal = await checkRefusal("bad-port");
    expect(refusal).toMatch(
      /^SipCarrier "bad-port" has inputs `pulumi preview` would refuse:\n  gateways\[0\]\.port/,
    );
    expect(output).toContain(refusal);
    console.log(
      `docs' jest refusal test: ${seconds.toFixed(1)} s wall (npm test), jest's ${/Time:\s+(\S+ s)/.exec(output)?.[1] ?? "?"}`,
    );
  });

  test("the docs' pytest test that expects a refusal passes with the docs' requirements and conftest, in the check's words", async () => {
    const python = join(await pythonVenv(), "bin", "python");
    const folder = join(project, "python-tests");
    const tools = await mkdtemp(join(tmpdir(), "mocks-docs-pytest-"));
    try {
      await mkdir(folder, { recursive: true });
      const file = "test_refusal.py";
      const snippet = docsBlock(DOCS_PAGE, "### Python", { language: "python", file });
      await writeFile(join(folder, file), snippet);
      await writeFile(
        join(folder, "conftest.py"),
        docsBlock(DOCS_PAGE, NEEDS, { language: "python", file: "conftest.py" }),
      );
      await writeFile(
        join(folder, "requirements-dev.txt"),
        docsBlock(DOCS_PAGE, NEEDS, { language: "text" }),
      );
      await runTool(
        python,
        ["-m", "pip", "install", "--quiet", "--target", tools, "-r", "requirements-dev.txt"],
        { cwd: folder, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } },
      );
      const { output, seconds } = await timed(
        python,
        ["-m", "pytest", "-q", "-p", "no:cacheprovider", file],
        folder,
        { ...process.env, PYTHONPATH: tools },
      );
      expect(output).toMatch(/\b1 passed\b/);
      // The snippet's test holds the message equal to its text; that text is the check's, line by line.
      const refusal = await checkRefusal("trunk-70000");
      expect(refusal.split("\n")).toHaveLength(2);
      for (const line of refusal.split("\n")) expect(snippet).toContain(line);
      console.log(
        `docs' pytest refusal test: ${seconds.toFixed(1)} s wall (python -m pytest), pytest's ${/ in (\S+s)\b/.exec(output)?.[1] ?? "?"}`,
      );
    } finally {
      await rm(tools, { recursive: true, force: true });
    }
  });

  test("the Python SDK the suite installed is the one in the repository, with its testing module", async () => {
    expect(pulumiVersion()).toMatch(/^3\./);
    const committed = await readFile(
      join(SDK_DIR, "python", "pulumi_voiceplatform", "testing.py"),
      "utf8",
    );
    const venv = await pythonVenv();
    const installed = await runTool(
      join(venv, "bin", "python"),
      [
        "-c",
        "import pulumi_voiceplatform.testing as t, sys; sys.stdout.write(open(t.__file__).read())",
      ],
      { cwd: project },
    );
    expect(installed).toBe(committed);
  });
});
