/**
 * The engine's conventions through the plugin, from a Pulumi YAML program under the real CLI, on
 * one stack through its whole life (issue 30): every resource option as Pulumi documents it
 * (replaceOnChanges, ignoreChanges, deleteBeforeReplace, protect, retainOnDelete, aliases,
 * import), every replacement naming its cause (a secret input included), check failures that show
 * the value and its place, warnings said once, `get`, `pulumi import` and import ids checked per
 * resource, `refresh` saying what it did, the webhook replacement saying what the platform holds,
 * and the plugin's version in `pulumi about`. Every preview sends nothing: the emulator's request
 * log is checked after each.
 *
 * What each option's preview printed is logged (`preview of <option>:`), for the issue's notes.
 */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { packageSchema } from "../../provider/schema/package-schema";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack, type CommandResult } from "./yaml-stack";
import { WILL_STAY } from "../e2e/harness";

const API_KEY = "yaml-conventions-api-key-4Nq8";
const SIP_PASSWORD = "yaml-conventions-sip-pw-7Hc2";
const ROTATED_PASSWORD = "yaml-conventions-sip-pw-rotated-9Lm5";
const HEADER_TOKEN = "Bearer yaml-conventions-token-3Vx1";
const SECRETS = [API_KEY, SIP_PASSWORD, ROTATED_PASSWORD, HEADER_TOKEN];
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";
const version = packageSchema().version;

const { describe: describeYaml } = requirePulumiCli({
  languageHosts: ["yaml"],
  purpose: "the engine's conventions through the plugin, from YAML",
});

interface Variant {
  /** Options of the voice beside its version. */
  voiceOptions?: string;
  /** The resource names the webhook has had (for aliases). */
  hookName?: string;
  hookAliases?: string;
  kept?: boolean;
  /** Extra resources. */
  more?: string;
}

function program(variant: Variant = {}): string {
  const {
    voiceOptions = "replaceOnChanges: [name]",
    hookName = "hook",
    hookAliases,
    kept = true,
    more = "",
  } = variant;
  return `name: plugin-yaml-conventions
runtime: yaml
config:
  voiceName:
    type: string
    default: Voice one
  locale:
    type: string
    default: en-US
  sipPassword:
    type: string
    secret: true
  guardedName:
    type: string
    default: guarded-trunk
  hookUrl:
    type: string
    default: https://hooks.example.com/calls
  headerToken:
    type: string
    secret: true
resources:
  voice:
    type: voiceplatform:index:Voice
    properties:
      name: \${voiceName}
      supportedLocales:
        - \${locale}
      files:
        - ./samples/a.wav
    options:
      version: ${version}
      ${voiceOptions}
  trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: trunk
      registerPassword: \${sipPassword}
      gateways:
        - ipv4: 203.0.113.10
    options:
      deleteBeforeReplace: true
  guarded:
    type: voiceplatform:index:SipCarrier
    properties:
      name: \${guardedName}
    options:
      protect: true
${
  kept
    ? `  kept:
    type: voiceplatform:index:SipCarrier
    properties:
      name: kept-trunk
    options:
      retainOnDelete: true
`
    : ""
}  ${hookName}:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: \${hookUrl}
      events: [POST_PROCESSING_FINISHED:INTERESTED]
${hookAliases === undefined ? "" : `    options:\n      aliases: [${hookAliases}]\n`}  crm:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://crm.example.com/calls
      isAdvanced: true
      advancedWebhook:
        url: https://crm.example.com/hook
        method: POST
        headers:
          - name: Authorization
            value: \${headerToken}
${more}outputs:
  voiceId: \${voice.id}
  trunkId: \${trunk.carrierId}
`;
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ apiKey: API_KEY });
});

afterAll(async () => {
  await emulator?.stop();
});

