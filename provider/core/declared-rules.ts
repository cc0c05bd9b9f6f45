/**
 * Rules between fields, and string rules a pattern cannot say, written as data: the schema's
 * check applies them here, and the Python SDK's mocks read the same data
 * (codegen/python-input-check.ts), so both refuse with the same words. Each rule names the
 * field its failure is at; a message's `{value}` is that field's value (describeValue), and
 * `{beside}` the other field's value, shortened to 60 characters.
 */
import { z } from "zod";
import { describeValue, onEveryObject } from "./check";
import { PATH_SEGMENT_PROBLEMS, pathSegmentProblem } from "../platform/path-segment";
import { HEADER_VALUE_PROBLEMS, headerValueProblem, parseHttpUrl } from "../settings/setting-rules";
import { isUnknown } from "./engine-values";

/** A rule over an object's fields. "Given" is any value but undefined, null and unknown included. */
export type FieldsRule =
  /** `field` or `or` is given. */
  | {
      readonly rule: "requiresOneOf";
      readonly field: string;
      readonly or: string;
      readonly message: string;
    }
  /** When `when` is true, `field` (a string) matches `pattern`. */
  | {
      readonly rule: "matchesWhen";
      readonly field: string;
      readonly when: string;
      readonly pattern: RegExp;
      readonly message: string;
    }
  /** When `when` is true, `field` is given. */
  | {
      readonly rule: "requiredWhen";
      readonly field: string;
      readonly when: string;
      readonly message: string;
    }
  /** When `beside` is given and known, `field` is true. */
  | {
      readonly rule: "trueBeside";
      readonly field: string;
      readonly beside: string;
      readonly message: string;
    }
  /** When `unless` is not given, `field` is given and, as a list, not empty. */
  | {
      readonly rule: "requiredUnless";
      readonly field: string;
      readonly unless: string;
      readonly message: string;
    }
  /** When `beside` is a known string, none of `fields` is given. */
  | {
      readonly rule: "forbiddenBeside";
      readonly fields: readonly string[];
      readonly beside: string;
      readonly message: string;
    };

/** A rule of a string a regex cannot say, with its messages. */
export type StringRule =
  | {
      readonly rule: "absoluteUrl";
      readonly message: string;
      /** What the Python check does not apply of it, and why. */
      readonly notCarried: string;
    }
  /** An id sent as a segment of a request's path; an empty one has its own failure. */
  | { readonly rule: "pathSegment"; readonly messages: typeof PATH_SEGMENT_PROBLEMS }
  /** A value sent in a request's header. */
  | { readonly rule: "headerValue"; readonly messages: typeof HEADER_VALUE_PROBLEMS };

/** Each declared rule's check, so the codegen finds the data behind it. */
const declared = new WeakMap<object, { fields: readonly FieldsRule[] } | { string: StringRule }>();

/** What a schema's check applies, when it is declared data. */
export function declaredRulesOf(
  check: object,
): { fields: readonly FieldsRule[] } | { string: StringRule } | undefined {
  return declared.get(check);
}

function lastCheck(schema: z.ZodType): object {
  const checks = schema._zod.def.checks ?? [];
  const check = checks[checks.length - 1];
  if (check === undefined) throw new Error("declared-rules: the schema holds no check");
  return check;
}

/** An object schema that applies `rules` whenever its value is an object (see onEveryObject). */
export function withFieldsRules<Schema extends z.ZodObject>(
  schema: Schema,
  rules: readonly FieldsRule[],
): Schema {
  const checked = schema.superRefine((value, ctx) => {
    const item = value as Record<string, unknown>;
    for (const rule of rules)
      for (const [path, message] of fieldsRuleFailures(rule, item))
        ctx.addIssue({ code: "custom", path: [path], message });
  }, onEveryObject);
  declared.set(lastCheck(checked), { fields: rules });
  return checked;
}

/** A string schema that applies `rule` (after its own checks, as zod runs them). */
export function withStringRule(schema: z.ZodString, rule: StringRule): z.ZodString {
  const checked = schema.superRefine((value, ctx) => {
    const problem = stringRuleProblem(rule, value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
  declared.set(lastCheck(checked), { string: rule });
  return checked;
}

const given = (value: unknown) => value !== undefined;

function shortened(value: string, max = 60): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** A rule's failures: [field, message] pairs. */
function fieldsRuleFailures(rule: FieldsRule, item: Record<string, unknown>): [string, string][] {
  switch (rule.rule) {
    case "requiresOneOf":
      return given(item[rule.field]) || given(item[rule.or]) ? [] : [[rule.field, rule.message]];
    case "matchesWhen": {
      const value = item[rule.field];
      // A value of the wrong type has its own failure.
      if (item[rule.when] !== true || typeof value !== "string" || rule.pattern.test(value))
        return [];
      return [[rule.field, rule.message.replace("{value}", describeValue(value))]];
    }
    case "requiredWhen":
      return item[rule.when] === true && !given(item[rule.field])
        ? [[rule.field, rule.message]]
        : [];
    case "trueBeside":
      return given(item[rule.beside]) && !isUnknown(item[rule.beside]) && item[rule.field] !== true
        ? [[rule.field, rule.message]]
        : [];
    case "requiredUnless": {
      if (given(item[rule.unless])) return [];
      const value = item[rule.field];
      return !given(value) || (Array.isArray(value) && value.length === 0)
        ? [[rule.field, rule.message]]
        : [];
    }
    case "forbiddenBeside": {
      const beside = item[rule.beside];
      if (typeof beside !== "string" || isUnknown(beside)) return [];
      return rule.fields
        .filter((field) => given(item[field]))
        .map((field) => [field, rule.message.replace("{beside}", shortened(beside))]);
    }
  }
}

function stringRuleProblem(rule: StringRule, value: string): string | undefined {
  switch (rule.rule) {
    case "absoluteUrl":
      // The URL parser forgives what the platform may not: "https:host" without "//", and
      // spaces or line breaks, which it strips. The value is sent as written, so it must be clean.
      return /^https?:\/\/[^/?#]/i.test(value) &&
        !/[\u0000-\u0020\u007f]/.test(value) &&
        parseHttpUrl(value) !== undefined
        ? undefined
        : rule.message;
    case "pathSegment":
      return value === "" ? undefined : pathSegmentProblem(value);
    case "headerValue":
      return headerValueProblem(value);
  }
}
