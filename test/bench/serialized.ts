/**
 * Section 6: what each resource costs in state. The `__provider` text the SDK serializes (stored
 * twice per resource: in inputs and in outputs), and, with a Pulumi CLI at hand, the bytes of each
 * resource in a real `pulumi stack export` after `pulumi up` against the emulator.
 */
import { locatePulumi } from "../pulumi-cli/locate";
import { resourceKinds, resourceType, type ResourceKind } from "../support/serialized-provider";
import { startEmulatorProcess } from "./emulator-process";
import type { BenchProject } from "./fixture";
import { pulumiStack } from "./pulumi-stack";

export interface StateRow {
  readonly kind: ResourceKind;
  /** Bytes of the `__provider` text. */
  readonly providerBytes: number;
  /** Mean bytes of one resource in `pulumi stack export`, or undefined without a CLI. */
  readonly stateBytes?: number;
  /** Of those, the two `__provider` copies (inputs and outputs), JSON-encoded. */
  readonly stateProviderBytes?: number;
  /** Of those, the inputs and the outputs (each with its `__provider`); the rest is the engine's. */
  readonly inputsBytes?: number;
  readonly outputsBytes?: number;
  /** Of the inputs and outputs, the encrypted secrets (the engine's `ciphertext` envelopes). */
  readonly secretsBytes?: number;
  readonly resources?: number;
}

export interface StateMeasurement {
  readonly rows: StateRow[];
  /** Why there are no state figures, when there are none. */
  readonly cliNote?: string;
  readonly cliVersion?: string;
}

const program = (count: number) => `"use strict";
const pulumi = require("@pulumi/pulumi");
const { CampaignWebhook, SipCarrier, Voice } = require("pulumi-voice-platform");
for (let i = 0; i < ${count}; i++) {
  new Voice("voice-" + i, {
    name: "Bench voice " + i,
    supportedLocales: ["en-US"],
    stability: 0.5,
    similarityBoost: 0.75,
    speed: 1,
    files: ["samples/small.wav"],
  });
  new SipCarrier("carrier-" + i, {
    name: "bench-trunk-" + i,
    requiresRegister: true,
    registerUsername: "trunk-user-" + i,
    registerPassword: pulumi.secret("bench-sip-password-" + i),
    gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113.10", protocol: "udp" }],
    phoneNumbers: [{ phoneNumber: "+14155550100" }],
  });
  new CampaignWebhook("webhook-" + i, {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/bench/" + i,
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
  });
}
`;

interface ExportedResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export async function measureState(
  project: BenchProject,
  resourcesPerKind: number,
): Promise<StateMeasurement> {
  const providerBytes = (kind: ResourceKind) => Buffer.byteLength(project.providers[kind]);
  const cli = locatePulumi();
  if (cli === undefined) {
    return {
      rows: resourceKinds.map((kind) => ({ kind, providerBytes: providerBytes(kind) })),
      cliNote: "CLI not available",
    };
  }
  const exported = await stackExport(project, resourcesPerKind);
  const rows = resourceKinds.map((kind): StateRow => {
    const ofKind = exported.filter((resource) => resource.type === resourceType(kind));
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));
    const sum = (of: (resource: ExportedResource) => number) =>
      Math.round(
        ofKind.reduce((all, resource) => all + of(resource), 0) / Math.max(1, ofKind.length),
      );
    return {
      kind,
      providerBytes: providerBytes(kind),
      resources: ofKind.length,
      stateBytes: sum(bytes),
      stateProviderBytes: sum((r) => bytes(r.inputs?.__provider) + bytes(r.outputs?.__provider)),
      inputsBytes: sum((r) => bytes(r.inputs)),
      outputsBytes: sum((r) => bytes(r.outputs)),
      secretsBytes: sum((r) => secretBytes(r.inputs) + secretBytes(r.outputs)),
    };
  });
  return { rows, cliVersion: cli.version };
}

/** Bytes of every encrypted secret envelope (`{…, "ciphertext": …}`) in a value. */
function secretBytes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + secretBytes(item), 0);
  if (value === null || typeof value !== "object") return 0;
  if ("ciphertext" in value) return Buffer.byteLength(JSON.stringify(value));
  return Object.values(value).reduce((sum: number, item) => sum + secretBytes(item), 0);
}

/** `pulumi up` of the program in the project with a file backend, then `pulumi stack export`. */
async function stackExport(project: BenchProject, count: number): Promise<ExportedResource[]> {
  const emulator = await startEmulatorProcess();
  try {
    const stack = await pulumiStack(project, emulator, program(count));
    try {
      await stack.pulumi("up", "--yes", "--skip-preview");
      const state = JSON.parse(await stack.pulumi("stack", "export")) as {
        deployment: { resources?: ExportedResource[] };
      };
      return state.deployment.resources ?? [];
    } finally {
      await stack.remove();
    }
  } finally {
    await emulator.close();
  }
}
