/**
 * The engine's conventions on the dynamic resources, as far as Pulumi's dynamic provider protocol
 * allows (issue 30), under the real CLI from a project where the package is installed from its
 * `npm pack` output, on one stack: `replaceOnChanges` honoured, replacements showing their cause
 * and no output as removed, check failures with their value and place, warnings on the resource
 * they concern and said once, an adoption with `ignoreChanges` that sends nothing, `refresh`
 * saying what it did, the `import`, `id` and `get` forms refused naming the adoption input, and a
 * wrong API key found out by the platform, failing the update without the key being printed.
 * Every preview sends nothing.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { upWithPreview } from "../support/pulumi-up";
import { sampleBytes } from "./program";
import {
  describeE2E,
  E2EProject,
  errorText,
  providerWarningDiagnostics,
  WILL_STAY,
  recorder,
  type Transcript,
} from "./harness";

const API_KEY = "e2e-conventions-api-key-6Tg3";
const SIP_PASSWORD = "e2e-conventions-sip-pw-2Wd8";
const ROTATED = "e2e-conventions-sip-pw-rotated-5Kp1";
const WRONG_KEY = "e2e-conventions-wrong-api-key-c0ffee";
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { CampaignWebhook, SipCarrier, Voice } = require("pulumi-voice-platform");

const config = new pulumi.Config("conv");
const mode = config.get("mode") || "stack";
if (mode === "import-option") {
  new SipCarrier("by-import", { name: "trunk" }, { import: "carrier-made-elsewhere" });
} else if (mode === "id-option") {
  new Voice("by-id", { name: "Voice" }, { id: "voice-made-elsewhere" });
} else if (mode === "get") {
  Voice.get("fetched", "voice-made-elsewhere");
} else {
  const voice = new Voice(
    "voice",
    {
      name: config.get("voiceName") || "Voice one",
      supportedLocales: [config.get("locale") || "en-US"],
      files: [config.get("sample") || "samples/a.wav"],
    },
    { replaceOnChanges: ["name"] },
  );
  new SipCarrier("trunk", {
    name: "trunk",
    registerPassword: config.requireSecret("sipPassword"),
    gateways: [{ ipv4: "203.0.113.10", port: config.getNumber("carrierPort") }],
  });
  new CampaignWebhook("hook", {
    campaignId: config.get("campaignId") || "${campaignId}",
    url: "http://hooks.example.com/calls",
    events: [config.get("event") || "POST_PROCESSING_FINISHED:INTERESTED"],
  });
  const existing = config.get("existingVoiceId");
  if (existing) {
    new Voice("adopted", { name: "Named here", existingVoiceId: existing }, { ignoreChanges: ["name"] });
  }
  module.exports = { voiceRecordId: voice.id };
}
`;

describeE2E("the engine's conventions on the dynamic resources", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let stack: Stack;
  const transcripts: Transcript[] = [];
  const started = Date.now();

  function record(): Transcript & { options: ReturnType<typeof recorder>["options"] } {
    const transcript = recorder();
    transcripts.push(transcript);
    return transcript;
  }

  async function newCalls(): Promise<string[]> {
    return (await emulator.newRequests()).map((c) => `${c.method} ${c.path}`);
  }

  /** A preview, which must send nothing; its text and diagnostics. */
  async function preview(diff = false): Promise<Transcript & { summary: Record<string, number> }> {
    const transcript = record();
    const result = await stack.preview({ ...transcript.options, diff });
    expect(await newCalls()).toEqual([]);
    return Object.assign(transcript, { summary: result.changeSummary as Record<string, number> });
  }

  /** A preview that fails (a check failure, a refused option): everything it printed. */
  async function failingPreview(): Promise<string> {
    const transcript = record();
    const failure = await stack.preview(transcript.options).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    expect(await newCalls()).toEqual([]);
    return `${errorText(failure)}\n${transcript.text}\n${transcript.diagnostics.map((d) => d.message).join("\n")}`;
  }

  async function outputs(): Promise<Record<string, unknown>> {
    const all = await stack.outputs();
    return Object.fromEntries(Object.entries(all).map(([name, output]) => [name, output.value]));
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create({
      files: {
        "Pulumi.yaml":
          "name: dynamic-conventions\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n",
        "index.js": PROGRAM,
        "samples/a.wav": sampleBytes("conventions"),
      },
    });
    stack = await project.stack("dev", {
      env: {
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      },
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "conv:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
  });

  afterAll(async () => {
    console.log(`dynamic conventions suite: ${Math.round((Date.now() - started) / 1000)} s`);
    await emulator?.stop();
    await project?.remove();
  });

  const onHook = (transcript: Transcript) =>
    providerWarningDiagnostics(transcript).filter((d) => d.message.includes("is not https"));

  test("a warning is said on the resource it concerns, when its inputs are new, and not again", async () => {
    const first = await preview();
    expect(first.summary).toEqual({ create: 4 });
    expect(onHook(first)).toEqual([
      {
        message: expect.stringContaining("url http://hooks.example.com/calls is not https"),
        urn: expect.stringMatching(/::hook$/),
      },
    ]);
    const up = record();
    await upWithPreview(stack, up.options);
    expect((await newCalls()).sort()).toEqual([
      `POST /campaigns/${campaignId}/webhook/subscribe`,
      "POST /organization/sip",
      "POST /voices/voice-clone",
    ]);
    const again = await preview();
    expect(again.summary).toEqual({ same: 4 });
    expect(onHook(again)).toEqual([]);
    expect(again.text).not.toContain("is not https");
  });

  test("replaceOnChanges: a new voice name replaces the voice (a clone, no PUT), naming the cause and no output", async () => {
    const before = await outputs();
    await stack.setConfig("conv:voiceName", { value: "Voice two" });
    const shown = await preview();
    expect(shown.summary).toEqual({ replace: 1, same: 3 });
    expect(shown.text).toMatch(/voice +replace +\[diff: ~name\]/);
    const detailed = await preview(true);
    expect(detailed.text).toMatch(/~ name\s*: "Voice one" => "Voice two"/);
    expect(detailed.text).not.toMatch(
      /- (voiceId|samples|clonedVoices|stateVersion|organizationId)\b/,
    );
    expect(detailed.text).not.toContain("__resource");
    const up = record();
    await upWithPreview(stack, up.options);
    expect(await newCalls()).toEqual(["POST /voices/voice-clone"]);
    expect(providerWarningDiagnostics(up).filter((d) => !d.message.includes(WILL_STAY))).toEqual([
      {
        message: expect.stringContaining(
          `voice "Voice one" (${String(before.voiceRecordId)}) is replaced: its replacement is created and this one stays on the platform`,
        ),
        urn: expect.stringMatching(/::voice$/),
      },
    ]);
  });

  test("a secret input that replaces a carrier is the named cause; no output shows as removed", async () => {
    await stack.setConfig("conv:sipPassword", { value: ROTATED, secret: true });
    const shown = await preview();
    expect(shown.text).toMatch(/trunk +replace +\[diff: ~registerPassword\]/);
    const detailed = await preview(true);
    expect(detailed.text).toMatch(/~ registerPassword\s*: \[secret\] => \[secret\]/);
    expect(detailed.text).not.toMatch(/- (carrierId|stateVersion)\b/);
    await upWithPreview(stack, record().options);
    expect(await newCalls()).toEqual(["POST /organization/sip"]);
  });

  test("adopting a voice with ignoreChanges on its name sends nothing: the platform's name stays", async () => {
    const voices = (await emulator.state()).organizations.org_emulator!.voices;
    const existing = voices[0]!;
    await stack.setConfig("conv:existingVoiceId", { value: existing.id });
    await upWithPreview(stack, record().options);
    expect(await newCalls()).toEqual([]);
    const after = (await emulator.state()).organizations.org_emulator!.voices;
    expect(after.find((v) => v.id === existing.id)!.name).toBe(existing.name);
  });

  test("bad inputs fail the preview showing each value and its place, never <nil>", async () => {
    await stack.setConfig("conv:locale", { value: "english" });
    await stack.setConfig("conv:sample", { value: "samples/missing.wav" });
    const voice = await failingPreview();
    expect(voice).toMatch(
      /property supportedLocales value \{\[\{english\}\]\} has a problem: supportedLocales\[0\] \("english"\)/,
    );
    expect(voice).toMatch(
      /property files value \{\[\{samples\/missing.wav\}\]\} has a problem: files\[0\] \("samples\/missing.wav"\) .*does not exist/,
    );
    // The engine stops at the first resource that fails: the carrier and the webhook are checked
    // on their own.
    await stack.removeConfig("conv:locale");
    await stack.removeConfig("conv:sample");
    await stack.setConfig("conv:carrierPort", { value: "70000" });
    const trunk = await failingPreview();
    // The engine looks the value up among the top-level inputs only: the property is `gateways`,
    // whose value it prints, and the reason starts with the exact place.
    expect(trunk).toMatch(
      /SipCarrier resource 'trunk': property gateways value \{\[\{map\[.*port:\{70000\}.*\]\}\]\} has a problem: gateways\[0\]\.port must be at most 65535, not number 70000/,
    );
    await stack.removeConfig("conv:carrierPort");
    await stack.setConfig("conv:event", { value: "POST_PROCESSING_FINISHED:MAYBE" });
    await stack.setConfig("conv:campaignId", { value: "campaign-42" });
    const hook = await failingPreview();
    expect(hook).toMatch(
      /property events value \{\[\{POST_PROCESSING_FINISHED:MAYBE\}\]\} has a problem: events\[0\] must be one of .*not "POST_PROCESSING_FINISHED:MAYBE"/,
    );
    expect(hook).toMatch(
      /CampaignWebhook resource 'hook': property campaignId value \{campaign-42\} has a problem: must be a campaign ObjectId/,
    );
    for (const output of [voice, trunk, hook]) expect(output).not.toContain("<nil>");
    await stack.removeConfig("conv:event");
    await stack.removeConfig("conv:campaignId");
  });

  test("refresh says, on each resource, that it kept the state as it was", async () => {
    const refresh = record();
    await stack.refresh(refresh.options);
    expect(await newCalls()).toEqual([]);
    const said = refresh.diagnostics.filter((d) => d.message.includes("refresh kept"));
    expect(said.map((d) => d.urn?.split("::").pop()).sort()).toEqual([
      "adopted",
      "hook",
      "trunk",
      "voice",
    ]);
  });

  test.each([
    [
      "import-option",
      /SipCarrier resource 'by-import' has a problem: the dynamic resources cannot adopt an object by id .*existingCarrierId: "carrier-made-elsewhere"/,
    ],
    [
      "id-option",
      /Voice resource 'by-id' has a problem: the dynamic resources cannot adopt an object by id .*existingVoiceId: "voice-made-elsewhere"/,
    ],
    [
      "get",
      /Voice resource 'fetched' has a problem: the dynamic resources cannot adopt an object by id .*existingVoiceId: "voice-made-elsewhere"/,
    ],
  ])(
    "the %s form is refused at preview as an error on the resource, naming the adoption input, without a stack trace",
    async (mode, expected) => {
      await stack.setConfig("conv:mode", { value: mode });
      const transcript = record();
      const failure = await stack.preview(transcript.options).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeDefined();
      expect(await newCalls()).toEqual([]);
      const output = `${errorText(failure)}\n${transcript.text}`;
      expect(output).toMatch(expected);
      expect(output).not.toMatch(/TypeError|Cannot read properties|unhandled exception/);
      // No stack trace: no frame of this package, of the program or of Node.js.
      expect(output).not.toMatch(/^\s+at .+[(:]/m);
      const errors = transcript.diagnostics.filter((d) => d.severity === "error");
      expect(errors).toEqual([
        {
          ...errors[0],
          message: expect.stringMatching(expected),
          urn: expect.stringMatching(
            new RegExp(`::${mode === "get" ? "fetched" : `by-${mode.split("-")[0]}`}$`),
          ),
        },
      ]);
      await stack.removeConfig("conv:mode");
    },
  );

  test("a wrong API key fails up with the platform's answer, and the key is never printed", async () => {
    const wrong = await project.stack("wrong-key", {
      env: {
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      },
      config: {
        "voiceplatform:apiKey": { value: WRONG_KEY, secret: true },
        "conv:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
    const held = async () =>
      Object.values((await emulator.state()).organizations).map((o) => [
        o.voices.length,
        o.carriers.length,
      ]);
    const before = await held();
    await newCalls();
    const transcript = record();
    const failure = await upWithPreview(wrong, transcript.options).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    const output = `${errorText(failure)}\n${transcript.text}`;
    expect(output).toContain("401 Unauthorized");
    expect(output).toContain("voiceplatform:apiKey");
    expect(output).not.toContain(WRONG_KEY);
    const requests = await emulator.newRequests();
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.status).toBe(401);
    expect(await held()).toEqual(before);
    const exported = JSON.parse(await project.exportStackText("wrong-key")) as {
      deployment: { resources?: { type: string }[] };
    };
    const types = (exported.deployment.resources ?? []).map((r) => r.type);
    expect(types.filter((type) => type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
  });

  test("nothing printed showed a secret", async () => {
    await stack.destroy(record().options);
    for (const transcript of transcripts) {
      const shown = transcript.text + JSON.stringify(transcript.diagnostics);
      for (const secret of [API_KEY, SIP_PASSWORD, ROTATED, WRONG_KEY])
        expect(shown).not.toContain(secret);
    }
  });
});