/** A carrier made on the platform outside Pulumi. */
async function carrierMadeElsewhere(name: string): Promise<string> {
  const response = await request(`${emulator.baseUrl}/organization/sip`, {
    method: "POST",
    headers: { authorization: API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(response.statusCode).toBe(201);
  return ((await response.body.json()) as { id: string }).id;
}

const text = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

describeYaml("the engine's conventions through the plugin, from a YAML program", () => {
  jest.setTimeout(600_000);
  let stack: YamlStack;
  /** The program from the import on: every later step keeps its resources. */
  let steady: string;
  const started = Date.now();

  async function newCalls(): Promise<string[]> {
    return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
  }

  /** `pulumi preview` (and its arguments), which must send nothing; logged for the notes. */
  async function preview(label: string, args: string[] = []): Promise<CommandResult> {
    const result = await stack.pulumi(["preview", ...args]);
    // The engine's own notice that the plugin came from PATH is left out of the notes.
    const shown = text(result)
      .split("\n")
      .filter((line) => !line.includes("from $PATH"))
      .join("\n");
    console.log(`preview of ${label}: pulumi preview ${args.join(" ")}\n${shown}`);
    expect(await newCalls()).toEqual([]);
    return result;
  }

  beforeAll(async () => {
    stack = await YamlStack.create(program(), { "samples/a.wav": "RIFF....WAVEfmt yaml sample" });
    await stack.config({ "voiceplatform:apiKey": API_KEY }, true);
    await stack.config({
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
    });
    await stack.config({ sipPassword: SIP_PASSWORD, headerToken: HEADER_TOKEN }, true);
  }, 600_000);

  afterAll(async () => {
    console.log(`yaml conventions suite: ${Math.round((Date.now() - started) / 1000)} s`);
    await stack?.remove();
  });

  it("a preview of the new stack sends nothing; up creates each object once; a warning is said where its inputs are new", async () => {
    const first = await preview("a new stack");
    expect(changeSummary(first.stdout)).toMatchObject({ "to create": 7 });
    expect(text(first)).toMatch(/crm.*advancedWebhook\.method "POST" is not GET/s);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ created: 7 });
    expect((await newCalls()).sort()).toEqual([
      `POST /campaigns/${campaignId}/webhook/subscribe`,
      `POST /campaigns/${campaignId}/webhook/subscribe`,
      "POST /organization/sip",
      "POST /organization/sip",
      "POST /organization/sip",
      "POST /voices/voice-clone",
    ]);
  });

  it("the next preview has no change and repeats no warning: the stored inputs earned it already", async () => {
    const again = await preview("an unchanged stack", ["--expect-no-changes"]);
    expect(again.code).toBe(0);
    expect(text(again)).not.toMatch(/is not GET/);
  });

  it("replaceOnChanges: a new voice name replaces the voice (a clone, no PUT), naming the cause", async () => {
    await stack.config({ voiceName: "Voice two" });
    const shown = await preview("replaceOnChanges");
    expect(shown.stdout).toMatch(/voice +replace +\[diff: ~name\]/);
    // The preview names the object the replacement will leave on the platform.
    expect(text(shown)).toMatch(new RegExp(`"voice" \\(\\w+\\) ${WILL_STAY}`));
    const detailed = await preview("replaceOnChanges, detailed", ["--diff"]);
    expect(detailed.stdout).toMatch(/~ name: "Voice one" => "Voice two"/);
    // Only the cause: no output or bookkeeping shown as removed.
    expect(detailed.stdout).not.toMatch(/stateVersion|- (voiceId|samples|clonedVoices)\b/);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ replaced: 1 });
    expect(await newCalls()).toEqual(["POST /voices/voice-clone"]);
    expect(text(up)).toMatch(/voice "Voice one" \(\w+\) is replaced: .*the platform holds both/);
  });

  it("ignoreChanges: a new voice name is no change, and nothing is sent", async () => {
    await stack.writeProgram(program({ voiceOptions: "ignoreChanges: [name]" }));
    await stack.config({ voiceName: "Voice three" });
    const shown = await preview("ignoreChanges", ["--expect-no-changes"]);
    expect(shown.code).toBe(0);
    await stack.pulumiUp();
    expect(await newCalls()).toEqual([]);
  });

  it("deleteBeforeReplace and a secret cause: a new password replaces the carrier, deleting first, the password named but never shown", async () => {
    await stack.config({ sipPassword: ROTATED_PASSWORD }, true);
    const shown = await preview("deleteBeforeReplace");
    expect(shown.stdout).toMatch(/trunk +replace +\[diff: ~registerPassword\]/);
    const deleteAt = shown.stdout.search(/trunk +delete original/);
    const createAt = shown.stdout.search(/trunk +create replacement/);
    expect(deleteAt).toBeGreaterThanOrEqual(0);
    expect(deleteAt).toBeLessThan(createAt);
    const detailed = await preview("a secret cause, detailed", ["--diff"]);
    expect(detailed.stdout).toMatch(/~ registerPassword: \[secret\] => \[secret\]/);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ replaced: 1 });
    expect(await newCalls()).toEqual(["POST /organization/sip"]);
    expect(text(up)).toMatch(/SIP carrier "trunk" \(\w+\) is replaced/);
  });

  it("protect: a change that would replace a protected carrier fails the preview", async () => {
    await stack.config({ guardedName: "guarded-renamed" });
    const shown = await preview("protect");
    expect(shown.code).not.toBe(0);
    expect(text(shown)).toMatch(/unable to replace resource .*guarded/);
    expect(text(shown)).toMatch(/marked for protection/);
    await stack.config({ guardedName: "guarded-trunk" });
  });

  it("retainOnDelete: a carrier left out of the program leaves the stack; delete is not called", async () => {
    await stack.writeProgram(program({ voiceOptions: "ignoreChanges: [name]", kept: false }));
    const shown = await preview("retainOnDelete");
    expect(shown.stdout).toMatch(/kept +delete\[retain\]/);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ deleted: 1 });
    expect(text(up)).not.toMatch(/kept-trunk.*stays on the platform/);
    expect(await newCalls()).toEqual([]);
  });

  it("aliases: a renamed webhook with an alias to its old name is no change", async () => {
    const alias = `"urn:pulumi:${stack.stack}::plugin-yaml-conventions::voiceplatform:index:CampaignWebhook::hook"`;
    await stack.writeProgram(
      program({
        voiceOptions: "ignoreChanges: [name]",
        kept: false,
        hookName: "hook-renamed",
        hookAliases: alias,
      }),
    );
    const shown = await preview("aliases", ["--expect-no-changes"]);
    expect(shown.code).toBe(0);
    await stack.pulumiUp();
    expect(await newCalls()).toEqual([]);
  });

  it("import with ignoreChanges on a required input: adopted without a call, and every later preview passes", async () => {
    const id = await carrierMadeElsewhere("made elsewhere");
    await newCalls();
    const adopted = `  adopted:
    type: voiceplatform:index:SipCarrier
    properties:
      name: main-trunk
    options:
      import: ${id}
      ignoreChanges: [name]
  looked:
    type: voiceplatform:index:SipCarrier
    get:
      id: ${id}
`;
    steady = program({
      voiceOptions: "ignoreChanges: [name]",
      kept: false,
      hookName: "hook-renamed",
      hookAliases: `"urn:pulumi:${stack.stack}::plugin-yaml-conventions::voiceplatform:index:CampaignWebhook::hook"`,
      more: adopted,
    }).replace(
      "outputs:\n",
      "outputs:\n  lookedCarrierId: ${looked.carrierId}\n  lookedName: ${looked.name}\n",
    );
    await stack.writeProgram(steady);
    const shown = await preview("import");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/adopted +import/);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ imported: 1 });
    expect(await newCalls()).toEqual([]);
    expect((await stack.resources()).adopted!.id).toBe(id);
    // get(): what the id tells, and a warning that nothing else can be read.
    const outputs = await stack.outputs();
    expect(outputs.lookedCarrierId).toBe(id);
    expect(outputs.lookedName ?? undefined).toBeUndefined();
    expect(text(up)).toMatch(/no read operation: only carrierId \(from the id\) is known/);
    const again = await preview("an imported carrier", ["--expect-no-changes"]);
    expect(again.code).toBe(0);
  });

  it("a bad input fails the preview showing its value and place, never <nil>", async () => {
    expect(steady).toContain("adopted:");
    await stack.config({ locale: "english" });
    const shown = await preview("a bad locale");
    expect(shown.code).not.toBe(0);
    expect(text(shown)).toMatch(
      /property supportedLocales value \{\[\{english\}\]\} has a problem: supportedLocales\[0\] \("english"\) must be a locale code/,
    );
    expect(text(shown)).not.toContain("<nil>");
    await stack.config({ locale: "en-US" });
  });

  it("a bad input the program marked secret (not config, which the CLI masks itself) fails the preview showing [secret], never its value", async () => {
    const marked = "Marked-Locale-4471";
    const markedVoice = `  markedVoice:
    type: voiceplatform:index:Voice
    properties:
      name: marked voice
      supportedLocales:
        - fn::secret: ${marked}
      files:
        - ./samples/a.wav
`;
    await stack.writeProgram(steady.replace("outputs:\n", `${markedVoice}outputs:\n`));
    const shown = await preview("a bad locale marked secret");
    expect(shown.code).not.toBe(0);
    expect(text(shown)).toContain("supportedLocales");
    expect(text(shown)).toContain("[secret]");
    expect(text(shown).toLowerCase()).not.toContain(marked.toLowerCase());
    await stack.writeProgram(steady);
  });

  it("import ids are checked per resource, in recover's words, before anything is recorded", async () => {
    const before = await stack.exportText();
    const bad = await stack.pulumi([
      "import",
      "voiceplatform:index:CampaignWebhook",
      "h",
      "not-a-webhook-id",
      "--yes",
    ]);
    expect(bad.code).not.toBe(0);
    expect(text(bad)).toMatch(/"not-a-webhook-id" is not a campaign webhook id/);
    // Declared inputs that cannot be the imported subscription's are refused as recover refuses them.
    await stack.writeProgram(
      steady.replace(
        "outputs:\n",
        `  imported:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: ${campaignId}
      url: https://elsewhere.example.com/calls
    options:
      import: 0123456789abcdef01234567/3b241101-e2bb-4255-8caf-4136c566a962
outputs:
`,
      ),
    );
    const mismatched = await preview("an import whose inputs do not match its id");
    expect(mismatched.code).not.toBe(0);
    expect(text(mismatched)).toMatch(
      /cannot be imported with these inputs: the id names campaign 0123456789abcdef01234567, but this subscription's campaignId is 65a1f0c2e4b0a1b2c3d4e5f6/,
    );
    await stack.writeProgram(steady);
    expect(await stack.exportText()).toBe(before);
  });

  it("refresh says that it kept each resource as the stack holds it", async () => {
    const refresh = await stack.must(["refresh", "--yes"]);
    expect(text(refresh)).toMatch(
      /refresh kept SipCarrier "\w+" as the stack holds it: the platform has no read operation/,
    );
    expect(await newCalls()).toEqual([]);
  });

  it("a webhook replacement says the campaign then holds 2 subscriptions, as it does", async () => {
    await stack.config({ hookUrl: "https://hooks.example.com/calls-v2" });
    const shown = await preview("a webhook replacement");
    expect(shown.stdout).toMatch(/hook-renamed +replace +\[diff: ~url\]/);
    const up = await stack.pulumiUp();
    expect(text(up)).toMatch(
      /campaign webhook \S+ \(https:\/\/hooks\.example\.com\/calls\) is replaced, and stays subscribed to campaign 65a1f0c2e4b0a1b2c3d4e5f6: .*holds 2 subscriptions/,
    );
    const held = (await emulator.state()).organizations.org_emulator!.subscriptions[campaignId]!;
    expect(held.map((s) => s.url).filter((url) => url.startsWith("https://hooks."))).toEqual([
      "https://hooks.example.com/calls",
      "https://hooks.example.com/calls-v2",
    ]);
  });

  it("`pulumi about` reports the plugin's version the program asks for", async () => {
    const about = await stack.must(["about"]);
    expect(about.stdout).toMatch(
      new RegExp(`resource\\s+voiceplatform\\s+${version.replace(/\./g, "\\.")}`),
    );
  });

  it("nothing printed showed a secret", async () => {
    const printed = stack.transcript.join("\n");
    for (const secret of SECRETS) expect(printed).not.toContain(secret);
    expect(printed).toContain("[secret]");
  });
});
