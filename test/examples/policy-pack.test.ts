/**
 * @slow The policy pack (docs/policies.md) on real programs, as users run it: a TypeScript
 * program of the dynamic resources and a YAML program of the plugin, each in a project outside
 * the repository with the packed package and @pulumi/policy installed. Each program is deployed
 * clean (`pulumi up --yes --policy-pack`, against the emulator), then a variant with one planted
 * violation of every rule (no-replacement's twice: a replaced carrier and a removed webhook) is
 * checked by `pulumi preview --policy-pack`, by the pull-request job's
 * lines from docs/policies.md, and (deployed without the pack) by `pulumi policy analyze --file`
 * on its exported state with the Pulumi CLI every tier runs on: each gives exactly the planted violations, each
 * under its rule id, and the clean program none.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E } from "../e2e/harness";
import { YamlStack, type CommandResult } from "../languages/yaml-stack";
import { runTool } from "../languages/toolchains";
import { repoBinDir, testedCliVersion } from "../pulumi-cli/locate";
import { REPO_ROOT } from "../support/packed-package";
import { POLICY_PACKAGE } from "../support/policy-package";

const run = promisify(execFile);

/** The CLI every tier runs on (3.249 or newer has `policy analyze --file`). */
const ANALYZE_CLI_VERSION = testedCliVersion();
const analyzeBin = repoBinDir(ANALYZE_CLI_VERSION);
const analyzeCli = analyzeBin === undefined ? undefined : join(analyzeBin, "pulumi");
const analyzeCliThere = {
  available: analyzeCli !== undefined && existsSync(analyzeCli),
  missing: `Pulumi CLI ${ANALYZE_CLI_VERSION} (pulumi policy analyze --file): PULUMI_CLI_VERSION=${ANALYZE_CLI_VERSION} npm run pulumi:install`,
};

const API_KEY = "policy-pack-api-key-5d1";
const SAMPLE = join(REPO_ROOT, "examples", "basic", "samples", "greeting.wav");

/** [rule id, resource name]: a violation as a test compares it. */
type Violation = [string, string];

/**
 * The violations preview printed: `- [mandatory]  rule  (type: name)` under `Policies:`, or
 * `pack@v1 [mandatory]  rule  (type: name)…` with --diff.
 */
function printedViolations(text: string): Violation[] {
  const found = [...text.matchAll(/\[(?:mandatory|advisory)\]\s+([a-z0-9-]+)\s+\(([^)]*)\)/g)];
  return found.map(([, rule, where]) => [rule!, where!.split(": ").pop()!] as Violation).sort();
}

/** The violations in `pulumi policy analyze --json`'s events. */
function analyzedViolations(jsonLines: string): Violation[] {
  return jsonLines
    .split("\n")
    .filter((line) => line.includes('"policyEvent"'))
    .map(
      (line) =>
        (JSON.parse(line) as { policyEvent: { policyName: string; resourceUrn: string } })
          .policyEvent,
    )
    .map((event) => [event.policyName, event.resourceUrn.split("::").pop()!] as Violation)
    .sort();
}

/** The pull-request job's lines, as docs/policies.md shows them. */
async function pullRequestJob(): Promise<string> {
  const page = await readFile(join(REPO_ROOT, "docs", "policies.md"), "utf8");
  const block = /## In a pull-request job[\s\S]*?```bash\n([\s\S]*?)```/.exec(page)?.[1];
  if (block === undefined) throw new Error("docs/policies.md shows no pull-request job");
  return block;
}

interface PlantedProgram {
  readonly title: string;
  /** The project file (Pulumi.yaml), and the program's own file when it is not that one. */
  readonly project: (program: "clean" | "planted") => Record<string, string>;
  /** Secret config the programs read, by key without namespace. */
  readonly secrets: Record<string, string>;
  /** Where the stack-config half of max-concurrency lands: the stack, or the default provider. */
  readonly concurrencyOn: (stackName: string) => string;
  /** The stack resource's name: where no-replacement counts what the change leaves. */
  readonly stackResource: (stackName: string) => string;
  /** Whether `policy analyze` sees max-concurrency: a provider resource in state holds it. */
  readonly analyzedConcurrency: boolean;
  /** Writes the pack where the program's violations are checked from; returns its folder. */
  readonly pack: (stack: YamlStack) => Promise<string>;
}

