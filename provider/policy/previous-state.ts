/**
 * The stack as its last deployment left it, for the rules that compare a change with it: policies
 * see only the new inputs, so a pull-request job exports the stack first (`pulumi stack export
 * --file previous.json`) and names the file in VOICEPLATFORM_PREVIOUS_STATE or a rule's
 * `previousState` config. Secrets stay encrypted in such a file and cannot be compared; an export
 * with --show-secrets (plaintext on disk: only where that is safe) lets them be.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ASSET_SIG, SECRET_SIG, SIG_KEY } from "../core/engine-values";
import type { Inputs } from "../core/resource-descriptor";

export const PREVIOUS_STATE_VARIABLE = "VOICEPLATFORM_PREVIOUS_STATE";

export interface PreviousResource {
  readonly urn: string;
  readonly id?: string;
  /** The inputs it was deployed with, secrets as their values where the export shows them. */
  readonly inputs: Inputs;
}

/** A secret the export kept encrypted (exported without --show-secrets): it cannot be compared. */
export const ENCRYPTED = Symbol("encrypted secret");

const loaded = new Map<string, ReadonlyMap<string, PreviousResource>>();

/** Where the previous state is, from the rule's config or the environment; undefined: not given. */
export function previousStatePath(configured: string | undefined): string | undefined {
  const path = configured ?? process.env[PREVIOUS_STATE_VARIABLE];
  // A relative path is taken from where `pulumi` runs, as a user writes it there.
  return path === undefined || path === "" ? undefined : resolve(process.env.PWD ?? ".", path);
}

/** The previous state's resources by URN, read once per file. */
export function previousResources(path: string): ReadonlyMap<string, PreviousResource> {
  let resources = loaded.get(path);
  if (resources === undefined) {
    const exported = JSON.parse(readFileSync(path, "utf8")) as {
      deployment?: {
        resources?: { urn: string; id?: string; inputs?: Inputs; delete?: boolean }[];
      };
    };
    resources = new Map(
      (exported.deployment?.resources ?? [])
        .filter((resource) => resource.delete !== true)
        .map((resource) => [
          resource.urn,
          {
            urn: resource.urn,
            id: resource.id,
            inputs: plainStored(resource.inputs ?? {}) as Inputs,
          },
        ]),
    );
    loaded.set(path, resources);
  }
  return resources;
}

/** A stored value as a provider is given it: secrets decoded (or ENCRYPTED), assets by their path. */
function plainStored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainStored);
  if (value === null || typeof value !== "object") return value;
  const bag = value as Record<string, unknown>;
  if (bag[SIG_KEY] === SECRET_SIG) {
    return typeof bag.plaintext === "string" ? plainStored(JSON.parse(bag.plaintext)) : ENCRYPTED;
  }
  if (bag[SIG_KEY] === ASSET_SIG) return typeof bag.path === "string" ? bag.path : value;
  return Object.fromEntries(Object.entries(bag).map(([key, item]) => [key, plainStored(item)]));
}
