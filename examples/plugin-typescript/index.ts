/**
 * One cloned voice, one SIP carrier and one campaign webhook through the voiceplatform plugin,
 * with the SDK generated from its schema (provider/sdk/nodejs). The same stack config as
 * examples/python and examples/go: voiceName, carrierPort, adoptCarrierId and sipPassword.
 */
import * as pulumi from "@pulumi/pulumi";
import * as voiceplatform from "pulumi-voice-platform-sdk";

const config = new pulumi.Config();

const voice = new voiceplatform.Voice("support-voice", {
  name: config.get("voiceName") ?? "Support agent",
  description: "Calm, friendly voice for the support line",
  providerType: "ELEVENLABS",
  supportedLocales: ["en-US", "es-ES"],
  stability: 0.5,
  similarityBoost: 0.75,
  // Paths relative to the project directory keep the state the same on every machine.
  files: ["samples/greeting.wav", new pulumi.asset.FileAsset("samples/closing.wav")],
});

const carrier = new voiceplatform.SipCarrier("main-trunk", {
  name: "main-trunk",
  requiresRegister: true,
  registerUsername: "acme-trunk",
  registerPassword: config.requireSecret("sipPassword"),
  registerSipRealm: "sip.carrier.example.com",
  gateways: [
    {
      inbound: true,
      outbound: true,
      ipv4: "203.0.113.10",
      port: config.getNumber("carrierPort") ?? 5060,
      protocol: "udp",
    },
  ],
  phoneNumbers: [{ phoneNumber: "+14155550100" }],
});

const webhook = new voiceplatform.CampaignWebhook("interested-leads", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/voice/interested",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
});

const adoptId = config.get("adoptCarrierId");
// The API cannot read a carrier back: the declared inputs are recorded as they are.
const adopted = adoptId
  ? new voiceplatform.SipCarrier(
      "adopted-trunk",
      {
        name: "legacy-trunk",
        gateways: [{ outbound: true, ipv4: "198.51.100.20", port: 5060 }],
      },
      { import: adoptId },
    )
  : undefined;

export const voiceId = voice.voiceId;
export const carrierId = carrier.id;
export const webhookId = webhook.id;
export const adoptedCarrierId = adopted?.id;
