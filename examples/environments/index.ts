import * as pulumi from "@pulumi/pulumi";
import * as path from "node:path";
import { CampaignWebhook, SipCarrier, Voice } from "pulumi-voice-platform";

// What differs between environments lives in Pulumi.<stack>.yaml: the platform's addresses and
// sub-organization under `voiceplatform:`, and this project's own settings below.
const config = new pulumi.Config();
const env = pulumi.getStack();
const locales = config.getObject<string[]>("locales") ?? ["en-US"];
const stability = config.getNumber("stability") ?? 0.5;
const hookBaseUrl = config.require("hookBaseUrl");
const campaignId = config.require("campaignId");

/** From stack config (`config set --secret sipPassword`), or SIP_PASSWORD as CI jobs pass it. */
function sipPassword(): pulumi.Output<string> {
  const configured = config.getSecret("sipPassword");
  if (configured !== undefined) return configured;
  const fromEnvironment = process.env.SIP_PASSWORD;
  if (fromEnvironment === undefined || fromEnvironment === "") {
    throw new Error(
      "sipPassword is not set: run `pulumi config set --secret sipPassword <password>`, or export SIP_PASSWORD",
    );
  }
  return pulumi.secret(fromEnvironment);
}

const sample = (name: string) =>
  path.relative(process.cwd(), path.join(__dirname, "samples", name));

const voice = new Voice("agent-voice", {
  name: `Agent (${env})`,
  supportedLocales: locales,
  stability,
  similarityBoost: 0.75,
  files: [sample("greeting.wav"), sample("closing.wav")],
});

const trunk = new SipCarrier("trunk", {
  name: `trunk-${env}`,
  requiresRegister: true,
  registerUsername: `trunk-${env}`,
  registerPassword: sipPassword(),
  gateways: config.requireObject<{ ipv4: string; port: number }[]>("gateways").map((gateway) => ({
    ...gateway,
    inbound: true,
    outbound: true,
    protocol: "udp",
  })),
});

new CampaignWebhook("outcomes", {
  campaignId,
  url: `${hookBaseUrl}/voice/outcomes`,
  events: ["POST_PROCESSING_FINISHED:INTERESTED", "POST_PROCESSING_FINISHED:CALL_ME_LATER"],
});

export const voiceId = voice.voiceId;
export const carrierId = trunk.id;
