/**
 * The plugin under the real engine, from Pulumi YAML programs (Pulumi's own YAML language host),
 * against the emulator. The package is installed from its packed tarball; the engine finds
 * `pulumi-resource-voiceplatform` on PATH in the project's node_modules/.bin.
 *
 * - one stack through a whole life: up, a preview without changes, an in-place voice update, a
 *   carrier replacement, import of an existing carrier (the `import` option and `pulumi import`),
 *   refresh, destroy; its exported state holds no `__provider` and no secret in plaintext;
 * - two explicit providers holding two organizations' keys: each key reaches its own resources
 *   only (the plugin keeps one configuration per process, so this also shows that the engine
 *   starts a process per provider);
 * - bad provider configuration fails the preview, naming the field.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { packageSchema } from "../../provider/schema/package-schema";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack } from "./yaml-stack";

const SECRETS = {
  apiKey: "plugin-yaml-apikey-7Hq2-distinctive",
  keyB: "plugin-yaml-org-b-key-9Vt4-distinctive",
  sipPassword: "plugin-yaml-sip-password-3Kd8",
  headerValue: "Bearer plugin-yaml-header-5Pw1",
  parameterValue: "plugin-yaml-param-8Jx3",
  bodyValue: "plugin-yaml-body-2Qs6",
  urlToken: "plugin-yaml-url-token-6Mn0",
};
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";
const sampleA = Buffer.from("RIFF....WAVEfmt plugin yaml sample A");
const sampleB = Buffer.from("RIFF....WAVEfmt plugin yaml sample B");

const { describe: describeYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "the plugin's YAML programs",
});

const lifecycleProgram = `name: plugin-yaml
runtime: yaml
config:
  voiceName:
    type: string
    default: Plugin voice one
  carrierName:
    type: string
    default: Plugin trunk one
  sipPassword:
    type: string
  crmToken:
    type: string
  crmParameter:
    type: string
  crmBody:
    type: string
  crmUrl:
    type: string
resources:
  voice:
    type: voiceplatform:index:Voice
    properties:
      name: \${voiceName}
      supportedLocales: [en-US]
      stability: 0.5
      files:
        - fn::fileAsset: ./samples/a.wav
        - ./samples/b.wav
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: \${carrierName}
      requiresRegister: true
      registerUsername: trunk-user
      registerPassword: \${sipPassword}
      gateways:
        - ipv4: 203.0.113.10
          port: 5060
          inbound: true
      phoneNumbers:
        - phoneNumber: "+14155550100"
  hook:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://hooks.example.com/calls
      events: [POST_PROCESSING_FINISHED:INTERESTED]
      isAdvanced: true
      advancedWebhook:
        url: \${crmUrl}
        method: GET
        headers:
          - name: Authorization
            value: \${crmToken}
        parameters:
          - name: token
            value: \${crmParameter}
        body: \${crmBody}
  adopted:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Existing trunk
      gateways:
        - ipv4: 198.51.100.7
    options:
      import: EXISTING_CARRIER_ID
outputs:
  voiceId: \${voice.id}
  carrierId: \${trunk.carrierId}
  adoptedId: \${adopted.carrierId}
`;

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({
    organizations: [
      { id: "org_a", apiKey: SECRETS.apiKey },
      { id: "org_b", apiKey: SECRETS.keyB },
    ],
  });
});

afterAll(async () => {
  await emulator?.stop();
});

/** A carrier made on the platform outside Pulumi, to be imported. */
async function carrierMadeElsewhere(name: string): Promise<string> {
  const response = await request(`${emulator.baseUrl}/organization/sip`, {
    method: "POST",
    headers: { authorization: SECRETS.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ name, gateways: [{ ipv4: "198.51.100.7" }] }),
  });
  const body = (await response.body.json()) as { id: string };
  expect(response.statusCode).toBeLessThan(300);
  return body.id;
}

async function organization(id: "org_a" | "org_b") {
  return (await emulator.state()).organizations[id]!;
}

