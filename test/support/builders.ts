import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Inputs } from "../../provider/core/resource-descriptor";

/** Writes a small sample file and returns its path. */
export function writeSample(
  name = "sample.wav",
  content: string | Buffer = "RIFF-sample-audio",
): string {
  const dir = mkdtempSync(join(tmpdir(), "voice-samples-"));
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export function voiceInputs(overrides: Inputs = {}): Inputs {
  return {
    name: "Support agent",
    supportedLocales: ["en-US"],
    stability: 0.5,
    similarityBoost: 0.75,
    speed: 1,
    files: [writeSample()],
    ...overrides,
  };
}

export function gateway(overrides: Inputs = {}): Inputs {
  return {
    inbound: true,
    outbound: true,
    ipv4: "203.0.113.10",
    netmask: 32,
    port: 5060,
    protocol: "udp",
    ...overrides,
  };
}

export function carrierInputs(overrides: Inputs = {}): Inputs {
  return {
    name: "main-trunk",
    requiresRegister: true,
    registerUsername: "trunk-user",
    registerPassword: "s3cret-sip-password",
    gateways: [gateway()],
    phoneNumbers: [{ phoneNumber: "+14155550100" }],
    ...overrides,
  };
}

export const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";

export function webhookInputs(overrides: Inputs = {}): Inputs {
  return {
    campaignId,
    url: "https://hooks.example.com/calls",
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
    ...overrides,
  };
}

export function advancedWebhook(overrides: Inputs = {}): Inputs {
  return {
    url: "https://crm.example.com/hook",
    method: "GET",
    headers: [{ name: "X-Api-Token", value: "webhook-header-secret-value" }],
    parameters: [{ name: "source", value: "voice" }],
    ...overrides,
  };
}
