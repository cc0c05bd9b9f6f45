import * as pulumi from "@pulumi/pulumi";
import * as path from "node:path";
import { CampaignWebhook, SipCarrier, Voice } from "pulumi-voice-platform";

const config = new pulumi.Config();
const campaignId = config.get("campaignId") ?? "65a1f0c2e4b0a1b2c3d4e5f6";

// Paths relative to the project directory keep the state the same on every machine.
const sample = (name: string) =>
  path.relative(process.cwd(), path.join(__dirname, "samples", name));

const voice = new Voice("support-voice", {
  name: "Support agent",
  description: "Calm, friendly voice for the support line",
  providerType: "ELEVENLABS",
  supportedLocales: ["en-US", "es-ES"],
  stability: 0.5,
  similarityBoost: 0.75,
  speed: 1,
  files: [sample("greeting.wav"), new pulumi.asset.FileAsset(sample("closing.wav"))],
});

const carrier = new SipCarrier("main-trunk", {
  name: "main-trunk",
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
      port: 5060,
      protocol: "udp",
    },
    { inbound: false, outbound: true, ipv4: "198.51.100.20", port: 5060, protocol: "udp" },
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
  events: ["POST_PROCESSING_FINISHED:DO_NOT_CALL", "POST_PROCESSING_FINISHED:WRONG_NUMBER"],
  isAdvanced: true,
  advancedWebhook: {
    url: "https://crm.example.com/api/calls",
    method: "GET",
    headers: [
      {
        name: "Authorization",
        value: pulumi.interpolate`Bearer ${config.requireSecret("crmToken")}`,
      },
    ],
    parameters: [{ name: "source", value: "voice-platform" }],
  },
});

export const voiceRecordId = voice.id;
export const voiceId = voice.voiceId;
export const ttsClient = voice.ttsClient;
export const carrierId = carrier.id;
export const interestedWebhookId = interested.id;
export const crmWebhookId = crmSync.id;