/** Every form a secret could leak in: as is, JSON-escaped or URL-encoded. */
function leaks(text: string): string[] {
  return Object.entries(SECRETS)
    .filter(([, secret]) =>
      [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)].some((form) =>
        text.includes(form),
      ),
    )
    .map(([name]) => name);
}

describeYaml.each(["spec", "extended"] as const)(
  "a YAML program through the plugin, answers shaped as %s",
  (answers) => {
    jest.setTimeout(600_000);
    let stack: YamlStack;
    let existingId: string;

    beforeAll(async () => {
      await emulator.reset();
      await emulator.settings({ answers });
      existingId = await carrierMadeElsewhere("Existing trunk");
      // The import option takes a literal id in YAML, not an interpolation.
      stack = await YamlStack.create(lifecycleProgram.replace("EXISTING_CARRIER_ID", existingId), {
        "samples/a.wav": sampleA,
        "samples/b.wav": sampleB,
      });
      await stack.config({ "voiceplatform:apiKey": SECRETS.apiKey }, true);
      await stack.config({
        "voiceplatform:baseUrl": emulator.baseUrl,
        "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
      });
      await stack.config(
        {
          sipPassword: SECRETS.sipPassword,
          crmToken: SECRETS.headerValue,
          crmParameter: SECRETS.parameterValue,
          crmBody: SECRETS.bodyValue,
          crmUrl: `https://crm.example.com/hook/${SECRETS.urlToken}`,
        },
        true,
      );
    }, 600_000);

    afterAll(async () => {
      await stack?.remove();
    });

    let firstVoiceId: string;
    let firstCarrierId: string;

    /** The requests the platform received since the last call, as `METHOD path`. */
    async function newCalls(): Promise<string[]> {
      return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
    }

    it("a preview of the new stack plans every create and the import, and sends nothing", async () => {
      await newCalls();
      const preview = await stack.must(["preview", "--diff"]);
      const sent = await newCalls();
      console.log(`yaml (${answers}): requests sent by the preview of a new stack: ${sent.length}`);
      expect(changeSummary(preview.stdout)).toMatchObject({ "to create": 4, "to import": 1 });
      expect(sent).toEqual([]);
    });

    it("up creates the voice, the carrier and the webhook, and imports the existing carrier without a call", async () => {
      const result = await stack.pulumiUp();
      expect(changeSummary(result.stdout)).toMatchObject({ created: 4, imported: 1 });
      const org = await organization("org_a");
      expect(org.voices.map((v) => v.name)).toEqual(["Plugin voice one"]);
      expect(org.carriers.map((c) => c.name).sort()).toEqual([
        "Existing trunk",
        "Plugin trunk one",
      ]);
      expect(Object.values(org.subscriptions).flat()).toHaveLength(1);
      // The up's own preview phase included: each object once.
      const sent = await newCalls();
      console.log(`yaml (${answers}): requests sent by the first up (3 objects): ${sent.length}`);
      expect(sent.sort()).toEqual([
        `POST /campaigns/${campaignId}/webhook/subscribe`,
        "POST /organization/sip",
        "POST /voices/voice-clone",
      ]);
      const outputs = await stack.outputs();
      firstVoiceId = outputs.voiceId as string;
      firstCarrierId = outputs.carrierId as string;
      expect(outputs.adoptedId).toBe(existingId);
      const resources = await stack.resources();
      expect(resources.adopted!.id).toBe(existingId);
      expect(resources.adopted!.outputs).toMatchObject({
        name: "Existing trunk",
        carrierId: existingId,
      });
      expect(resources.voice!.type).toBe("voiceplatform:index:Voice");
    });

    it("a preview without changes", async () => {
      await stack.must(["preview", "--expect-no-changes"]);
    });

    it("a new voice name updates the voice in place, and its preview sends nothing", async () => {
      await stack.config({ voiceName: "Plugin voice two" });
      const preview = await stack.must(["preview"]);
      expect(changeSummary(preview.stdout)).toMatchObject({ "to update": 1 });
      expect(await newCalls()).toEqual([]);
      const result = await stack.pulumiUp();
      expect(changeSummary(result.stdout)).toMatchObject({ updated: 1 });
      expect(await newCalls()).toEqual([`PUT /voices/${firstVoiceId}`]);
      const org = await organization("org_a");
      expect(org.voices.map((v) => [v.id, v.name])).toEqual([[firstVoiceId, "Plugin voice two"]]);
      expect((await stack.outputs()).voiceId).toBe(firstVoiceId);
    });

    it("a new carrier name replaces the carrier, and its preview sends nothing", async () => {
      await stack.config({ carrierName: "Plugin trunk two" });
      const preview = await stack.must(["preview"]);
      expect(changeSummary(preview.stdout)).toMatchObject({ "to replace": 1 });
      expect(await newCalls()).toEqual([]);
      const result = await stack.pulumiUp();
      expect(changeSummary(result.stdout)).toMatchObject({ replaced: 1 });
      expect(await newCalls()).toEqual(["POST /organization/sip"]);
      const carrierId = (await stack.outputs()).carrierId as string;
      expect(carrierId).not.toBe(firstCarrierId);
      const org = await organization("org_a");
      // The API cannot delete: the old carrier stays on the platform, and delete said so.
      expect(org.carriers.map((c) => c.id)).toEqual(
        expect.arrayContaining([firstCarrierId, carrierId, existingId]),
      );
      expect(result.stdout + result.stderr).toMatch(/stays on the platform/);
    });

    it("refresh keeps what state holds, and the next preview has no changes", async () => {
      // Compared decrypted: every write encrypts a secret anew.
      const before = await stack.resources(true);
      await stack.must(["refresh", "--yes"]);
      const after = await stack.resources(true);
      for (const name of ["voice", "trunk", "hook", "adopted"]) {
        expect(after[name]!.outputs).toEqual(before[name]!.outputs);
      }
      await stack.must(["preview", "--expect-no-changes"]);
    });

    it("`pulumi import` adopts a carrier by id, recording it without a call", async () => {
      const id = await carrierMadeElsewhere("Imported by command");
      const requestsBefore = (await emulator.requests()).length;
      const result = await stack.must([
        "import",
        "voiceplatform:index:SipCarrier",
        "cli-imported",
        id,
        "--yes",
        "--protect=false",
      ]);
      expect(result.stdout).toMatch(/imported/);
      expect((await emulator.requests()).length).toBe(requestsBefore);
      const resources = await stack.resources();
      // What the id tells, and the marker by which the next update records the declared inputs.
      expect(resources["cli-imported"]).toMatchObject({
        id,
        outputs: { carrierId: id, __importedWithoutRead: true },
      });
    });

    it("preflight of the stack prints no secret", async () => {
      const preflight = await stack.tool(["preflight", "--stack", "dev"]);
      expect(preflight.code).toBe(0);
      expect(leaks(preflight.stdout + preflight.stderr)).toEqual([]);
    });

    it("state holds no __provider and no secret in plaintext; the secrets are encrypted", async () => {
      const exported = await stack.exportText();
      expect(exported).not.toContain("__provider");
      expect(exported).toContain("ciphertext");
      expect(leaks(exported)).toEqual([]);
      expect(leaks(await stack.readStackConfig())).toEqual([]);
      const resources = JSON.parse(exported).deployment.resources as {
        urn: string;
        type: string;
        outputs?: Record<string, unknown>;
      }[];
      const trunk = resources.find((r) => r.urn.endsWith("::trunk"));
      expect(JSON.stringify(trunk!.outputs!.registerPassword)).toContain("ciphertext");
      const bytes = resources
        .filter((r) => r.type.startsWith("voiceplatform:index:"))
        .map((r) => `${r.type.split(":").pop()} ${Buffer.byteLength(JSON.stringify(r))} B`);
      console.log(`state bytes per resource through the plugin: ${bytes.join(", ")}`);
    });

    it("destroy removes everything from the stack, and nothing printed showed a secret", async () => {
      const result = await stack.must(["destroy", "--yes"]);
      expect(result.stdout).toMatch(/deleted/);
      const remaining = Object.values(await stack.resources()).filter((r) =>
        r.type.startsWith("voiceplatform:index:"),
      );
      expect(remaining).toEqual([]);
      expect(leaks(stack.transcript.join("\n"))).toEqual([]);
    });
  },
);

