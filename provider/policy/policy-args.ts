/**
 * What the rules share: which of this package's resources a policy call is about (either front
 * end's type token), its properties as plain data, and values unknown during a preview.
 */
import type {
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
} from "@pulumi/policy";
import { kindOfType } from "../schema/type-tokens";
import type { ResourceKind } from "../resources";
import {
  checkedSettings,
  EXEMPT_RESOURCES,
  exemptResourcesSetting,
  isExempt,
} from "./rule-settings";

/**
 * The markers @pulumi/policy gives values not known during a preview, one per type (its
 * proxy.js); reading one through its proxy throws, so the rules read the plain properties.
 */
const UNKNOWN_MARKERS = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

export function isKnown(value: unknown): boolean {
  return !(typeof value === "string" && UNKNOWN_MARKERS.has(value));
}

/** A string whose value is known, else undefined. */
export function knownString(value: unknown): string | undefined {
  return typeof value === "string" && isKnown(value) ? value : undefined;
}

/** The items of a list whose value is known, else none. */
export function knownList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item) => item !== null && typeof item === "object")
    : [];
}

/**
 * The properties behind @pulumi/policy's proxy, which throws on reading a value not known during a
 * preview: the rules check what is known and leave the rest to the run that knows it.
 */
export function plainProps(props: Record<string, unknown>): Record<string, unknown> {
  const target = props["__getSpecialProxyTarget"];
  return (target ?? props) as Record<string, unknown>;
}

/** The stack a URN belongs to: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function stackOfUrn(urn: string): string {
  return urn.split("::")[0]?.split(":").pop() ?? "";
}

/** A resource of this package, as a rule sees it. */
export interface CheckedResource {
  readonly kind: ResourceKind;
  readonly props: Record<string, unknown>;
  readonly name: string;
  readonly urn: string;
  readonly args: ResourceValidationArgs;
}

/** A rule's check of one resource: each problem reported as a sentence. */
export type ResourceCheck<Config> = (
  resource: CheckedResource,
  config: Config,
  report: (message: string) => void,
) => void | Promise<void>;

/** A violation as one line: the rule, the resource, then what is wrong and the fix. */
export function violationLine(rule: string, resource: string | undefined, message: string): string {
  return resource === undefined ? `${rule}: ${message}` : `${rule} ${resource}: ${message}`;
}

/** A config schema with the settings every rule has (rule-settings.ts). */
export function withCommonSettings(schema: PolicyConfigSchema | undefined): PolicyConfigSchema {
  return {
    ...schema,
    properties: { ...schema?.properties, [EXEMPT_RESOURCES]: exemptResourcesSetting },
  };
}

/**
 * A resource policy over the kinds it names, under either type token; every other resource, and
 * those its config exempts, are left alone. Its config is checked first (rule-settings.ts).
 */
export function resourcePolicy<Config extends object>(
  policy: Omit<ResourceValidationPolicy, "validateResource">,
  kinds: readonly ResourceKind[],
  check: ResourceCheck<Config>,
): ResourceValidationPolicy {
  const configSchema = withCommonSettings(policy.configSchema);
  return {
    ...policy,
    configSchema,
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      const config = checkedSettings(policy.name, configSchema, args.getConfig<Config>());
      const kind = kindOfType(args.type)?.kind;
      if (kind === undefined || !kinds.includes(kind) || isExempt(config, args.name)) return;
      const resource = {
        kind,
        props: plainProps(args.props),
        name: args.name,
        urn: args.urn,
        args,
      };
      return check(resource, config, (message) =>
        reportViolation(violationLine(policy.name, args.name, message)),
      );
    },
  };
}

/** `prod-*` as a test: `*` stands for any run of characters, everything else for itself. */
export function globMatches(pattern: string, text: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(text);
}

/** A config schema's list of strings, with its default. */
export function stringList(
  description: string,
  defaultValue: readonly string[],
): PolicyConfigSchema["properties"][string] {
  return { type: "array", items: { type: "string" }, description, default: [...defaultValue] };
}
