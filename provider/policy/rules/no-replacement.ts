import * as pulumi from "@pulumi/pulumi";
import { canonical, diffInputs } from "../../core/diff";
import type { Inputs } from "../../core/resource-descriptor";
import { descriptorOf, type ResourceKind } from "../../resources";
import type { StackValidationPolicy } from "@pulumi/policy";
import { kindOfType } from "../../schema/type-tokens";
import { isKnown, plainProps, stringList, violationLine, withCommonSettings } from "../policy-args";
import { checkedSettings, isExempt } from "../rule-settings";
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

const configSchema = withCommonSettings({
  properties: {
    allowReplacing: stringList(
      "Names of the resources that may be replaced or leave the program (their objects stay on the platform).",
      [],
    ),
    previousState: {
      type: "string",
      description: "The exported previous state (instead of VOICEPLATFORM_PREVIOUS_STATE).",
    },
  },
});

const REPLACED_KINDS: readonly ResourceKind[] = ["Voice", "SipCarrier"];

/** The type and name a URN names (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
const typeOfUrn = (urn: string) => urn.split("::")[2]?.split("$").pop() ?? "";
const nameOfUrn = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * A stack rule, so that it sees what leaves the program as well as what changes: each Voice or
 * SipCarrier the change replaces, each object of the package whose resource the program no longer
 * declares (a removal, which calls nothing on the platform), and a last line counting them by kind.
 */
export const noReplacement: StackValidationPolicy = {
  name: NO_REPLACEMENT,
  description:
    "No object is left on the platform by this change: a Voice or SipCarrier is not replaced, and no resource of the package leaves the program, unless it is listed in allowReplacing. The platform has no delete operation, so the old voice or carrier stays beside its replacement (a carrier keeps its numbers and gateways registered), and a removed one stays for good (a removed webhook is still called for every event). Policies see only the new program, so the rule compares it with the stack as last deployed: export it with `pulumi stack export --file previous.json` and name the file in VOICEPLATFORM_PREVIOUS_STATE or this rule's previousState (secrets stay encrypted there and count as unchanged). `npx pulumi-voice-platform leftovers` lists what earlier changes left.",
  enforcementLevel: "mandatory",
  configSchema,
  validateStack: async (args, reportViolation) => {
    const config = checkedSettings(NO_REPLACEMENT, configSchema, args.getConfig<Config>());
    const path = previousStatePath(config.previousState);
    if (path === undefined) {
      args.notApplicable(
        `no previous state: set ${PREVIOUS_STATE_VARIABLE} to a \`pulumi stack export\` file`,
      );
    }
    const previous = previousResources(path!);
    const allowed = (name: string) =>
      (config.allowReplacing ?? []).includes(name) || isExempt(config, name);
    const left: ResourceKind[] = [];
    const report = (kind: ResourceKind, name: string, urn: string, message: string) => {
      left.push(kind);
      reportViolation(violationLine(NO_REPLACEMENT, name, message), urn);
    };
    for (const resource of args.resources) {
      const kind = kindOfType(resource.type)?.kind;
      const before = previous.get(resource.urn);
      if (kind === undefined || !REPLACED_KINDS.includes(kind) || before === undefined) continue;
      if (allowed(resource.name)) continue;
      const news = (await plainInput(plainProps(resource.props))) as Inputs;
      const replaced = replacedInputs(kind, before.inputs, news, resource.opts.ignoreChanges ?? []);
      if (replaced.length === 0) continue;
      const changed = replaced.join(", ");
      report(
        kind,
        resource.name,
        resource.urn,
        `changing ${changed} replaces this ${kind}, and the old one (${before.id ?? "its id"}) stays on the platform, which has no delete operation: keep ${changed} as deployed, or list "${resource.name}" in this rule's allowReplacing`,
      );
    }
    const declared = new Set(args.resources.map((resource) => resource.urn));
    for (const [urn, before] of previous) {
      const kind = kindOfType(typeOfUrn(urn))?.kind;
      const name = nameOfUrn(urn);
      if (kind === undefined || declared.has(urn) || allowed(name)) continue;
      report(
        kind,
        name,
        urn,
        `this ${kind} leaves the program, and its object (${before.id ?? "its id"}) stays on the platform, which has no delete operation: keep it in the program, or list "${name}" in this rule's allowReplacing`,
      );
    }
    if (left.length === 0) return;
    const counts = new Map<string, number>();
    for (const kind of left) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    const stack = args.resources.find((resource) => resource.type === "pulumi:pulumi:Stack");
    reportViolation(
      violationLine(
        NO_REPLACEMENT,
        stack?.name,
        `this change leaves ${left.length} object(s) on the platform: ${[...counts].map(([kind, n]) => `${n} ${kind}`).join(", ")}`,
      ),
      stack?.urn,
    );
  },
};