const twoProvidersProgram = `name: plugin-yaml-two-orgs
runtime: yaml
config:
  keyA:
    type: string
resources:
  orgA:
    type: pulumi:providers:voiceplatform
    properties:
      apiKey: \${keyA}
      baseUrl: BASE_URL
      campaignsBaseUrl: CAMPAIGNS_URL
  orgB:
    type: pulumi:providers:voiceplatform
    properties:
      apiKey: ${SECRETS.keyB}
      baseUrl: BASE_URL
      campaignsBaseUrl: CAMPAIGNS_URL
      timeoutSeconds: 30
  trunkA:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Trunk of A
    options:
      provider: \${orgA}
  trunkB:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Trunk of B
    options:
      provider: \${orgB}
  hookB:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://hooks.example.com/b
    options:
      provider: \${orgB}
`;

describeYaml("two explicit providers with two organizations' keys", () => {
  jest.setTimeout(600_000);
  let stack: YamlStack;

  beforeAll(async () => {
    await emulator.reset();
    const program = twoProvidersProgram
      .replaceAll("CAMPAIGNS_URL", emulator.campaignsBaseUrl)
      .replaceAll("BASE_URL", emulator.baseUrl);
    // No stack config for the package and no environment: each provider has only its own inputs.
    stack = await YamlStack.create(program);
    await stack.config({ keyA: SECRETS.apiKey }, true);
  }, 600_000);

  afterAll(async () => {
    await stack?.remove();
  });

  it("each key is used for its own resources only", async () => {
    await stack.pulumiUp();
    const [a, b] = [await organization("org_a"), await organization("org_b")];
    expect(a.carriers.map((c) => c.name)).toEqual(["Trunk of A"]);
    expect(b.carriers.map((c) => c.name)).toEqual(["Trunk of B"]);
    expect(Object.values(a.subscriptions).flat()).toEqual([]);
    expect(
      Object.values(b.subscriptions)
        .flat()
        .map((s) => s.url),
    ).toEqual(["https://hooks.example.com/b"]);
    // No call was refused: no key reached the other organization's resources.
    const statuses = (await emulator.requests()).map((r) => r.status);
    expect(statuses.every((status) => status !== null && status < 300)).toBe(true);
  });

  it("both keys are secret in the providers' state, even the one written in plain text", async () => {
    const exported = await stack.exportText();
    expect(leaks(exported)).toEqual([]);
    const providers = (await stack.resources()) as Record<
      string,
      { outputs?: { apiKey?: unknown } }
    >;
    for (const name of ["orgA", "orgB"])
      expect(JSON.stringify(providers[name]!.outputs!.apiKey)).toContain("ciphertext");
  });

  it("a rotated key updates the provider and replaces nothing", async () => {
    await stack.config({ keyA: `${SECRETS.apiKey}-rotated` }, true);
    const preview = await stack.must(["preview", "--diff"]);
    expect(changeSummary(preview.stdout)).not.toHaveProperty("to replace");
    await stack.must(["destroy", "--yes"]);
  });
});

