/**
 * The Pulumi program the end-to-end tests deploy, written into each fixture project as plain
 * JavaScript (no ts-node start-up cost). Everything a test varies comes from stack config under
 * the `e2e:` namespace, so one installed project serves every stack and step of a test file:
 *
 * | key                | default            | what                                                   |
 * | ------------------ | ------------------ | ------------------------------------------------------ |
 * | `e2e:voiceName`    | "Support agent"    | Voice name (updates in place)                          |
 * | `e2e:stability`    | 0.5                | Voice setting (updates in place)                       |
 * | `e2e:carrierName`  | "main-trunk"       | SipCarrier name (any change replaces)                  |
 * | `e2e:carrierPort`  | 5060               | port of the carrier's gateway (70000 fails check)      |
 * | `e2e:campaignId`   | 65a1f0c2e4b0a1b2…  | campaign of both webhooks (a bad one fails check)       |
 * | `e2e:sipPassword`  | required, secret   | the carrier's registerPassword                         |
 * | `e2e:crmToken`     | required, secret   | value of the advanced webhook's Authorization header   |
 *
 * The samples are `samples/greeting.wav` (given as a path string) and `samples/closing.wav`
 * (given as a FileAsset): rewriting a file's content must replace the voice.
 */

export const PROJECT_NAME = "voice-platform-e2e";

/** Project file: the nodejs runtime without TypeScript, the program is index.js. */
export const PULUMI_YAML = `name: ${PROJECT_NAME}
description: End-to-end test project of pulumi-voice-platform (test/e2e).
runtime:
  name: nodejs
  options:
    typescript: false
main: index.js
`;

export const PROGRAM_JS = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { CampaignWebhook, SipCarrier, Voice } = require("pulumi-voice-platform");

const config = new pulumi.Config("e2e");
const campaignId = config.get("campaignId") || "65a1f0c2e4b0a1b2c3d4e5f6";

const voice = new Voice("support-voice", {
  name: config.get("voiceName") || "Support agent",
  description: "Calm, friendly voice for the support line",
  providerType: "ELEVENLABS",
  supportedLocales: ["en-US", "es-ES"],
  stability: config.getNumber("stability") ?? 0.5,
  similarityBoost: 0.75,
  speed: 1,
  files: ["samples/greeting.wav", new pulumi.asset.FileAsset("samples/closing.wav")],
});

const carrier = new SipCarrier("main-trunk", {
  name: config.get("carrierName") || "main-trunk",
  requiresRegister: true,
  registerUsername: "acme-trunk",
  registerPassword: config.requireSecret("sipPassword"),
  registerSipRealm: "sip.carrier.example.com",
  e164LeadingPlus: true,
  gateways: [
    {
      inbound: true,
      outbound: true,
      ipv4: "203.0.113.10",
      netmask: 32,
      port: config.getNumber("carrierPort") ?? 5060,
      protocol: "udp",
    },
  ],
  phoneNumbers: [{ phoneNumber: "+14155550100" }],
});

const interested = new CampaignWebhook("interested-leads", {
  campaignId,
  url: "https://hooks.example.com/voice/interested",
  events: ["POST_PROCESSING_FINISHED:INTERESTED", "POST_PROCESSING_FINISHED:CALL_ME_LATER"],
});

const crmSync = new CampaignWebhook("crm-sync", {
  campaignId,
  url: "https://crm.example.com/voice-events",
  events: ["POST_PROCESSING_FINISHED:DO_NOT_CALL"],
  isAdvanced: true,
  advancedWebhook: {
    url: "https://crm.example.com/api/calls",
    method: "GET",
    headers: [{ name: "Authorization", value: pulumi.interpolate\`Bearer \${config.requireSecret("crmToken")}\` }],
    parameters: [{ name: "source", value: "voice-platform" }],
  },
});

module.exports = {
  // Which Node.js and which @pulumi/pulumi ran the program (the Node 22 run checks them).
  nodeVersion: process.version,
  pulumiSdkVersion: require("@pulumi/pulumi/package.json").version,
  voiceRecordId: voice.id,
  voiceId: voice.voiceId,
  voiceName: voice.name,
  carrierId: carrier.id,
  interestedWebhookId: interested.id,
  crmWebhookId: crmSync.id,
};
`;

/** Two small, distinct "audio" files; their content is all the emulator and provider look at. */
export function sampleBytes(label: string, size = 4096): Buffer {
  const header = Buffer.from(`RIFF-e2e-sample-${label}-`);
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = header[i % header.length]!;
  return body;
}

/** Every file of the e2e project except node_modules and package.json. */
export function programFiles(): Record<string, string | Uint8Array> {
  return {
    "Pulumi.yaml": PULUMI_YAML,
    "index.js": PROGRAM_JS,
    "samples/greeting.wav": sampleBytes("greeting"),
    "samples/closing.wav": sampleBytes("closing"),
  };
}
