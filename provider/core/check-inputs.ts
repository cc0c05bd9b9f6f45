import type { z } from "zod";
import { readSettings } from "../settings/config";

/** What the engine sends for a value not known yet during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const PROVIDER_KEY = "__provider";

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export type Inputs = Record<string, unknown>;

/** What check answers: the inputs to use from now on, and every problem found. */
export interface CheckAnswer {
  readonly inputs: Inputs;
  readonly failures: CheckFailure[];
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object")
    return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Options for `superRefine`: zod skips a cross-field rule when any field has an issue, so a wrong
 * type elsewhere (or a value unknown during preview, whose issue is dropped) would hide it. With
 * these the rule runs whenever the value is an object, so every problem is reported at once; the
 * rule must then expect fields of any type.
 */
export const onEveryObject = {
  when: (payload: { value: unknown }): boolean =>
    payload.value !== null && typeof payload.value === "object" && !Array.isArray(payload.value),
};

/**
 * Pulumi's property path syntax: `gateways[0].ipv4`. A key that is empty or holds characters
 * the plain syntax cannot carry (`.`, brackets, quotes, spaces, control characters) is written
 * `["…"]`, so every failure names its property unambiguously: `[""]`, `gateways[0]["a.b"]`.
 */
export function propertyPath(path: ReadonlyArray<PropertyKey>): string {
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else if (typeof segment === "string" && /^[^.[\]"'\s\p{Cc}]+$/u.test(segment))
      result += result === "" ? segment : `.${segment}`;
    else result += `[${JSON.stringify(String(segment))}]`;
  }
  return result;
}

function valueAt(
  root: unknown,
  path: ReadonlyArray<PropertyKey>,
): { value: unknown; throughUnknown: boolean } {
  let current = root;
  for (const segment of path) {
    if (current === UNKNOWN) return { value: current, throughUnknown: true };
    if (current === null || typeof current !== "object")
      return { value: undefined, throughUnknown: false };
    current = Object.hasOwn(current, segment as string)
      ? (current as Record<PropertyKey, unknown>)[segment]
      : undefined;
  }
  return { value: current, throughUnknown: current === UNKNOWN };
}

/**
 * Validates inputs with a zod schema and turns every issue into a `{property, reason}` failure at
 * once. Issues on values that are unknown during preview are let through: they are checked again
 * when the values are known.
 */
export function checkInputs(
  schema: z.ZodType,
  news: Inputs,
  resourceType: string,
  knownNames: readonly string[],
): CheckFailure[] {
  const { [PROVIDER_KEY]: _provider, ...inputs } = news;
  const result = schema.safeParse(inputs);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  const seen = new Set<string>();
  for (const issue of result.error.issues) {
    for (const failure of issueToFailures(issue, inputs, resourceType, knownNames)) {
      const key = `${failure.property}\u0000${failure.reason}`;
      if (!seen.has(key)) {
        seen.add(key);
        failures.push(failure);
      }
    }
  }
  return failures;
}

function issueToFailures(
  issue: z.core.$ZodIssue,
  inputs: Inputs,
  resourceType: string,
  knownNames: readonly string[],
): CheckFailure[] {
  const located = valueAt(inputs, issue.path);
  if (located.throughUnknown) return [];
  if (issue.code === "unrecognized_keys") {
    const where =
      issue.path.length === 0 ? resourceType : `${propertyPath(issue.path)} of ${resourceType}`;
    return issue.keys.map((key) => ({
      property: propertyPath([...issue.path, key]),
      reason: `is not an input of ${where}${suggestion(key, knownNames)}; remove it or fix its name`,
    }));
  }
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    // Report the branch that got furthest: its issues say the most about what is wrong.
    const deepest = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0] ?? [];
    const failures = deepest.flatMap((inner) =>
      issueToFailures(inner, inputs, resourceType, knownNames),
    );
    if (failures.length > 0 && depth(deepest) > issue.path.length) return failures;
  }
  return [
    {
      property: propertyPath(issue.path) || "(inputs)",
      reason: describeIssue(issue, located.value),
    },
  ];
}

