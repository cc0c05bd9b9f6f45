/**
 * The engine's conventions through the plugin from a Python program (the generated SDK, Pulumi's
 * Python host), under the real CLI (issue 30): `replace_on_changes` replaces, a replacement names
 * its cause (a secret input included), a bad input shows its value and place, an import with
 * `ignore_changes` on a required input passes and sends nothing, `get()` fills what the id tells,
 * and `pulumi about` reports the plugin's version. Every preview sends nothing.
 *
 * The program is examples/python's copy (its virtualenv, the plugin on PATH) with its own
 * __main__.py.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { copyExampleOut, type ExampleCopy } from "../examples/example-copy";
import { packageSchema } from "../../provider/schema/package-schema";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { changeSummary, YamlStack, type CommandResult } from "./yaml-stack";

const API_KEY = "python-conventions-api-key-8Rb2";
const SIP_PASSWORD = "python-conventions-sip-pw-1Qz7";
const ROTATED = "python-conventions-sip-pw-rotated-6Ty4";

const PROGRAM = `import pulumi
import pulumi_voiceplatform as voiceplatform

config = pulumi.Config()

voice = voiceplatform.Voice(
    "voice",
    name=config.get("voiceName") or "Voice one",
    supported_locales=[config.get("locale") or "en-US"],
    files=["samples/greeting.wav"],
    opts=pulumi.ResourceOptions(replace_on_changes=["name"]),
)

trunk = voiceplatform.SipCarrier(
    "trunk",
    name="trunk",
    register_password=config.require_secret("sipPassword"),
    gateways=[voiceplatform.SipGatewayArgs(ipv4="203.0.113.10")],
)

adopt_id = config.get("adoptCarrierId")
if adopt_id:
    voiceplatform.SipCarrier(
        "adopted",
        name="main-trunk",
        opts=pulumi.ResourceOptions(import_=adopt_id, ignore_changes=["name"]),
    )
    fetched = voiceplatform.SipCarrier.get("fetched", adopt_id)
    pulumi.export("fetchedCarrierId", fetched.carrier_id)

pulumi.export("voiceRecordId", voice.id)
`;

const { describe: describePython } = requirePulumiCli({
  languageHosts: ["python"],
  purpose: "the engine's conventions through the plugin, from Python",
});

const text = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

describePython("the engine's conventions through the plugin, from a Python program", () => {
  jest.setTimeout(600_000);
  let emulator: RunningEmulator;
  let copy: ExampleCopy;
  let stack: YamlStack;
  const started = Date.now();

  async function newCalls(): Promise<string[]> {
    return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
  }

  async function preview(args: string[] = []): Promise<CommandResult> {
    const result = await stack.pulumi(["preview", ...args]);
    expect(await newCalls()).toEqual([]);
    return result;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    copy = await copyExampleOut("python");
    await writeFile(join(copy.dir, "__main__.py"), PROGRAM);
    stack = await YamlStack.forProject(copy.dir, {
      ...copy.env,
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    });
    await stack.config({ "voiceplatform:apiKey": API_KEY, sipPassword: SIP_PASSWORD }, true);
  }, 600_000);

  afterAll(async () => {
    console.log(`python conventions suite: ${Math.round((Date.now() - started) / 1000)} s`);
    await emulator?.stop();
    if (copy !== undefined) await rm(copy.root, { recursive: true, force: true });
  });

  it("up creates the voice and the carrier once each", async () => {
    expect(changeSummary((await preview()).stdout)).toMatchObject({ "to create": 3 });
    await stack.pulumiUp();
    expect((await newCalls()).sort()).toEqual([
      "POST /organization/sip",
      "POST /voices/voice-clone",
    ]);
  });

  it("replace_on_changes: a new voice name replaces the voice, naming the cause: a clone, no PUT", async () => {
    await stack.config({ voiceName: "Voice two" });
    const shown = await preview();
    expect(shown.stdout).toMatch(/voice +replace +\[diff: ~name\]/);
    await stack.pulumiUp();
    expect(await newCalls()).toEqual(["POST /voices/voice-clone"]);
  });

  it("a new password replaces the carrier, named as the cause and never shown", async () => {
    await stack.config({ sipPassword: ROTATED }, true);
    const shown = await preview();
    expect(shown.stdout).toMatch(/trunk +replace +\[diff: ~registerPassword\]/);
    const detailed = await preview(["--diff"]);
    expect(detailed.stdout).toMatch(/~ registerPassword: \[secret\] => \[secret\]/);
    expect(detailed.stdout).not.toMatch(/stateVersion|- carrierId/);
    await stack.pulumiUp();
    expect(await newCalls()).toEqual(["POST /organization/sip"]);
  });

  it("a bad locale fails the preview showing its value and place, never <nil>", async () => {
    await stack.config({ locale: "english" });
    const shown = await preview();
    expect(shown.code).not.toBe(0);
    expect(text(shown)).toMatch(
      /property supportedLocales value \{\[\{english\}\]\} has a problem: supportedLocales\[0\] \("english"\) must be a locale code/,
    );
    expect(text(shown)).not.toContain("<nil>");
    await stack.must(["config", "rm", "locale"]);
  });

  it("import with ignore_changes on a required input passes and sends nothing; get() fills what the id tells", async () => {
    const response = await request(`${emulator.baseUrl}/organization/sip`, {
      method: "POST",
      headers: { authorization: API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ name: "made elsewhere" }),
    });
    const id = ((await response.body.json()) as { id: string }).id;
    await newCalls();
    await stack.config({ adoptCarrierId: id });
    const shown = await preview();
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/adopted +import/);
    const up = await stack.pulumiUp();
    expect(changeSummary(up.stdout)).toMatchObject({ imported: 1 });
    expect(await newCalls()).toEqual([]);
    expect((await stack.outputs()).fetchedCarrierId).toBe(id);
    expect(text(up)).toMatch(/no read operation: only carrierId \(from the id\) is known/);
    expect((await preview(["--expect-no-changes"])).code).toBe(0);
  });

  it("`pulumi about` reports the plugin's version", async () => {
    const about = await stack.must(["about"]);
    const version = packageSchema().version.replace(/\./g, "\\.");
    expect(about.stdout).toMatch(new RegExp(`resource\\s+voiceplatform\\s+${version}`));
  });

  it("destroy leaves the stack empty; nothing printed showed a secret", async () => {
    await stack.must(["destroy", "--yes"]);
    const printed = stack.transcript.join("\n");
    for (const secret of [API_KEY, SIP_PASSWORD, ROTATED]) expect(printed).not.toContain(secret);
  });
});
