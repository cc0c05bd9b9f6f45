/**
 * The check every resource shares: zod issues become `{property, reason}` failures with property
 * paths, values unknown during preview pass until they are known, and warnings (advice from
 * outside the spec) are said only about inputs that are valid and wholly known, and only when
 * they are new: a warning the stored inputs already earned was said by the update that stored them.
 *
 * The failures name the full path (`supportedLocales[0]`); `forEngine` turns them into what the
 * engine prints, which looks up only a top-level input's value.
 */
import { z } from "zod";
import { redactSecrets } from "../platform/redaction";
import { readSettings } from "../settings/config";
import { containsUnknown, UNKNOWN } from "./engine-values";
import { formatPath, touchesSecretPath, parsePath, type PathSegment } from "./property-path";
import type { ProviderContext } from "./provider-context";
import type { Inputs } from "./property-bag";
import { topLevelOf } from "./secret-paths";

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/** What check answers: the inputs to use from now on, and every problem found. */
export interface CheckAnswer {
  readonly inputs: Inputs;
  readonly failures: CheckFailure[];
}

export interface CheckRules<Valid> {
  readonly type: string;
  readonly schema: z.ZodObject;
  /** Paths of secret inputs (`registerPassword`, `advancedWebhook.headers[].value`): never quoted. */
  readonly secretPaths: readonly string[];
  /** Problems zod cannot see, such as a sample file that cannot be read. */
  readonly moreFailures?: (news: Inputs) => Promise<CheckFailure[]>;
  /** Advice about valid, wholly known inputs: said, never enforced. */
  readonly warnings: (inputs: Valid) => string[];
  /** The inputs as they are stored and compared (sets sorted, case fixed). */
  readonly normalize: (news: Inputs) => Inputs;
}

/** What check knows beside the new inputs. */
export interface CheckContext {
  /** The inputs stored by the last update, if any. */
  readonly olds?: Inputs;
  /**
   * The object was adopted by id without a read (import): inputs an `ignoreChanges` keeps out
   * were never known, so a required input may be missing.
   */
  readonly adopted?: boolean;
  /** Top-level inputs the user marked secret (CallOptions.markedSecret): never quoted. */
  readonly markedSecret?: readonly string[];
}

/** The property of a failure of the inputs as a whole. */
const WHOLE = "(inputs)";

/** How a secret's value shows in messages. */
export const SECRET_SHOWN = "[secret]";

export async function checkResource<Valid>(
  provider: ProviderContext,
  rules: CheckRules<Valid>,
  news: Inputs,
  context: CheckContext = {},
): Promise<CheckAnswer> {
  // Validated in the user's order, so every index in a message points at what they wrote.
  const found = checkInputs(rules.schema, news, rules.type, fieldNames(rules.schema), [
    ...rules.secretPaths,
    ...(context.markedSecret ?? []),
  ]);
  if (rules.moreFailures) found.push(...(await rules.moreFailures(news)));
  const failures = context.adopted ? found.filter((f) => !isMissingInput(f, news)) : found;
  // Only about complete inputs: an adopted object's may lack a required one the warnings read.
  if (found.length === 0 && !containsUnknown(news)) {
    const saidBefore = new Set(warningsFor(rules, context.olds));
    for (const warning of rules.warnings(news as Valid))
      if (!saidBefore.has(warning)) provider.log.warn(warning);
  }
  const inputs = withDefaultSubOrganization(provider, rules.normalize(news));
  return { inputs, failures };
}

/**
 * A resource without its own subOrganizationId acts for the stack's default one, and the state
 * records which: moving the default later replaces what lives in the old sub-organization.
 */
function withDefaultSubOrganization(provider: ProviderContext, inputs: Inputs): Inputs {
  if (inputs.subOrganizationId !== undefined) return inputs;
  const fallback = readSettings(provider.settings).subOrganizationId;
  return fallback === undefined ? inputs : { ...inputs, subOrganizationId: fallback };
}

/** A top-level input that is not there at all: a required input an adopted object may lack. */
function isMissingInput(failure: CheckFailure, news: Inputs): boolean {
  const path = parsePath(failure.property);
  return path?.length === 1 && news[String(path[0])] === undefined;
}