function depth(issues: z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

/** Suggests the known name a misspelt or snake_case key most likely meant. */
function suggestion(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase().replace(/[_-]/g, "");
  const match = known.find((candidate) => candidate.toLowerCase().replace(/[_-]/g, "") === lower);
  return match ? ` (did you mean "${match}"?)` : "";
}

/** A short, safe description of a value for messages: never the whole of a long string. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `is required: set it to ${article(issue.expected)}`;
      return `must be ${article(issue.expected)}, not ${describeValue(value)}`;
    case "too_small":
      if (issue.origin === "array") return `must hold at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === "string")
        return issue.message.startsWith("Too small") ? "must not be empty" : issue.message;
      return `must be at least ${String(issue.minimum)}, not ${describeValue(value)}`;
    case "too_big":
      if (issue.origin === "string")
        return `must be at most ${String(issue.maximum)} characters long`;
      if (issue.origin === "array") return `must hold at most ${String(issue.maximum)} items`;
      return `must be at most ${String(issue.maximum)}, not ${describeValue(value)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, not ${describeValue(value)}`;
    case "invalid_union":
      return `has an unsupported form (${describeValue(value)}): ${issue.message}`;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  const names: Record<string, string> = {
    string: "a string",
    number: "a finite number",
    boolean: "true or false",
    array: "a list",
    object: "an object",
    int: "a whole number",
  };
  return names[expected] ?? expected;
}

/** Canonical text of a value for comparison: object keys sorted, null and undefined alike. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    // fromEntries keeps a `__proto__` key as an own key: assigning it would set the prototype
    // and drop the key from the canonical text.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, (value as Record<string, unknown>)[key]] as const)
        .filter(([, field]) => field !== undefined && field !== null)
        .map(([key, field]) => [key, sortKeys(field)]),
    );
  }
  return value ?? null;
}

/** A list treated as a set: deduplicated and in canonical order. */
export function sortedSet<T>(items: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(canonical(item), item);
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

export interface DiffPlan {
  /** Every input key of the resource. */
  readonly keys: readonly string[];
  /** Keys that cannot change in place. */
  readonly replaceKeys: ReadonlySet<string>;
  /** Lists whose order means nothing. */
  readonly setKeys: ReadonlySet<string>;
  /** Keys where leaving the input out means "keep whatever the platform has". */
  readonly optionalInPlaceKeys?: ReadonlySet<string>;
}

export interface DiffAnswer {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
}

/** Compares stored outputs with new inputs; always a yes or a no, never "unknown". */
export function diffInputs(olds: object, news: Inputs, plan: DiffPlan): DiffAnswer {
  const changed: string[] = [];
  for (const key of plan.keys) {
    const next = news[key];
    if (plan.optionalInPlaceKeys?.has(key) && (next === undefined || next === null)) continue;
    if (containsUnknown(next)) {
      changed.push(key);
      continue;
    }
    const previous = (olds as Inputs)[key];
    const same = plan.setKeys.has(key)
      ? canonical(asSet(previous)) === canonical(asSet(next))
      : canonical(previous) === canonical(next);
    if (!same) changed.push(key);
  }
  return {
    changes: changed.length > 0,
    replaces: changed.filter((key) => plan.replaceKeys.has(key)),
    deleteBeforeReplace: false,
  };
}

function asSet(value: unknown): unknown {
  return Array.isArray(value) ? sortedSet(value) : value;
}

export function withoutProvider(news: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, ...inputs } = news;
  return inputs;
}

/**
 * A resource without its own subOrganizationId acts for the stack's default one, and the state
 * records which: moving the default later replaces what lives in the old sub-organization.
 */
export function withDefaultSubOrganization(inputs: Inputs): Inputs {
  if (inputs.subOrganizationId !== undefined) return inputs;
  const fallback = readSettings().subOrganizationId;
  return fallback === undefined ? inputs : { ...inputs, subOrganizationId: fallback };
}
