import type { z } from "zod";
import { ErrorAnswer } from "./errors";

/** A field sent under a name that belongs elsewhere, and the name to use instead. */
export interface MisplacedField {
  use: string;
  because: string;
}

/** Keyed by the full wire path of the misplaced field, e.g. "settings.similarityBoost". */
export type MisplacedFields = Readonly<Record<string, MisplacedField>>;

/** Formats a path the way a client author reads it: `gateways[0].netmask`. */
export function wireFieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** Own keys only: a field named "constructor" must not find Object.prototype's. */
function misplacedAt(misplaced: MisplacedFields, field: string): MisplacedField | undefined {
  return Object.hasOwn(misplaced, field) ? misplaced[field] : undefined;
}

export function misplacedFieldError(field: string, hint: MisplacedField): ErrorAnswer {
  return new ErrorAnswer(
    400,
    "wrong_field_name",
    `Field "${field}" is not accepted here; use "${hint.use}" (${hint.because}).`,
    field,
  );
}

export function unknownFieldError(field: string): ErrorAnswer {
  return new ErrorAnswer(
    400,
    "unknown_field",
    `Unknown field "${field}". The emulator rejects fields the API contract does not list, ` +
      "so that misspelled or misplaced fields fail loudly instead of being ignored.",
    field,
  );
}

/** Validates a decoded JSON body; the first problem becomes a 400 naming the exact wire field. */
export function parseWireBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
  misplaced: MisplacedFields = {},
): T {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  throw issueToError(pickMostTelling(result.error.issues, misplaced), misplaced);
}

/** A wrong name explains the other errors it causes, so report naming problems first. */
function pickMostTelling(issues: readonly z.core.$ZodIssue[], misplaced: MisplacedFields) {
  const unknownKeyFields = (issue: z.core.$ZodIssue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => wireFieldPath([...issue.path, key]))
      : [];
  const misplacedIssue = issues.find((issue) =>
    unknownKeyFields(issue).some((field) => misplacedAt(misplaced, field) !== undefined),
  );
  const first = issues[0];
  if (first === undefined) throw new Error("zod reported a failure without issues");
  return misplacedIssue ?? issues.find((issue) => issue.code === "unrecognized_keys") ?? first;
}

function issueToError(issue: z.core.$ZodIssue, misplaced: MisplacedFields): ErrorAnswer {
  const field = wireFieldPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const fields = issue.keys.map((key) => wireFieldPath([...issue.path, key]));
    const misplacedField = fields.find(
      (candidate) => misplacedAt(misplaced, candidate) !== undefined,
    );
    const hint = misplacedField === undefined ? undefined : misplacedAt(misplaced, misplacedField);
    if (misplacedField !== undefined && hint !== undefined) {
      return misplacedFieldError(misplacedField, hint);
    }
    return unknownFieldError(fields[0] ?? field);
  }
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) {
      return new ErrorAnswer(400, "missing_field", `Field "${field}" is required.`, field);
    }
    if (field === "") {
      return new ErrorAnswer(
        400,
        "invalid_body",
        `The request body must be ${describeExpected(issue.expected)}; got ${describeValue(issue.input)}.`,
      );
    }
    return new ErrorAnswer(
      400,
      "invalid_field",
      `Field "${field}" must be ${describeExpected(issue.expected)}; got ${describeValue(issue.input)}.`,
      field,
    );
  }
  if (issue.code === "invalid_value") {
    const allowed = issue.values.map((value) => JSON.stringify(value)).join(", ");
    return new ErrorAnswer(
      400,
      "invalid_field",
      `Field "${field}" must be one of ${allowed}; got ${describeValue(issue.input)}.`,
      field,
    );
  }
  return new ErrorAnswer(
    400,
    "invalid_field",
    `Field "${field}" is invalid: ${issue.message}.`,
    field === "" ? undefined : field,
  );
}

function describeExpected(expected: string): string {
  const descriptions: Record<string, string> = {
    int: "an integer",
    number: "a number",
    string: "a string",
    boolean: "a boolean (true or false)",
    array: "an array",
    object: "a JSON object",
  };
  return descriptions[expected] ?? expected;
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