describeYaml("bad provider configuration", () => {
  jest.setTimeout(600_000);

  it("fails the preview naming each field and how to fix it, before any call", async () => {
    const stack = await YamlStack.create(`name: plugin-yaml-bad-config
runtime: yaml
resources:
  bad:
    type: pulumi:providers:voiceplatform
    properties:
      apiKey: some-key-4Rt9
      baseUrl: not-a-url
      maxConcurrency: 0
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Never created
    options:
      provider: \${bad}
`);
    try {
      await emulator.reset();
      const explicit = await stack.pulumi(["preview"]);
      const text = explicit.stdout + explicit.stderr;
      expect(explicit.code).not.toBe(0);
      expect(text).toMatch(/baseUrl .*must be an absolute https URL/);
      expect(text).toMatch(/maxConcurrency .*must be a whole number from 1 to 256/);
      expect(text).not.toContain("some-key-4Rt9");
      // The default provider reads stack config, which is text: a timeout that is not a number.
      await stack.writeProgram(`name: plugin-yaml-bad-config
runtime: yaml
resources:
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Never created
`);
      await stack.config({ "voiceplatform:timeoutSeconds": "soon" });
      const fromConfig = await stack.pulumi(["preview"]);
      expect(fromConfig.code).not.toBe(0);
      expect(fromConfig.stdout + fromConfig.stderr).toMatch(
        /timeoutSeconds .*must be a number from 1 to 600 \("soon"\)/,
      );
      expect(await emulator.requests()).toEqual([]);
    } finally {
      await stack.remove();
    }
  });
});