const typescript: PlantedProgram = {
  title: "a TypeScript program of the dynamic resources",
  project: (program) => ({
    "Pulumi.yaml": "name: policy-typescript\nruntime: nodejs\n",
    "index.js": `const pulumi = require("@pulumi/pulumi");
const vp = require("pulumi-voice-platform");
const config = new pulumi.Config();
${
  program === "clean"
    ? `new vp.Voice("agent", { name: "Support agent", supportedLocales: ["en-US"], files: ["greeting.wav"] }, { protect: true });
new vp.SipCarrier("trunk", {
  name: "main-trunk",
  registerUsername: "acme",
  registerPassword: config.requireSecret("sipPassword"),
  gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060, protocol: "udp" }],
  phoneNumbers: [{ phoneNumber: "+14155550100" }],
});
new vp.CampaignWebhook("leads", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/leads",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
  isAdvanced: true,
  advancedWebhook: { url: config.requireSecret("crmUrl"), method: "GET" },
});
new vp.CampaignWebhook("archive", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/archive",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
});`
    : `new vp.Voice("agent", { name: "Support agent", supportedLocales: ["en-UK"], files: ["greeting.wav"] });
new vp.SipCarrier("trunk", {
  name: "main-trunk",
  registerUsername: "acme",
  registerPassword: "planted-in-the-program-42",
  gateways: [{ inbound: true, outbound: true, ipv4: "10.20.30.40", port: 5060, protocol: "udp" }],
  phoneNumbers: [{ phoneNumber: "14155550100" }],
});
new vp.CampaignWebhook("leads", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "http://hooks.example.com/leads",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
  isAdvanced: true,
  advancedWebhook: { url: config.requireSecret("crmUrl"), method: "POST" },
});`
}
`,
  }),
  secrets: {
    sipPassword: "sip-pw-Qv8rT2",
    crmUrl: "https://crm.example.com/hook?token=crm-Lx4pN7",
  },
  concurrencyOn: (stackName) => `policy-typescript-${stackName}`,
  stackResource: (stackName) => `policy-typescript-${stackName}`,
  analyzedConcurrency: false,
  // The pack inside the package, found from the project's node_modules.
  pack: async (stack) =>
    join(stack.dir, "node_modules", "pulumi-voice-platform", "dist", "provider", "policy", "pack"),
};

const yaml: PlantedProgram = {
  title: "a YAML program of the plugin",
  project: (program) => ({
    "Pulumi.yaml": `name: policy-yaml
runtime: yaml
config:
  sipPassword:
    type: string
    secret: true
  crmUrl:
    type: string
    secret: true
  plainPassword:
    type: string
resources:
${
  program === "clean"
    ? `  agent:
    type: voiceplatform:index:Voice
    properties:
      name: Support agent
      supportedLocales: [en-US]
      files: [greeting.wav]
    options:
      protect: true
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: main-trunk
      registerUsername: acme
      registerPassword: \${sipPassword}
      gateways:
        - { inbound: true, outbound: true, ipv4: 203.0.113.10, port: 5060, protocol: udp }
      phoneNumbers:
        - phoneNumber: "+14155550100"
  leads:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: 65a1f0c2e4b0a1b2c3d4e5f6
      url: https://hooks.example.com/leads
      events: [POST_PROCESSING_FINISHED:INTERESTED]
      isAdvanced: true
      advancedWebhook:
        url: \${crmUrl}
        method: GET
  archive:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: 65a1f0c2e4b0a1b2c3d4e5f6
      url: https://hooks.example.com/archive
      events: [POST_PROCESSING_FINISHED:INTERESTED]
`
    : `  agent:
    type: voiceplatform:index:Voice
    properties:
      name: Support agent
      supportedLocales: [en-UK]
      files: [greeting.wav]
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: main-trunk
      registerUsername: acme
      registerPassword: \${plainPassword}
      gateways:
        - { inbound: true, outbound: true, ipv4: 10.20.30.40, port: 5060, protocol: udp }
      phoneNumbers:
        - phoneNumber: "14155550100"
  leads:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: 65a1f0c2e4b0a1b2c3d4e5f6
      url: http://hooks.example.com/leads
      events: [POST_PROCESSING_FINISHED:INTERESTED]
      isAdvanced: true
      advancedWebhook:
        url: \${crmUrl}
        method: POST
`
}`,
  }),
  secrets: {
    sipPassword: "sip-pw-Qv8rT2",
    crmUrl: "https://crm.example.com/hook?token=crm-Lx4pN7",
  },
  concurrencyOn: () => "default",
  stackResource: (stackName) => `policy-yaml-${stackName}`,
  analyzedConcurrency: true,
  // A pack folder of its own, written by the package's command, as a YAML project needs.
  pack: async (stack) => {
    const written = await stack.tool(["policy-pack", "voice-policies"]);
    expect(written.code).toBe(0);
    return join(stack.dir, "voice-policies");
  },
};

