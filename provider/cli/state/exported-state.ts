/**
 * The parts of `pulumi stack export` output (an untyped deployment, version 3) that preflight and
 * recover read and write, and how this package's resources are recognized in it. Everything the
 * commands do not understand is carried through untouched.
 */

import { SECRET_SIG, SIG_KEY } from "../../core/engine-values";
import type { ResourceKind } from "../../resources";
import { kindOfType, type FrontEnd } from "../../schema/type-tokens";
import { StackCommandError } from "../errors";

/**
 * A secret as `pulumi stack export` writes it: the engine's secret signature under its signature
 * key, and ciphertext, or plaintext with --show-secrets.
 */
export interface SecretEnvelope {
  readonly [sigKey: string]: string | undefined;
  readonly ciphertext?: string;
  /** The JSON text of the value. */
  readonly plaintext?: string;
}

export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  additionalSecretOutputs?: string[];
  [other: string]: unknown;
}

export type OperationKind = "creating" | "updating" | "deleting" | "reading" | "importing";

export interface PendingOperation {
  resource: StateResource;
  type: OperationKind | string;
  [other: string]: unknown;
}

export interface Deployment {
  resources?: StateResource[];
  pending_operations?: PendingOperation[];
  [other: string]: unknown;
}

export interface ExportedStack {
  version: number;
  deployment: Deployment;
}

export type { ResourceKind } from "../../resources";

export function isSecretEnvelope(value: unknown): value is SecretEnvelope {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

export function containsSecret(value: unknown): boolean {
  if (isSecretEnvelope(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

/** A secret the import encrypts with the stack's secrets provider (`stack import` re-encrypts every secret). */
export function plaintextSecret(value: unknown): SecretEnvelope {
  return { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) };
}

/**
 * The values of a `--show-secrets` export with every secret replaced by its value. A ciphertext
 * here means the export was made without --show-secrets: that is a mistake of the caller.
 */
export function revealed(value: unknown): unknown {
  if (isSecretEnvelope(value)) {
    if (value.plaintext === undefined) {
      throw new StackCommandError(
        "internal: a secret is still encrypted; the state was not exported with --show-secrets",
      );
    }
    return revealed(JSON.parse(value.plaintext));
  }
  if (Array.isArray(value)) return value.map(revealed);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, revealed(inner)]));
  }
  return value;
}

/** One pending operation on a resource of this package. */
export interface PendingOfPackage {
  readonly urn: string;
  readonly operation: string;
  readonly kind: ResourceKind;
  readonly frontEnd: FrontEnd;
  readonly resource: StateResource;
}

export interface PendingOperations {
  /** This package's, in the order the engine recorded them. */
  readonly ours: PendingOfPackage[];
  /** Other packages' pending operations: `stack import` drops these too. */
  readonly others: { urn: string; operation: string; type: string }[];
}

export function pendingOperations(deployment: Deployment): PendingOperations {
  const ours: PendingOfPackage[] = [];
  const others: PendingOperations["others"] = [];
  for (const operation of deployment.pending_operations ?? []) {
    const resource = operation.resource;
    const known = kindOfType(resource.type);
    if (known === undefined) {
      others.push({ urn: resource.urn, operation: operation.type, type: resource.type });
    } else {
      ours.push({ urn: resource.urn, operation: operation.type, ...known, resource });
    }
  }
  return { ours, others };
}

/** The name the program gave the resource: the last `::` segment of its URN. */
export function declaredName(urn: string): string {
  const at = urn.lastIndexOf("::");
  return at === -1 ? urn : urn.slice(at + 2);
}

/** The stack name in a URN (`urn:pulumi:<stack>::<project>::...`). */
export function stackOfUrn(urn: string): string | undefined {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1];
}

/**
 * The export with what every checkpoint write changes removed (the manifest's time, each
 * resource's `created` and `modified`): two exports equal here describe the same stack.
 */
export function withoutTimestamps(exported: ExportedStack): unknown {
  const { deployment } = exported;
  const resource = (r: StateResource) => {
    const { created: _created, modified: _modified, ...rest } = r;
    return rest;
  };
  const manifest = deployment.manifest as Record<string, unknown> | undefined;
  const { time: _time, ...manifestRest } = manifest ?? {};
  return {
    ...exported,
    deployment: {
      ...deployment,
      ...(manifest === undefined ? {} : { manifest: manifestRest }),
      resources: (deployment.resources ?? []).map(resource),
      pending_operations: (deployment.pending_operations ?? []).map((op) => ({
        ...op,
        resource: resource(op.resource),
      })),
    },
  };
}

export function sameApartFromTimestamps(a: ExportedStack, b: ExportedStack): boolean {
  return JSON.stringify(withoutTimestamps(a)) === JSON.stringify(withoutTimestamps(b));
}
