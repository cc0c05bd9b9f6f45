import * as pulumi from "@pulumi/pulumi";
import { canonical, diffInputs } from "../../core/diff";
import type { Inputs } from "../../core/resource-descriptor";
import { descriptorOf, type ResourceKind } from "../../resources";
import { isKnown, resourcePolicy, stringList } from "../policy-args";
import {
  ENCRYPTED,
  PREVIOUS_STATE_VARIABLE,
  previousResources,
  previousStatePath,
} from "../previous-state";

export const NO_REPLACEMENT = "no-replacement";

interface Config {
  readonly allowReplacing?: readonly string[];
  readonly previousState?: string;
}

/** A new input as a stored one reads: a sample by its path (assets hold it in a promise). */
async function plainInput(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(plainInput));
  if (pulumi.asset.FileAsset.isInstance(value)) return (value as pulumi.asset.FileAsset).path;
  if (value === null || typeof value !== "object") return value;
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, item]) => [key, await plainInput(item)] as const),
  );
  return Object.fromEntries(entries);
}

function holdsUnknown(value: unknown): boolean {
  if (!isKnown(value)) return true;
  if (Array.isArray(value)) return value.some(holdsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsUnknown);
  return false;
}

function holdsEncrypted(value: unknown): boolean {
  if (value === ENCRYPTED) return true;
  if (Array.isArray(value)) return value.some(holdsEncrypted);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsEncrypted);
  return false;
}

/**
 * The inputs whose change replaces the object, as the provider's diff plan compares them. An input
 * not known yet (a preview) or stored encrypted is taken as unchanged: it cannot be compared.
 */
function replacedInputs(
  kind: ResourceKind,
  stored: Inputs,
  news: Inputs,
  ignored: readonly string[],
): string[] {
  const plan = descriptorOf(kind).diffPlan;
  const comparable: Inputs = { ...news };
  for (const key of plan.keys) {
    if (holdsUnknown(news[key]) || holdsEncrypted(stored[key]) || ignored.includes(key))
      comparable[key] = stored[key];
  }
  const answer = diffInputs(stored, comparable, plan);
  return answer.replaces.filter((key) => canonical(stored[key]) !== canonical(comparable[key]));
}

export const noReplacement = resourcePolicy<Config>(
  {
    name: NO_REPLACEMENT,
    description:
      "A Voice or SipCarrier is not replaced: the platform has no delete operation, so the old voice or carrier stays on the platform beside its replacement (a carrier keeps its numbers and gateways registered), unless the resource is listed in allowReplacing. Policies see only the new inputs, so the rule compares them with the stack as last deployed: export it with `pulumi stack export --file previous.json` and name the file in VOICEPLATFORM_PREVIOUS_STATE or this rule's previousState (secrets stay encrypted there and count as unchanged).",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        allowReplacing: stringList("Names of the resources that may be replaced.", []),
        previousState: {
          type: "string",
          description: "The exported previous state (instead of VOICEPLATFORM_PREVIOUS_STATE).",
        },
      },
    },
  },
  ["Voice", "SipCarrier"],
  async ({ kind, props, name, urn, args }, config, report) => {
    const path = previousStatePath(config.previousState);
    if (path === undefined) {
      args.notApplicable(
        `no previous state: set ${PREVIOUS_STATE_VARIABLE} to a \`pulumi stack export\` file`,
      );
    }
    const previous = previousResources(path!).get(urn);
    if (previous === undefined || (config.allowReplacing ?? []).includes(name)) return;
    // Sample paths are held in promises by the assets @pulumi/policy makes.
    const news = (await plainInput(props)) as Inputs;
    const replaced = replacedInputs(kind, previous.inputs, news, args.opts.ignoreChanges);
    if (replaced.length === 0) return;
    const changed = replaced.join(", ");
    report(
      `changing ${changed} replaces this ${kind}, and the old one (${previous.id ?? "its id"}) stays on the platform, which has no delete operation: keep ${changed} as deployed, or list "${name}" in this rule's allowReplacing`,
    );
  },
);