/** Every violation the planted variant holds, under its rule id, on the resource it concerns. */
function plantedViolations(
  program: PlantedProgram,
  stackName: string,
  phase: "preview" | "analyze",
): Violation[] {
  const everywhere: Violation[] = [
    ["advanced-webhook-method", "leads"],
    ["gateway-sanity", "trunk"],
    ["phone-numbers-e164", "trunk"],
    ["voice-locales", "agent"],
    ["voice-protected", "agent"],
    ["webhook-urls-https", "leads"],
  ];
  const previewOnly: Violation[] = [
    ["no-replacement", "trunk"],
    // The webhook the planted program no longer declares: removed, its subscription stays. The
    // engine shows a violation of a resource no longer in the program on the stack.
    ["no-replacement", program.stackResource(stackName)],
    // Its count of what the change leaves on the platform (the trunk and the webhook), on the stack.
    ["no-replacement", program.stackResource(stackName)],
    ["secrets-from-secret-config", "trunk"],
  ];
  const concurrency: Violation[] = [["max-concurrency", program.concurrencyOn(stackName)]];
  return [
    ...everywhere,
    ...(phase === "preview" ? [...previewOnly, ...concurrency] : []),
    ...(phase === "analyze" && program.analyzedConcurrency ? concurrency : []),
  ].sort();
}

/** Provider names such as `default_0_1_0` compared by their stem. */
function named(violations: Violation[]): Violation[] {
  return violations
    .map(([rule, name]) => [rule, name.replace(/^default(_[0-9_]+)?$/, "default")] as Violation)
    .sort();
}

/** The platform ids of the trunk and the archive webhook in an exported state. */
async function deployedIds(exported: string): Promise<{ trunk: string; archive: string }> {
  const state = JSON.parse(await readFile(exported, "utf8")) as {
    deployment: { resources?: { urn: string; id?: string }[] };
  };
  const idOf = (name: string) => {
    const found = state.deployment.resources?.find((r) => r.urn.endsWith(`::${name}`));
    if (found?.id === undefined) throw new Error(`${name} is not in ${exported}`);
    return found.id;
  };
  return { trunk: idOf("trunk"), archive: idOf("archive") };
}