/** The warnings stored inputs earned when they were checked; none for inputs that are not valid. */
function warningsFor<Valid>(rules: CheckRules<Valid>, olds: Inputs | undefined): string[] {
  if (olds === undefined || Object.keys(olds).length === 0 || containsUnknown(olds)) return [];
  const parsed = rules.schema.safeParse(olds);
  return parsed.success ? rules.warnings(parsed.data as Valid) : [];
}

/**
 * The inputs check accepted, typed: parsed when complete. An adopted object may lack required
 * inputs (check waives them, see `CheckContext.adopted`); such inputs pass as they are.
 */
export function checkedInputs<T>(schema: z.ZodType<T>, news: Inputs): T {
  const parsed = schema.safeParse(news);
  return parsed.success ? parsed.data : (news as T);
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

/** Pulumi's property path syntax: `gateways[0].ipv4` (see property-path.ts). */
export const propertyPath = formatPath;

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
  secretPaths: readonly string[] = [],
): CheckFailure[] {
  const result = schema.safeParse(inputs);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  const seen = new Set<string>();
  const where = { inputs, resourceType, knownNames, secretPaths };
  for (const issue of result.error.issues) {
    for (const failure of issueToFailures(issue, where)) {
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
  readonly secretPaths: readonly string[];
}

function issueToFailures(issue: z.core.$ZodIssue, context: IssueContext): CheckFailure[] {
  const { inputs, resourceType, knownNames, secretPaths } = context;
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
      property: propertyPath(issue.path) || WHOLE,
      reason: describeIssue(issue, located.value, touchesSecretPath(pathOf(issue), secretPaths)),
    },
  ];
}

function pathOf(issue: z.core.$ZodIssue): PathSegment[] {
  return issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
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

/**
 * A short, safe description of a value for messages: never the whole of a long string, and any
 * secret the process knows blanked before it is shortened (a part of one would escape redaction).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const redacted = redactSecrets(value);
    const shown = redacted.length > 40 ? `${redacted.slice(0, 40)}…` : redacted;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown, secret: boolean): string {
  const shown = secret ? SECRET_SHOWN : describeValue(value);
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `is required: set it to ${article(issue.expected)}`;
      return `must be ${article(issue.expected)}, not ${shown}`;
    case "too_small":
      if (issue.origin === "array") return `must hold at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === "string")
        return issue.message.startsWith("Too small") ? "must not be empty" : issue.message;
      return `must be at least ${String(issue.minimum)}, not ${shown}`;
    case "too_big":
      if (issue.origin === "string")
        return `must be at most ${String(issue.maximum)} characters long`;
      if (issue.origin === "array") return `must hold at most ${String(issue.maximum)} items`;
      return `must be at most ${String(issue.maximum)}, not ${shown}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, not ${shown}`;
    case "invalid_union":
      return `has an unsupported form (${shown}): ${issue.message}`;
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

/** What the engine needs to print a failure: the resource's input names and secret paths. */
export interface EngineFailureContext {
  readonly inputNames: readonly string[];
  readonly secretPaths: readonly string[];
}

/**
 * A failure as the engine prints it: `property <p> value <v> has a problem: <reason>`, where the
 * engine looks `<p>` up among the top-level inputs only (a nested path would print `{<nil>}`).
 * So the property is the top-level input and the reason starts with the exact place and its
 * value; an input that holds a secret, a name that is no input, or a problem of the whole has no
 * property (the engine then prints the reason alone), so the engine never prints such a value.
 */
export function forEngine(
  failure: CheckFailure,
  news: Inputs,
  context: EngineFailureContext,
): CheckFailure {
  const path = failure.property === WHOLE ? undefined : parsePath(failure.property);
  if (path === undefined) return { property: "", reason: failure.reason };
  const top = String(path[0]);
  const known = context.inputNames.includes(top);
  const holdsSecret = topLevelOf(context.secretPaths).includes(top);
  if (path.length === 1 && known && !holdsSecret) return failure;
  const located = valueAt(news, path);
  const shown = touchesSecretPath(path, context.secretPaths)
    ? SECRET_SHOWN
    : describeValue(located.value);
  const place =
    !known || located.value === undefined || failure.reason.includes(shown)
      ? failure.property
      : `${failure.property} (${shown})`;
  return { property: known && !holdsSecret ? top : "", reason: `${place} ${failure.reason}` };
}
