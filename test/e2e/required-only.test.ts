/**
 * Every resource with only its required inputs, through the dynamic resources on the real engine,
 * against answers as terse as the spec shows them (the emulator's default): a voice declaring no
 * optional setting used to lose its id after the clone (the dynamic provider cannot serialize an
 * `undefined` output), so the next `up` cloned it again.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { upWithPreview } from "../support/pulumi-up";
import { describeE2E, E2EProject, errorText, recorder } from "./harness";
import { PULUMI_YAML, sampleBytes } from "./program";

const API_KEY = "e2e-required-only-key-4c2d";

const PROGRAM_JS = `"use strict";
const { CampaignWebhook, SipCarrier, Voice } = require("pulumi-voice-platform");

const voice = new Voice("bare-voice", { name: "Bare voice", files: ["samples/bare.wav"] });
const carrier = new SipCarrier("bare-trunk", { name: "bare-trunk" });
const hook = new CampaignWebhook("bare-hook", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/bare",
});

module.exports = { voiceRecordId: voice.id, carrierId: carrier.id, hookId: hook.id };
`;

describeE2E("every resource with only its required inputs, dynamic, spec-shaped answers", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create({
      files: {
        "Pulumi.yaml": PULUMI_YAML,
        "index.js": PROGRAM_JS,
        "samples/bare.wav": sampleBytes("bare"),
      },
    });
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("up creates each object once, keeps every id, and the next preview and up change nothing", async () => {
    const stack = await project.stack("dev", {
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "voiceplatform:baseUrl": { value: emulator.baseUrl },
        "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
      },
    });
    const up = await upWithPreview(stack, recorder().options).catch((error: unknown) => {
      throw new Error(errorText(error));
    });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    const sent = (await emulator.newRequests()).map((r) => `${r.method} ${r.path}`);
    expect(sent.sort()).toEqual([
      "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe",
      "POST /organization/sip",
      "POST /voices/voice-clone",
    ]);
    const held = (await emulator.state()).organizations.org_emulator!;
    expect(up.outputs.voiceRecordId?.value).toBe(held.voices[0]!.id);
    expect(up.outputs.carrierId?.value).toBe(held.carriers[0]!.id);

    const preview = await stack.preview(recorder().options);
    expect(preview.changeSummary).toEqual({ same: 4 });
    const again = await upWithPreview(stack, recorder().options);
    expect(again.summary.resourceChanges).toEqual({ same: 4 });
    expect(await emulator.newRequests()).toEqual([]);
  });
});