function describePlanted(program: PlantedProgram): void {
  describeE2E(
    `the policy pack on ${program.title}`,
    () => {
      let emulator: RunningEmulator;
      let stack: YamlStack;
      let pack: string;

      async function writeProgram(variant: "clean" | "planted"): Promise<void> {
        for (const [file, text] of Object.entries(program.project(variant))) {
          await writeFile(join(stack.dir, file), text);
        }
      }

      beforeAll(async () => {
        emulator = await startEmulator({ apiKey: API_KEY });
        const first = await YamlStack.create(program.project("clean")["Pulumi.yaml"]!, {
          ...program.project("clean"),
          "greeting.wav": await readFile(SAMPLE),
        });
        await runTool(
          "npm",
          [
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            POLICY_PACKAGE,
          ],
          { cwd: first.dir },
        );
        // A stack whose name matches voice-protected's default patterns; PWD as a shell sets it.
        stack = await first.otherStack("prod", { PWD: first.dir });
        await stack.config({ "voiceplatform:apiKey": API_KEY, ...program.secrets }, true);
        // Plain config: the YAML program's planted password comes from it (the plugin's
        // resources record no plain values, so a literal there is not judged).
        await stack.config({
          plainPassword: "planted-in-the-program-42",
          "voiceplatform:baseUrl": emulator.baseUrl,
          "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
        });
        pack = await program.pack(stack);
      });

      afterAll(async () => {
        await emulator?.stop();
        await stack?.remove();
      });

      test("the clean program: its preview and its `pulumi up` with the pack report no violation", async () => {
        const preview = await stack.pulumi(["preview", "--policy-pack", pack]);
        expect({ code: preview.code, violations: printedViolations(preview.stdout) }).toEqual({
          code: 0,
          violations: [],
        });
        const up = await stack.must(["up", "--yes", "--policy-pack", pack]);
        expect(printedViolations(up.stdout)).toEqual([]);
        const held = (await emulator.state()).organizations.org_emulator!;
        const subscriptions = Object.values(held.subscriptions).flat();
        expect([held.voices.length, held.carriers.length, subscriptions.length]).toEqual([1, 1, 2]);
      });

      test("`pulumi policy analyze --file` on the clean program's state reports no violation", async () => {
        const state = join(stack.dir, "clean-state.json");
        await stack.must(["stack", "export", "--file", state]);
        const analyzed = await analyze(state);
        expect({ code: analyzed.code, violations: analyzedViolations(analyzed.stdout) }).toEqual({
          code: 0,
          violations: [],
        });
      });

      test("the planted program's preview reports exactly the planted violations, each under its rule id", async () => {
        await emulator.newRequests(); // what the clean program's `up` sent
        const previous = join(stack.dir, "previous.json");
        await stack.must(["stack", "export", "--file", previous]);
        await writeProgram("planted");
        await stack.config({ "voiceplatform:maxConcurrency": "64" });
        const preview = await stack.pulumi(["preview", "--policy-pack", pack]);
        // Without a previous state no-replacement does not apply; with it, it does.
        expect(named(printedViolations(preview.stdout))).toEqual(
          named(
            plantedViolations(program, "prod", "preview").filter(
              ([rule]) => rule !== "no-replacement",
            ),
          ),
        );
        const withPrevious = await stack.pulumi(["preview", "--policy-pack", pack], {
          VOICEPLATFORM_PREVIOUS_STATE: previous,
        });
        expect(withPrevious.code).not.toBe(0);
        expect(named(printedViolations(withPrevious.stdout))).toEqual(
          named(plantedViolations(program, "prod", "preview")),
        );
        // Each object that will stay is named with its id, and the stack's line counts them.
        const { archive, trunk } = await deployedIds(previous);
        expect(withPrevious.stdout).toContain(`the old one (${trunk}) stays on the platform`);
        expect(withPrevious.stdout).toContain(
          `no-replacement archive: this CampaignWebhook leaves the program, and its object (${archive}) stays on the platform`,
        );
        expect(withPrevious.stdout).toContain(
          "this change leaves 2 object(s) on the platform: 1 SipCarrier, 1 CampaignWebhook",
        );
        // No violation quotes a secret: the planted password, nor the secret config.
        for (const text of [preview.stdout, withPrevious.stdout, withPrevious.stderr]) {
          expect(text).not.toContain("planted-in-the-program-42");
          expect(text).not.toContain("sip-pw-Qv8rT2");
          expect(text).not.toContain("crm-Lx4pN7");
        }
        expect(await emulator.newRequests()).toEqual([]);
      });

      test("the pull-request job's lines from docs/policies.md report the same violations and fail the job", async () => {
        const env = { ...stack.environment(), STACK: "prod", POLICY_PACK: pack };
        const job = await run("bash", ["-c", `set -euo pipefail\n${await pullRequestJob()}`], {
          cwd: stack.dir,
          env,
          maxBuffer: 64 * 1024 * 1024,
        }).then(
          (done) => ({ code: 0, stdout: done.stdout }),
          (failed: { code?: number; stdout?: string }) => ({
            code: failed.code ?? 1,
            stdout: failed.stdout ?? "",
          }),
        );
        expect(job.code).not.toBe(0);
        expect(named(printedViolations(job.stdout))).toEqual(
          named(plantedViolations(program, "prod", "preview")),
        );
      });

      test("`pulumi policy analyze --file` on the planted program's deployed state reports the planted violations it can see", async () => {
        // Deployed without the pack, as a stack that predates it would be.
        await stack.must(["up", "--yes"]);
        const state = join(stack.dir, "planted-state.json");
        await stack.must(["stack", "export", "--file", state]);
        const analyzed = await analyze(state);
        expect(analyzed.code).not.toBe(0);
        expect(named(analyzedViolations(analyzed.stdout))).toEqual(
          named(plantedViolations(program, "prod", "analyze")),
        );
        expect(analyzed.stdout).not.toContain("planted-in-the-program-42");
      });

      test("the clean program again: no violation", async () => {
        await writeProgram("clean");
        await stack.config({ "voiceplatform:maxConcurrency": "16" });
        const preview = await stack.pulumi(["preview", "--policy-pack", pack]);
        expect(printedViolations(preview.stdout)).toEqual([]);
      });

      /** `pulumi policy analyze --file` with that CLI and its own language hosts first on PATH. */
      async function analyze(stateFile: string): Promise<CommandResult> {
        const env = {
          ...stack.environment(),
          PATH: [analyzeBin, stack.environment().PATH].join(delimiter),
        };
        return run(
          analyzeCli!,
          ["policy", "analyze", "--file", stateFile, "--policy-pack", pack, "--json"],
          {
            cwd: stack.dir,
            env,
            maxBuffer: 64 * 1024 * 1024,
          },
        ).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (failed: { code?: number; stdout?: string; stderr?: string }) => ({
            code: failed.code ?? 1,
            stdout: failed.stdout ?? "",
            stderr: failed.stderr ?? "",
          }),
        );
      }
    },
    [analyzeCliThere],
  );
}

describePlanted(typescript);
describePlanted(yaml);
