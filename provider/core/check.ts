/**
 * The check every resource shares: zod issues become `{property, reason}` failures with Pulumi
 * property paths, values unknown during preview pass until they are known, and warnings (advice
 * from outside the spec) are said only about inputs that are valid and wholly known.
 */
import { z } from "zod";
import { withDefaultSubOrganization } from "../settings/config";
import { containsUnknown, UNKNOWN } from "./engine-values";
import { warn } from "./provider-log";
import type { CheckAnswer, CheckFailure, Inputs } from "./resource-descriptor";

export interface CheckRules<Valid> {
  readonly type: string;
  readonly schema: z.ZodObject;
  /** Problems zod cannot see, such as a sample file that cannot be read. */
  readonly moreFailures?: (news: Inputs) => Promise<CheckFailure[]>;
  /** Advice about valid, wholly known inputs: said, never enforced. */
  readonly warnings: (inputs: Valid) => string[];
  /** The inputs as they are stored and compared (sets sorted, case fixed). */
  readonly normalize: (news: Inputs) => Inputs;
  /** Paths of the secret inputs (`advancedWebhook.headers[].value`): their values are never shown. */
  readonly secretInputs?: readonly string[];
}

export async function checkResource<Valid>(
  rules: CheckRules<Valid>,
  news: Inputs,
): Promise<CheckAnswer> {
  // Validated in the user's order, so every index in a message points at what they wrote.
  const failures = checkInputs(
    rules.schema,
    news,
    rules.type,
    fieldNames(rules.schema),
    rules.secretInputs,
  );
  if (rules.moreFailures) failures.push(...(await rules.moreFailures(news)));
  if (failures.length === 0 && !containsUnknown(news)) {
    for (const warning of rules.warnings(news as Valid)) warn(warning);
  }
  return { inputs: withDefaultSubOrganization(rules.normalize(news)), failures };
}

/** Every field name at any depth of a schema, for "did you mean" suggestions. */
export function fieldNames(schema: z.ZodType): string[] {
  const names = new Set<string>();
  const walk = (node: z.ZodType) => {
    if (node instanceof z.ZodOptional) walk(node.unwrap() as z.ZodType);
    else if (node instanceof z.ZodArray) walk(node.element as z.ZodType);
    else if (node instanceof z.ZodUnion)
      for (const option of node.options) walk(option as z.ZodType);
    else if (node instanceof z.ZodObject) {
      for (const [key, field] of Object.entries(node.shape as Record<string, z.ZodType>)) {
        names.add(key);
        walk(field);
      }
    }
  };
  walk(schema);
  return [...names];
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
  inputs: Inputs,
  resourceType: string,
  knownNames: readonly string[],
  secretInputs: readonly string[] = [],
): CheckFailure[] {
  const result = schema.safeParse(inputs);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  const seen = new Set<string>();
  const context = { inputs, resourceType, knownNames, secretInputs };
  for (const issue of result.error.issues) {
    for (const failure of issueToFailures(issue, context)) {
      const key = `${failure.property}\u0000${failure.reason}`;
      if (!seen.has(key)) {
        seen.add(key);
        failures.push(failure);
      }
    }
  }
  return failures;
}

interface IssueContext {
  readonly inputs: Inputs;
  readonly resourceType: string;
  readonly knownNames: readonly string[];
  readonly secretInputs: readonly string[];
}

/**
 * Whether a property path holds a secret input or lies above one (`advancedWebhook` given as a
 * string): its value is then shown as "[secret]". List indexes match the `[]` of a secret path.
 */
export function touchesSecret(
  path: ReadonlyArray<PropertyKey>,
  secretInputs: readonly string[],
): boolean {
  const names = path.filter((segment) => typeof segment !== "number").map(String);
  return secretInputs.some((secretPath) => {
    const secret = secretPath.split(".").map((segment) => segment.replace(/\[\]$/, ""));
    const shorter = Math.min(secret.length, names.length);
    return secret.slice(0, shorter).every((segment, index) => segment === names[index]);
  });
}

function issueToFailures(issue: z.core.$ZodIssue, context: IssueContext): CheckFailure[] {
  const { inputs, resourceType, knownNames } = context;
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
    const failures = deepest.flatMap((inner) => issueToFailures(inner, context));
    if (failures.length > 0 && depth(deepest) > issue.path.length) return failures;
  }
  return [
    {
      property: propertyPath(issue.path) || "(inputs)",
      reason: describeIssue(
        issue,
        located.value !== undefined && touchesSecret(issue.path, context.secretInputs)
          ? SECRET_VALUE
          : located.value,
      ),
    },
  ];
}

function depth(issues: z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

/** Suggests the known name a misspelt or snake_case key most likely meant: ` (did you mean "x"?)`. */
export function suggestion(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase().replace(/[_-]/g, "");
  const match = known.find((candidate) => candidate.toLowerCase().replace(/[_-]/g, "") === lower);
  return match ? ` (did you mean "${match}"?)` : "";
}

/** Stands for the value of a secret input in a message: the value itself is never shown. */
const SECRET_VALUE = Symbol("secret");

/** A short, safe description of a value for messages: never the whole of a long string. */
export function describeValue(value: unknown): string {
  if (value === SECRET_VALUE) return "[secret]";
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
