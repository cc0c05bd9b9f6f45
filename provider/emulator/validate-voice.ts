import { z } from "zod";
import type { LoggedFile } from "./control-types";
import { ErrorAnswer } from "./errors";
import { FILE_FIELD, type MultipartForm } from "./multipart-upload";
import {
  describeValue,
  misplacedFieldError,
  parseWireBody,
  unknownFieldError,
  type MisplacedFields,
} from "./wire-validation";

export interface CloneVoiceInput {
  name: string;
  description?: string;
  providerType?: string;
  supportedLocales?: string[];
  subAccounts?: boolean;
  stability?: number;
  similarityBoost?: number;
  speed?: number;
  supportsAllLanguages?: boolean;
  files: readonly LoggedFile[];
}

type FormFieldKind = "string" | "number" | "boolean" | "locales";

export const CLONE_FORM_FIELDS: Readonly<Record<string, FormFieldKind>> = {
  name: "string",
  description: "string",
  providerType: "string",
  supportedLocales: "locales",
  subAccounts: "boolean",
  stability: "number",
  similarityBoost: "number",
  speed: "number",
  supportsAllLanguages: "boolean",
};

const CLONE_MISPLACED: MisplacedFields = {
  similarity_boost: {
    use: "similarityBoost",
    because: "the clone form names settings in camelCase; similarity_boost is the update body's",
  },
  settings: {
    use: "stability, similarityBoost and speed as separate form fields",
    because: "the clone form has no settings object",
  },
};

const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** Form values are strings on the wire: booleans as "true"/"false", numbers as decimals. */
export function parseCloneForm(form: MultipartForm): CloneVoiceInput {
  const values: Record<string, unknown> = {};
  for (const [name, raw] of form.fields) {
    // Own keys only: a field named "constructor" must not find Object.prototype's.
    const kind = Object.hasOwn(CLONE_FORM_FIELDS, name) ? CLONE_FORM_FIELDS[name] : undefined;
    const hint = Object.hasOwn(CLONE_MISPLACED, name) ? CLONE_MISPLACED[name] : undefined;
    if (hint !== undefined) throw misplacedFieldError(name, hint);
    if (kind === undefined) throw unknownFieldError(name);
    values[name] = parseFormValue(name, raw, kind);
  }
  if (typeof values.name !== "string" || values.name === "") {
    throw new ErrorAnswer(400, "missing_field", 'Form field "name" is required.', "name");
  }
  if (form.files.length === 0) {
    throw new ErrorAnswer(
      400,
      "missing_files",
      `A clone needs at least one audio sample in form field "${FILE_FIELD}".`,
      FILE_FIELD,
    );
  }
  const emptyIndex = form.files.findIndex((file) => file.size === 0);
  if (emptyIndex !== -1) {
    const field = `${FILE_FIELD}[${emptyIndex}]`;
    throw new ErrorAnswer(400, "invalid_field", `Audio sample ${field} is empty.`, field);
  }
  return { ...(values as Omit<CloneVoiceInput, "files">), files: form.files };
}

function parseFormValue(name: string, raw: string, kind: FormFieldKind): unknown {
  switch (kind) {
    case "string":
      return raw;
    case "boolean":
      if (raw === "true" || raw === "false") return raw === "true";
      throw invalidFormField(name, 'must be "true" or "false"', raw);
    case "number":
      if (DECIMAL.test(raw)) return Number(raw);
      throw invalidFormField(name, "must be a decimal number", raw);
    case "locales":
      return parseLocales(name, raw);
  }
}

function parseLocales(name: string, raw: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidFormField(name, 'must be a JSON-encoded array of strings, like ["en-US"]', raw);
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string")) {
    throw invalidFormField(name, 'must be a JSON-encoded array of strings, like ["en-US"]', raw);
  }
  return parsed as string[];
}

function invalidFormField(name: string, requirement: string, raw: string): ErrorAnswer {
  return new ErrorAnswer(
    400,
    "invalid_field",
    `Form field "${name}" ${requirement}; got ${describeValue(raw)}.`,
    name,
  );
}

export const voiceUpdateSchema = z.strictObject({
  name: z.string().min(1).optional(),
  isMultilingual: z.boolean().optional(),
  supportedLocales: z.array(z.string()).optional(),
  settings: z
    .strictObject({
      stability: z.number().optional(),
      similarity_boost: z.number().optional(),
      speed: z.number().optional(),
    })
    .optional(),
});

export type VoiceUpdateInput = z.infer<typeof voiceUpdateSchema>;

const SETTINGS_GO_INSIDE = "settings go inside the settings object of the update body";

const UPDATE_MISPLACED: MisplacedFields = {
  "settings.similarityBoost": {
    use: "settings.similarity_boost",
    because: "the update body names settings in snake_case; similarityBoost is the clone form's",
  },
  similarityBoost: { use: "settings.similarity_boost", because: SETTINGS_GO_INSIDE },
  similarity_boost: { use: "settings.similarity_boost", because: SETTINGS_GO_INSIDE },
  stability: { use: "settings.stability", because: SETTINGS_GO_INSIDE },
  speed: { use: "settings.speed", because: SETTINGS_GO_INSIDE },
};

export function parseVoiceUpdate(body: unknown): VoiceUpdateInput {
  return parseWireBody(voiceUpdateSchema, body, UPDATE_MISPLACED);
}