const recordOnlyProgram = (extra: string) => `name: plugin-yaml-routes
runtime: yaml
${extra}
resources:
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Recorded trunk
      existingCarrierId: carrier-made-elsewhere
outputs:
  carrierId: \${trunk.carrierId}
`;

describeYaml("the plugin's other install routes (nothing on PATH)", () => {
  jest.setTimeout(600_000);

  it("a plugin folder: plugins.providers[].path at the package's PulumiPlugin.yaml", async () => {
    const stack = await YamlStack.create(
      recordOnlyProgram(`plugins:
  providers:
    - name: voiceplatform
      path: ./node_modules/pulumi-voice-platform/provider/plugin/pulumi-plugin`),
      {},
      { ambient: false },
    );
    try {
      const result = await stack.pulumiUp();
      expect(result.stdout).not.toMatch(/from \$PATH/);
      expect((await stack.outputs()).carrierId).toBe("carrier-made-elsewhere");
    } finally {
      await stack.remove();
    }
  });

  it("`pulumi package add` of the package's plugin folder", async () => {
    const stack = await YamlStack.create(recordOnlyProgram(""), {}, { ambient: false });
    try {
      await stack.must([
        "package",
        "add",
        "./node_modules/pulumi-voice-platform/provider/plugin/pulumi-plugin",
      ]);
      // Older CLIs (3.209) write the plugin's version after the path (`…/pulumi-plugin@0.1.0`).
      expect(await readFile(join(stack.dir, "Pulumi.yaml"), "utf8")).toMatch(
        /packages:\n\s+voiceplatform: \.\/node_modules\/pulumi-voice-platform\/provider\/plugin\/pulumi-plugin(@\d+\.\d+\.\d+)?\n/,
      );
      await stack.pulumiUp();
      expect((await stack.outputs()).carrierId).toBe("carrier-made-elsewhere");
    } finally {
      await stack.remove();
    }
  });

  it("`pulumi plugin install --file` with the launcher, which finds the package from the program", async () => {
    const stack = await YamlStack.create(recordOnlyProgram(""), {}, { ambient: false });
    try {
      await stack.must([
        "plugin",
        "install",
        "resource",
        "voiceplatform",
        packageSchema().version,
        "--file",
        "node_modules/.bin/pulumi-resource-voiceplatform",
      ]);
      // The plugin cache lists it with the version it reports.
      const listed = await stack.must(["plugin", "ls"]);
      expect(listed.stdout).toMatch(
        new RegExp(`voiceplatform\\s+resource\\s+${packageSchema().version.replace(/\./g, "\\.")}`),
      );
      const result = await stack.pulumiUp();
      expect(result.stdout).not.toMatch(/from \$PATH/);
      expect((await stack.outputs()).carrierId).toBe("carrier-made-elsewhere");
    } finally {
      await stack.remove();
    }
  });
});
