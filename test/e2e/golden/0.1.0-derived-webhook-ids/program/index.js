"use strict";
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
    headers: [{ name: "Authorization", value: pulumi.interpolate`Bearer ${config.requireSecret("crmToken")}` }],
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
