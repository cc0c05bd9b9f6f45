/**
 * Inputs of the resources the benchmarks create, each one unique by index so the emulator's state
 * shows exactly which were created and whether any was created twice.
 */
import { openSync, closeSync, writeSync } from "node:fs";
import { mkdtemp, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { resourceKinds, type ResourceKind } from "../support/serialized-provider";

export const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";

export function carrierInputs(index: number): Inputs {
  return {
    name: `bench-trunk-${index}`,
    requiresRegister: true,
    registerUsername: `trunk-user-${index}`,
    registerPassword: `bench-sip-password-${index}`,
    gateways: [
      {
        inbound: true,
        outbound: true,
        ipv4: `203.0.113.${index % 250}`,
        netmask: 32,
        port: 5060,
        protocol: "udp",
      },
    ],
    phoneNumbers: [{ phoneNumber: `+1415555${String(index % 10_000).padStart(4, "0")}` }],
  };
}

export function webhookInputs(index: number): Inputs {
  return {
    campaignId,
    url: `https://hooks.example.com/bench/${index}`,
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
  };
}

export function voiceInputs(index: number, files: readonly string[]): Inputs {
  return {
    name: `Bench voice ${index}`,
    supportedLocales: ["en-US"],
    stability: 0.5,
    similarityBoost: 0.75,
    speed: 1,
    files: [...files],
  };
}

export function inputsFor(kind: ResourceKind, index: number, samples: readonly string[]): Inputs {
  switch (kind) {
    case "SipCarrier":
      return carrierInputs(index);
    case "CampaignWebhook":
      return webhookInputs(index);
    case "Voice":
      return voiceInputs(index, samples);
  }
}

/** The i-th resource of a mixed stack: the three kinds in turn. */
export const kindOf = (index: number): ResourceKind => resourceKinds[index % resourceKinds.length]!;

export interface SampleDirectory {
  readonly dir: string;
  remove(): Promise<void>;
}

export async function sampleDirectory(prefix: string): Promise<SampleDirectory> {
  const dir = await mkdtemp(join(tmpdir(), `bench-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes a sample of `bytes` real bytes (a pseudo-random 1 MiB block repeated with the offset
 * stamped in), so reading it costs what reading audio costs; sparse files would be special.
 */
export function writeSample(path: string, bytes: number): string {
  const block = Buffer.alloc(Math.max(4, Math.min(bytes, 1 << 20)));
  let seed = 0x9e3779b9;
  for (let i = 0; i < block.length; i += 4) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    block.writeUInt32LE(seed, Math.min(i, block.length - 4));
  }
  const fd = openSync(path, "w");
  try {
    for (let offset = 0; offset < bytes; offset += block.length) {
      const length = Math.min(block.length, bytes - offset);
      block.writeUInt32LE(offset >>> 0, 0);
      writeSync(fd, block, 0, length, offset);
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

let touches = 0;

/** Gives files a new modification time: the provider's hash cache misses, as on a first create. */
export async function touch(files: readonly string[]): Promise<void> {
  touches += 1;
  const seconds = 1_700_000_000 + touches;
  await Promise.all(files.map((file) => utimes(file, seconds, seconds)));
}
