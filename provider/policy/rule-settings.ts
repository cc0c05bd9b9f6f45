/**
 * Every rule's settings, checked before the rule runs: Pulumi passes a pack whatever keys its
 * config file holds, so a misspelled setting would otherwise be ignored. Settings every rule has:
 * `exemptResources`, resources (by name) the rule leaves alone. Every rule's enforcement level at
 * once is Pulumi's own `"all"` key (docs/policies.md).
 */
import type { PolicyConfigSchema } from "@pulumi/policy";

export const EXEMPT_RESOURCES = "exemptResources";

type Property = PolicyConfigSchema["properties"][string];

export const exemptResourcesSetting: Property = {
  type: "array",
  items: { type: "string" },
  description: "Names of the resources this rule leaves alone.",
  default: [],
};

/** The edits that turn one word into another: what picks the valid key a typo meant. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1;
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + same));
    }
    row = next;
  }
  return row[b.length]!;
}

export function closestKey(key: string, keys: readonly string[]): string {
  return [...keys].sort((a, b) => editDistance(key, a) - editDistance(key, b))[0]!;
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

/** Why a value does not fit its property's type; undefined when it fits. */
function typeProblem(property: Property, value: unknown): string | undefined {
  const wanted = property.type;
  const given = typeOf(value);
  if (wanted === "array") {
    if (given !== "array") return `is ${given}, not a list: write a list such as ["…"]`;
    const wrong = (value as unknown[]).findIndex((item) => typeof item !== "string");
    return wrong === -1
      ? undefined
      : `[${wrong}] is ${typeOf((value as unknown[])[wrong])}, not text`;
  }
  if (wanted === "number" && (given === "integer" || given === "number")) return undefined;
  return wanted === undefined || wanted === given ? undefined : `is ${given}, not ${wanted}`;
}

/**
 * Why a rule's config cannot be used, naming the rule, the key and the fix; undefined when it can.
 * `config` is what Pulumi hands the rule (enforcementLevel already taken out).
 */
export function settingsProblem(
  rule: string,
  schema: PolicyConfigSchema | undefined,
  config: Record<string, unknown>,
): string | undefined {
  const properties = schema?.properties ?? {};
  const keys = Object.keys(properties);
  for (const [key, value] of Object.entries(config)) {
    const property = properties[key];
    if (property === undefined) {
      return `policy ${rule}: "${key}" is not one of its settings (${keys.join(", ")}): did you mean "${closestKey(key, keys)}"?`;
    }
    const problem = typeProblem(property, value);
    if (problem !== undefined)
      return `policy ${rule}: setting ${key}${problem.startsWith("[") ? "" : " "}${problem}`;
  }
  return undefined;
}

/** A rule's config, checked: a misspelled key or a wrong type stops the check with its reason. */
export function checkedSettings<Config>(
  rule: string,
  schema: PolicyConfigSchema | undefined,
  config: Config,
): Config {
  const problem = settingsProblem(rule, schema, config as Record<string, unknown>);
  if (problem !== undefined) throw new Error(problem);
  return config;
}

/** Whether a rule's config names this resource among those it leaves alone. */
export function isExempt(config: object, name: string): boolean {
  const names = (config as Record<string, unknown>)[EXEMPT_RESOURCES];
  return Array.isArray(names) && names.includes(name);
}
