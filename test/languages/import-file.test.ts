/**
 * `pulumi import --file` with `outputs` (CLI 3.254 and later): the engine records the file's
 * inputs and outputs as the resource's state and calls no Read, so the plugin never sees the
 * import. Through the plugin, from a Pulumi YAML program, against the emulator, for each kind:
 *
 * - moving objects between stacks: the outputs `pulumi stack export --show-secrets` gives, with
 *   their secrets in Pulumi's secret form, are recorded encrypted, without a call; the program's
 *   preview then finds no change, and a change is an update of the same object;
 * - a file written by hand holding only the declared inputs (no `samples`, `carrierId`, `status`):
 *   the voice's unrecorded samples are described from the declared files, so no kind is replaced
 *   (a replacement would clone, create or subscribe a second object).
 *
 * The import (and every preview here) sends nothing to the platform.
 */
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack, type StateResource } from "./yaml-stack";

const SECRETS = {
  apiKey: "import-file-apikey-4Rt7-distinctive",
  sipPassword: "import-file-sip-password-8Lm2",
  headerValue: "Bearer import-file-header-1Zx9",
};
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";
const SAMPLE_A = Buffer.from("RIFF....WAVEfmt import file sample A");
/** Pulumi's signature key of serialized secrets and assets, and the values marking each. */
const ASSET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = { [ASSET_SIG_KEY]: "1b47061264138c4ac30d75fd1eb44270" };

const { describe: describeYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "import files with outputs",
});

const program = `name: import-file
runtime: yaml
config:
  voiceName:
    type: string
    default: Imported voice
  sipPassword:
    type: string
  crmToken:
    type: string
resources:
  voice:
    type: voiceplatform:index:Voice
    properties:
      name: \${voiceName}
      supportedLocales: [en-US]
      files:
        - fn::fileAsset: ./samples/a.wav
        - ./samples/b.wav
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: Imported trunk
      requiresRegister: true
      registerUsername: trunk-user
      registerPassword: \${sipPassword}
      gateways:
        - ipv4: 203.0.113.10
          inbound: true
  hook:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://hooks.example.com/calls
      events: [POST_PROCESSING_FINISHED:INTERESTED]
      isAdvanced: true
      advancedWebhook:
        url: https://crm.example.com/hook
        method: GET
        headers:
          - name: Authorization
            value: \${crmToken}
outputs:
  voiceId: \${voice.id}
`;

const KINDS = { voice: "Voice", trunk: "SipCarrier", hook: "CampaignWebhook" } as const;

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

/** Pulumi's serialized secret, as `stack export --show-secrets` writes it and import files take it. */
const secret = (value: unknown) => ({ ...SECRET_SIG, plaintext: JSON.stringify(value) });

let emulator: RunningEmulator;
let source: YamlStack;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: SECRETS.apiKey });
});

afterAll(async () => {
  await source?.remove();
  await emulator?.stop();
});

/** A stack of the project configured for the emulator, with the program's secrets. */
async function configured(stack: YamlStack): Promise<YamlStack> {
  await stack.config({ "voiceplatform:apiKey": SECRETS.apiKey }, true);
  await stack.config({
    "voiceplatform:baseUrl": emulator.baseUrl,
    "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
  });
  await stack.config({ sipPassword: SECRETS.sipPassword, crmToken: SECRETS.headerValue }, true);
  return stack;
}

/** `pulumi import --file` of these resources into `stack`; returns what the import printed. */
async function importFile(
  stack: YamlStack,
  resources: { name: keyof typeof KINDS; id: string; inputs?: object; outputs: object }[],
): Promise<string> {
  const file = join(stack.dir, `import-${stack.stack}.json`);
  await writeFile(
    file,
    JSON.stringify({
      resources: resources.map((r) => ({ type: `voiceplatform:index:${KINDS[r.name]}`, ...r })),
    }),
  );
  const result = await stack.importFile(file);
  return result.stdout;
}

async function newCalls(): Promise<string[]> {
  return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
}

describeYaml("import files that carry outputs, through the plugin", () => {
  jest.setTimeout(600_000);
  let exported: Record<string, StateResource>;

  beforeAll(async () => {
    source = await configured(
      await YamlStack.create(program, {
        "samples/a.wav": SAMPLE_A,
        "samples/b.wav": Buffer.from("RIFF....WAVEfmt import file sample B"),
      }),
    );
    await source.pulumiUp();
    exported = await source.resources(true);
    await newCalls();
  }, 600_000);

  it("moves every kind to another stack as exported: recorded encrypted, no call, no change after", async () => {
    const target = await configured(await source.otherStack("moved", {}));
    const printed = await importFile(
      target,
      (["voice", "trunk", "hook"] as const).map((name) => ({
        name,
        id: exported[name]!.id!,
        inputs: exported[name]!.inputs!,
        outputs: exported[name]!.outputs!,
      })),
    );
    expect(changeSummary(printed)).toMatchObject({ imported: 3 });
    expect(await newCalls()).toEqual([]);

    const text = await target.exportText();
    expect(text).toContain("ciphertext");
    expect(leaks(text)).toEqual([]);
    const moved = await target.resources(true);
    for (const name of ["voice", "trunk", "hook"]) {
      expect(moved[name]).toMatchObject({
        id: exported[name]!.id,
        outputs: exported[name]!.outputs,
      });
    }

    await target.must(["preview", "--expect-no-changes"]);
    await target.config({ voiceName: "Imported voice, renamed" });
    const up = await target.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ updated: 1 });
    expect(await newCalls()).toEqual([`PUT /voices/${exported.voice!.id}`]);
    expect(leaks(target.transcript.join("\n"))).toEqual([]);
  });

  it("takes a file written by hand with the declared inputs only: no kind is replaced", async () => {
    const target = await configured(await source.otherStack("by-hand", {}));
    // A FileAsset with its hash, the sha256 of the file (the engine sends a diff no path); a path
    // string as it is.
    const hash = createHash("sha256").update(SAMPLE_A).digest("hex");
    const files = [
      { [ASSET_SIG_KEY]: "c44067f5952c0a294b673a41bacd8c17", path: "./samples/a.wav", hash },
      "./samples/b.wav",
    ];
    const declared = {
      voice: { name: "Imported voice", supportedLocales: ["en-US"], files },
      trunk: {
        name: "Imported trunk",
        requiresRegister: true,
        registerUsername: "trunk-user",
        registerPassword: secret(SECRETS.sipPassword),
        gateways: [{ ipv4: "203.0.113.10", inbound: true }],
      },
      hook: {
        campaignId,
        url: "https://hooks.example.com/calls",
        events: ["POST_PROCESSING_FINISHED:INTERESTED"],
        isAdvanced: true,
        advancedWebhook: secret({
          url: "https://crm.example.com/hook",
          method: "GET",
          headers: [{ name: "Authorization", value: SECRETS.headerValue }],
        }),
      },
    };
    const printed = await importFile(
      target,
      (["voice", "trunk", "hook"] as const).map((name) => ({
        name,
        id: exported[name]!.id!,
        outputs: declared[name],
      })),
    );
    expect(changeSummary(printed)).toMatchObject({ imported: 3 });
    expect(leaks(await target.exportText())).toEqual([]);

    const preview = await target.must(["preview", "--diff"]);
    const summary = changeSummary(preview.stdout);
    expect(summary["to replace"]).toBeUndefined();
    expect(summary["to create"]).toBeUndefined();
    await target.pulumiUp();
    expect(await newCalls()).toEqual([]);
    await target.must(["preview", "--expect-no-changes"]);
    expect(leaks(await target.exportText())).toEqual([]);
  });
});
