/**
 * Small builders of exported-state pieces (`pulumi stack export` output) for the cli tests. The
 * shapes follow what CLI 3.248.0 wrote in test/e2e/interrupted-up.test.ts.
 */
import type {
  Deployment,
  PendingOperation,
  ResourceKind,
  SecretEnvelope,
  StateResource,
} from "../../provider/cli/state/exported-state";
import { gateway } from "./builders";

export const STACK = "dev";
export const PROJECT = "voice-app";
export const PROVIDER_TEXT =
  'exports.handler = { create: () => require("pulumi-voice-platform/runtime") }';

export function urnOf(
  kind: ResourceKind | string,
  name: string,
  frontEnd: "dynamic" | "plugin" = "dynamic",
): string {
  const type = kind.includes(":") ? kind : typeOf(kind as ResourceKind, frontEnd);
  return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

export function typeOf(kind: ResourceKind, frontEnd: "dynamic" | "plugin" = "dynamic"): string {
  return frontEnd === "dynamic"
    ? `pulumi-nodejs:dynamic/voiceplatform:${kind}`
    : `voiceplatform:index:${kind}`;
}

/** A ciphertext secret as an export without --show-secrets holds it. */
export function cipher(label: string): SecretEnvelope {
  return {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: `v1:ciphertext-of-${label}`,
  };
}

/** The same secret as `--show-secrets` shows it. */
export function plain(value: unknown): SecretEnvelope {
  return {
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    plaintext: JSON.stringify(value),
  };
}

export function carrierInputs(
  name: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    __provider: PROVIDER_TEXT,
    name,
    requiresRegister: true,
    registerUsername: "acme-trunk",
    registerPassword: cipher(`password-of-${name}`),
    gateways: [gateway()],
    phoneNumbers: [{ phoneNumber: "+14155550100" }],
    ...overrides,
  };
}

export function webhookInputs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    __provider: PROVIDER_TEXT,
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/voice/interested",
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
    ...overrides,
  };
}

export function pendingCreate(
  kind: ResourceKind | string,
  name: string,
  inputs: Record<string, unknown>,
  options: {
    frontEnd?: "dynamic" | "plugin";
    type?: PendingOperation["type"];
    extra?: Partial<StateResource>;
  } = {},
): PendingOperation {
  const frontEnd = options.frontEnd ?? "dynamic";
  const type = kind.includes(":") ? kind : typeOf(kind as ResourceKind, frontEnd);
  return {
    resource: {
      urn: urnOf(type, name),
      custom: true,
      type,
      inputs: frontEnd === "plugin" ? withoutProviderKey(inputs) : inputs,
      provider: `urn:pulumi:${STACK}::${PROJECT}::pulumi:providers:pulumi-nodejs::default::provider-id`,
      parent: `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`,
      ...options.extra,
    },
    type: options.type ?? "creating",
  };
}

function withoutProviderKey(inputs: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _ignored, ...rest } = inputs;
  return rest;
}

export function recorded(
  kind: ResourceKind,
  name: string,
  id: string,
  outputs: Record<string, unknown> = {},
): StateResource {
  return { urn: urnOf(kind, name), custom: true, type: typeOf(kind), id, inputs: {}, outputs };
}

export function deployment(
  pending: PendingOperation[],
  resources: StateResource[] = [],
): Deployment {
  return {
    manifest: { time: "2026-11-23T15:00:00Z", magic: "m", version: "v3.248.0" },
    secrets_providers: { type: "passphrase", state: { salt: "v1:salt" } },
    resources: [
      {
        urn: `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`,
        custom: false,
        type: "pulumi:pulumi:Stack",
      },
      ...resources,
    ],
    pending_operations: pending,
  };
}

/** The `--show-secrets` twin of a deployment whose secrets are `cipher(...)`: each replaced by `values[label]`. */
export function revealedTwin(source: Deployment, values: Record<string, unknown>): Deployment {
  return JSON.parse(JSON.stringify(source), (_key, value: unknown) => {
    if (
      value !== null &&
      typeof value === "object" &&
      typeof (value as { ciphertext?: unknown }).ciphertext === "string"
    ) {
      const label = (value as { ciphertext: string }).ciphertext.replace("v1:ciphertext-of-", "");
      if (!(label in values)) throw new Error(`no plaintext for ${label}`);
      return plain(values[label]);
    }
    return value;
  }) as Deployment;
}
