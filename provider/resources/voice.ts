import { IncompleteCreateError, stateOfCreated } from "../core/created-object";
import { z } from "zod";
import { checkedInputs, checkResource, onEveryObject } from "../core/check";
import { diffInputs, sortedSet, type DiffPlan } from "../core/diff";
import { containsUnknown, isAsset, isFileAsset, isUnknown } from "../core/engine-values";
import {
  finiteNumber,
  localeCode,
  normalizeLocale,
  pathId,
  subOrganizationId,
  text,
} from "../core/input-rules";
import { parsePath, pathContains } from "../core/property-path";
import { warnStaysOnPlatform } from "../core/provider-log";
import type {
  CallOptions,
  CheckFailure,
  DiffAnswer,
  Inputs,
  ResourceDescriptor,
  ObjectTypeSpec,
} from "../core/resource-descriptor";
import { callApi, pathSegment } from "../platform/http-client";
import { MultipartForm } from "../platform/multipart-form";
import {
  describeSample,
  samplePath,
  sampleProblem,
  sampleHash,
  SampleUpload,
  type SampleFacts,
  type SampleInput,
} from "../platform/sample-files";
import { InputError } from "../platform/errors";

/** A user's value inside a message: whole when short, its start when it is long. */
function shortened(value: string, max = 60): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** A long path inside a message keeps its start and its file name. */
function withShortPath(message: string, path: string): string {
  if (path.length <= 120) return message;
  return message.split(path).join(`${path.slice(0, 50)}…${path.slice(-50)}`);
}

const sampleInput = z.union([
  z.string().min(1, "must be a path to an audio file"),
  z.custom<SampleInput>(
    isFileAsset,
    "must be a path string or a pulumi.asset.FileAsset (other assets are not supported)",
  ),
]);

/** The inputs as the provider receives them, validated. */
export const VoiceInputs = z
  .strictObject({
    name: text.describe(
      "Display name. Updates in place. Required here though the spec leaves it open: the clone's answer is matched to the request by it.",
    ),
    description: z
      .string()
      .optional()
      .describe("Description sent with the clone. Changing it replaces the voice."),
    providerType: text
      .optional()
      .describe(
        "The third-party synthesis provider, e.g. ELEVENLABS. Changing it replaces the voice.",
      ),
    supportedLocales: z
      .array(localeCode)
      .optional()
      .describe("Locale codes such as en-US; order does not matter. Updates in place."),
    subAccounts: z
      .boolean()
      .optional()
      .describe(
        "The clone form's subAccounts flag (the spec does not say what it means); sent with the clone. Changing it replaces the voice.",
      ),
    stability: finiteNumber
      .optional()
      .describe(
        "Synthesis stability (the spec gives no range; outside 0–1, the range ElevenLabs documents, warns). Updates in place.",
      ),
    similarityBoost: finiteNumber
      .optional()
      .describe(
        "Synthesis similarity boost (the spec gives no range; outside 0–1 warns). Updates in place.",
      ),
    speed: finiteNumber
      .optional()
      .describe(
        "Speech speed (the spec gives no range; outside 0.7–1.2, the range ElevenLabs documents, warns). Updates in place.",
      ),
    supportsAllLanguages: z
      .boolean()
      .optional()
      .describe(
        "The clone form's supportsAllLanguages flag (the spec does not say what it means); sent with the clone. Changing it replaces the voice.",
      ),
    isMultilingual: z
      .boolean()
      .optional()
      .describe(
        "Whether the voice is multilingual; set with an update right after the clone. Updates in place.",
      ),
    files: z
      .array(sampleInput)
      .optional()
      .describe(
        "Audio samples: paths (relative to the project) or FileAssets. New content replaces the voice. Required unless existingVoiceId is given: a clone needs at least one sample.",
      ),
    existingVoiceId: pathId
      .optional()
      .describe(
        "Adopt this existing voice instead of cloning one. Changing it replaces the resource.",
      ),
    subOrganizationId: subOrganizationId
      .optional()
      .describe(
        "Sub-organization to act for; defaults to voiceplatform:subOrganizationId. Changing it replaces.",
      ),
  })
  .superRefine((inputs, ctx) => {
    // Unknown during preview, it may still turn out to be left out: nothing to say yet. Of the
    // wrong type, its own failure says so.
    if (isUnknown(inputs.existingVoiceId)) return;
    if (inputs.existingVoiceId !== undefined && typeof inputs.existingVoiceId !== "string") return;
    if (inputs.existingVoiceId === undefined) {
      const files: unknown = inputs.files;
      if (files === undefined || (Array.isArray(files) && files.length === 0)) {
        ctx.addIssue({
          code: "custom",
          path: ["files"],
          message:
            "is required to clone a voice: give at least one audio sample, or set existingVoiceId to adopt a voice",
        });
      }
      return;
    }
    for (const cloneOnly of cloneOnlyKeys) {
      if (inputs[cloneOnly] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [cloneOnly],
          message: `is only sent when cloning, so it cannot apply to the adopted voice ${shortened(inputs.existingVoiceId)}: remove it, or remove existingVoiceId to clone a new voice`,
        });
      }
    }
  }, onEveryObject);
export type VoiceInputs = z.infer<typeof VoiceInputs>;

/** Fields the clone form carries and no update can change. */
const cloneOnlyKeys = [
  "description",
  "providerType",
  "subAccounts",
  "supportsAllLanguages",
  "files",
] as const;

export const voiceDiffPlan: DiffPlan = {
  keys: Object.keys(VoiceInputs.shape),
  replaceKeys: new Set([...cloneOnlyKeys, "existingVoiceId", "subOrganizationId"]),
  setKeys: new Set(["supportedLocales"]),
  // Leaving one of these out keeps what the platform has; it is not a change.
  optionalInPlaceKeys: new Set([
    "supportedLocales",
    "isMultilingual",
    "stability",
    "similarityBoost",
    "speed",
  ]),
};

/** The Voice object of the API (section 2.1); only `id` is relied on. */
const ApiVoice = z.looseObject({
  id: z.string().min(1),
  voiceId: z.string().optional(),
  name: z.string().optional(),
  organizationId: z.string().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  isMultilingual: z.boolean().optional(),
  supportedLocales: z.array(z.string()).optional(),
  ttsClient: z.string().optional(),
});
type ApiVoice = z.infer<typeof ApiVoice>;

/**
 * What the resource stores. States carry no version: the only shape so far, with or without the
 * `stateVersion: 1` the first releases wrote; a later shape would add a hidden `__stateVersion`.
 */
export interface VoiceState extends VoiceInputs {
  readonly voiceId: string | undefined;
  readonly organizationId: string | undefined;
  readonly settings: Record<string, unknown> | undefined;
  readonly ttsClient: string | undefined;
  /** Every voice the clone answered with, as the API gave them. */
  readonly clonedVoices: ApiVoice[];
  /** Name, sha256 and size of each uploaded sample, in upload order. */
  readonly samples: SampleFacts[];
}

const knownVoiceWarnings = {
  providerTypes: ["ELEVENLABS", "CARTESIA"],
};

/** Rules that come from the platform's public docs, not the spec: said, never enforced. */
function voiceWarnings(inputs: VoiceInputs): string[] {
  const warnings: string[] = [];
  const at = `Voice ${JSON.stringify(inputs.name)}`;
  if (typeof inputs.name === "string" && inputs.name.length < 5) {
    warnings.push(
      `${at}: name "${inputs.name}" is shorter than 5 characters; the platform's docs ask for at least 5`,
    );
  }
  if (
    inputs.providerType !== undefined &&
    !knownVoiceWarnings.providerTypes.includes(inputs.providerType)
  ) {
    warnings.push(
      `${at}: providerType "${inputs.providerType}" is not one the platform's docs list (${knownVoiceWarnings.providerTypes.join(", ")})`,
    );
  }
  for (const key of ["stability", "similarityBoost"] as const) {
    const value = inputs[key];
    if (typeof value === "number" && (value < 0 || value > 1)) {
      warnings.push(`${at}: ${key} ${value} is outside 0–1, the range ElevenLabs documents`);
    }
  }
  if (typeof inputs.speed === "number" && (inputs.speed < 0.7 || inputs.speed > 1.2)) {
    warnings.push(
      `${at}: speed ${inputs.speed} is outside 0.7–1.2, the range ElevenLabs documents`,
    );
  }
  return warnings;
}

/** Locale case fixed, locales treated as a set. */
export function normalizeVoiceInputs(news: Inputs): Inputs {
  const result: Inputs = { ...news };
  const locales = news.supportedLocales;
  if (
    Array.isArray(locales) &&
    !containsUnknown(locales) &&
    locales.every((l) => typeof l === "string")
  ) {
    result.supportedLocales = sortedSet((locales as string[]).map(normalizeLocale));
  }
  return result;
}

/**
 * The clone form (section 4.1): camelCase settings, locales as one JSON-encoded field, then the
 * samples, read from disk only while the form is sent.
 */
export function toCloneForm(inputs: VoiceInputs, samples: readonly SampleUpload[]): MultipartForm {
  const form = new MultipartForm();
  form.append("name", inputs.name);
  if (inputs.description !== undefined) form.append("description", inputs.description);
  if (inputs.providerType !== undefined) form.append("providerType", inputs.providerType);
  if (inputs.supportedLocales !== undefined)
    form.append("supportedLocales", JSON.stringify(inputs.supportedLocales));
  if (inputs.subAccounts !== undefined) form.append("subAccounts", String(inputs.subAccounts));
  if (inputs.stability !== undefined) form.append("stability", String(inputs.stability));
  if (inputs.similarityBoost !== undefined)
    form.append("similarityBoost", String(inputs.similarityBoost));
  if (inputs.speed !== undefined) form.append("speed", String(inputs.speed));
  if (inputs.supportsAllLanguages !== undefined)
    form.append("supportsAllLanguages", String(inputs.supportsAllLanguages));
  for (const sample of samples) form.append("files", sample);
  return form;
}

/**
 * The update body (section 4.2): snake_case settings, only what is declared and not named by the
 * program's `ignoreChanges` (the platform keeps its own value of those).
 */
export function toUpdateBody(
  inputs: VoiceInputs,
  ignoreChanges: readonly string[] = [],
): Record<string, unknown> {
  const ignored = ignoreChanges.map(parsePath).filter((path) => path !== undefined);
  const kept = (key: keyof VoiceInputs) =>
    inputs[key] !== undefined && !ignored.some((pattern) => pathContains(pattern, [key]));
  const body: Record<string, unknown> = {};
  if (kept("name")) body.name = inputs.name;
  if (kept("isMultilingual")) body.isMultilingual = inputs.isMultilingual;
  if (kept("supportedLocales")) body.supportedLocales = inputs.supportedLocales;
  const settings: Record<string, number> = {};
  if (kept("stability")) settings.stability = inputs.stability!;
  if (kept("similarityBoost")) settings.similarity_boost = inputs.similarityBoost!;
  if (kept("speed")) settings.speed = inputs.speed!;
  if (Object.keys(settings).length > 0) body.settings = settings;
  return body;
}

/**
 * The API does not say how the answer's voices relate to the request, so the created one is the
 * first whose name is the requested name, else the first of all; every one is kept in outputs.
 */
export function pickCreatedVoice(voices: readonly ApiVoice[], name: string): ApiVoice | undefined {
  return voices.find((voice) => voice.name === name) ?? voices[0];
}

/** Outputs from the declared inputs and what the platform answered. */
export function toVoiceState(
  inputs: VoiceInputs,
  voice: ApiVoice,
  clonedVoices: ApiVoice[],
  samples: SampleFacts[],
): VoiceState {
  const settings = voice.settings;
  const setting = (key: string): number | undefined => {
    const value = settings?.[key];
    return typeof value === "number" ? value : undefined;
  };
  return {
    ...inputs,
    supportedLocales: inputs.supportedLocales ?? voice.supportedLocales,
    isMultilingual: inputs.isMultilingual ?? voice.isMultilingual,
    stability: inputs.stability ?? setting("stability"),
    similarityBoost: inputs.similarityBoost ?? setting("similarity_boost"),
    speed: inputs.speed ?? setting("speed"),
    voiceId: voice.voiceId,
    organizationId: voice.organizationId,
    settings,
    ttsClient: voice.ttsClient,
    clonedVoices,
    samples,
  };
}

/** Reads any stored shape this package ever wrote. */
export function readVoiceState(olds: Inputs): VoiceState {
  const { stateVersion: _firstReleases, ...state } = olds;
  return { clonedVoices: [], samples: [], ...state } as unknown as VoiceState;
}

function label(inputs: { name?: unknown }): string {
  return typeof inputs.name === "string" ? `voice "${inputs.name}"` : "voice";
}

function unknownOutcomeHint(inputs: VoiceInputs): string {
  return (
    `The platform may have cloned ${label(inputs)} although this call failed. Look for it on the platform before ` +
    "running `pulumi up` again: adopt it with existingVoiceId instead of cloning a second one"
  );
}

async function putVoice(
  id: string,
  inputs: VoiceInputs,
  operation: string,
  body: Record<string, unknown> = toUpdateBody(inputs),
): Promise<ApiVoice> {
  const response = await callApi({
    operation,
    method: "PUT",
    origin: "api",
    path: `/voices/${pathSegment(operation, "the voice id", id)}`,
    json: body,
    subOrganizationId: inputs.subOrganizationId,
    idempotent: true,
    answer: { schema: ApiVoice, problem: () => "the answer is not a Voice object with an id" },
  });
  return response.body;
}

const CloneAnswer = z.array(ApiVoice).min(1);

/** A sample unknown during preview is checked once known; it hides nothing about the others. */
async function sampleFailures(news: Inputs): Promise<CheckFailure[]> {
  const files = news.files;
  if (!Array.isArray(files)) return [];
  const failures: CheckFailure[] = [];
  const problems = await Promise.all(
    files.map((file) =>
      !containsUnknown(file) && (isFileAsset(file) || typeof file === "string")
        ? sampleProblem(file as SampleInput)
        : undefined,
    ),
  );
  problems.forEach((problem, index) => {
    if (problem) {
      const path = samplePath(files[index] as SampleInput);
      failures.push({ property: `files[${index}]`, reason: withShortPath(problem, path) });
    }
  });
  files.forEach((file, index) => {
    if (isAsset(file) && !isFileAsset(file)) {
      failures.push({
        property: `files[${index}]`,
        reason: "must be a FileAsset or a path: other asset kinds cannot be uploaded",
      });
    }
  });
  return failures;
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer> {
  const stored = readVoiceState(olds);
  const files = news.files;
  // Samples compare by content, as a set: the same path with new audio is a new voice, the same
  // audio in another order is not.
  const newFiles =
    Array.isArray(files) && !containsUnknown(files)
      ? (await Promise.all((files as SampleInput[]).map(sampleHash))).sort()
      : files;
  const oldFiles =
    stored.samples.length > 0 || stored.files !== undefined
      ? stored.samples.map((sample) => sample.sha256).sort()
      : undefined;
  return diffInputs({ ...stored, files: oldFiles }, { ...news, files: newFiles }, voiceDiffPlan);
}

async function create(
  news: Inputs,
  options: CallOptions = {},
): Promise<{ id: string; state: VoiceState }> {
  const inputs = VoiceInputs.parse(news);
  const existing = inputs.existingVoiceId;
  if (existing !== undefined) {
    // Adopting sets what the program declares and does not ignore; with nothing left, no call.
    const body = toUpdateBody(inputs, options.ignoreChanges);
    if (Object.keys(body).length === 0) {
      return { id: existing, state: toVoiceState(inputs, { id: existing }, [], []) };
    }
    const voice = await putVoice(existing, inputs, `adopt ${label(inputs)} (${existing})`, body);
    return { id: voice.id, state: toVoiceState(inputs, voice, [], []) };
  }
  const samples = await Promise.all((inputs.files ?? []).map(SampleUpload.open)).catch(
    (error: NodeJS.ErrnoException) => {
      // Gone or unreadable since check: say so before anything is sent.
      throw new InputError(
        `clone ${label(inputs)}: a sample cannot be read (${error.code ?? error.message}${error.path ? `: ${error.path}` : ""}), ` +
          "so nothing was sent. Fix the file and run `pulumi up` again",
        { cause: error },
      );
    },
  );
  const totalBytes = samples.reduce((sum, sample) => sum + sample.size, 0);
  const response = await callApi({
    operation: `clone ${label(inputs)}`,
    method: "POST",
    origin: "api",
    path: "/voices/voice-clone",
    form: () => toCloneForm(inputs, samples),
    subOrganizationId: inputs.subOrganizationId,
    idempotent: false,
    // A second per megabyte on top of the deadline, so large samples are not cut off.
    extraTimeoutMs: Math.ceil(totalBytes / 1_000_000) * 1000,
    unknownOutcomeHint: unknownOutcomeHint(inputs),
    answer: {
      schema: CloneAnswer,
      problem: (body) =>
        `the platform answered ${Array.isArray(body) && body.length === 0 ? "an empty list" : "something other than a list of voices"}, so no voice id is known`,
    },
  });
  const voices = response.body;
  const voice = pickCreatedVoice(voices, inputs.name)!;
  const state = await stateOfCreated(
    voice.id,
    { ...inputs, voiceId: voice.voiceId, clonedVoices: voices },
    async () =>
      toVoiceState(inputs, voice, voices, await Promise.all(samples.map((s) => s.facts()))),
  );
  if (inputs.isMultilingual === undefined) return { id: voice.id, state };
  try {
    const updated = await putVoice(
      voice.id,
      inputs,
      `set isMultilingual on the new ${label(inputs)} (${voice.id})`,
    );
    return { id: voice.id, state: toVoiceState(inputs, updated, voices, state.samples) };
  } catch (error) {
    // Record what the platform has, so the next update retries the PUT instead of cloning again.
    throw new IncompleteCreateError(
      voice.id,
      { ...state, isMultilingual: voice.isMultilingual },
      error as Error,
    );
  }
}

async function update(
  id: string,
  olds: Inputs,
  news: Inputs,
  options: CallOptions = {},
): Promise<VoiceState> {
  const stored = readVoiceState(olds);
  const inputs = checkedInputs(VoiceInputs, news);
  const body = toUpdateBody(inputs, options.ignoreChanges);
  const voice = await putVoice(id, inputs, `update ${label(inputs)} (${id})`, body);
  return toVoiceState(inputs, voice, stored.clonedVoices, stored.samples);
}

/**
 * The platform's own fields are unknown without a call: the next update brings them in. The
 * samples are described from the files, so a diff against the same files shows no change.
 */
async function stateAfterCreate(id: string, news: Inputs): Promise<VoiceState> {
  const inputs = checkedInputs(VoiceInputs, news);
  const samples =
    inputs.existingVoiceId === undefined
      ? await Promise.all((inputs.files ?? []).map(describeSample))
      : [];
  return toVoiceState(inputs, { id }, [], samples);
}

const sampleType: ObjectTypeSpec = {
  type: "object",
  description: "An uploaded audio sample.",
  properties: {
    name: { type: "string", description: "The file's base name, as uploaded." },
    sha256: { type: "string", description: "sha256 of the bytes sent." },
    size: { type: "integer", description: "Size in bytes." },
  },
  required: ["name", "sha256", "size"],
};

/** The keys spec 2.1 shows in a Voice object's settings. */
const settingsType: ObjectTypeSpec = {
  type: "object",
  description: "A voice's synthesis settings as the platform answered them.",
  properties: {
    stability: { type: "number", description: "Stability, as the platform answered it." },
    style: { type: "number", description: "Style, as the platform answered it." },
  },
};

/** A Voice object of spec 2.1, as a clone answered it. */
const clonedVoiceType: ObjectTypeSpec = {
  type: "object",
  description: "A voice the clone answered with (every field optional: the answer may omit any).",
  properties: {
    id: { type: "string", description: "The voice record's id (the one updates take)." },
    voiceId: { type: "string", description: "The voice's id at the synthesis provider." },
    name: { type: "string", description: "Display name." },
    organizationId: { type: "string", description: "Organization that owns the voice." },
    settings: {
      $ref: "#/types/voiceplatform:index:VoiceSettings",
      description: "Synthesis settings.",
    },
    isMultilingual: { type: "boolean", description: "Whether the voice is multilingual." },
    supportedLocales: {
      type: "array",
      items: { type: "string" },
      description: "Locale codes, language-REGION.",
    },
    ttsClient: { type: "string", description: "Synthesis client that serves the voice." },
  },
};

export const voice: ResourceDescriptor<VoiceState, "Voice"> = {
  type: "Voice",
  summary: "A voice cloned from audio samples, or an existing voice adopted with existingVoiceId.",
  importId:
    "the voice record's `id` (the one the update path takes): `pulumi import voiceplatform:index:Voice support-voice <id>`",
  inputSchema: VoiceInputs,
  objectTypes: {},
  outputs: [
    {
      name: "voiceId",
      description: "The voice's id at the synthesis provider.",
      type: { type: "string" },
      writtenBy: "create",
    },
    {
      name: "organizationId",
      description: "Organization that owns the voice.",
      type: { type: "string" },
      writtenBy: "create and update",
    },
    {
      name: "settings",
      description:
        "Synthesis settings as the platform answered them: the spec shows `stability` and `style`. Other keys the platform answers are kept in state and shown by the TypeScript SDK.",
      type: { $ref: "#/types/voiceplatform:index:VoiceSettings" },
      writtenBy: "create and update",
    },
    {
      name: "ttsClient",
      description: "Synthesis client the platform uses for the voice.",
      type: { type: "string" },
      writtenBy: "create and update",
    },
    {
      name: "clonedVoices",
      description: "Every voice the clone answered with, as the API gave them.",
      type: { type: "array", items: { $ref: "#/types/voiceplatform:index:ClonedVoice" } },
      always: true,
      writtenBy: "create",
    },
    {
      name: "samples",
      description: "Name, sha256 and size of each uploaded sample, in upload order.",
      type: { type: "array", items: { $ref: "#/types/voiceplatform:index:VoiceSample" } },
      always: true,
      writtenBy: "create",
    },
  ],
  outputTypes: {
    VoiceSample: sampleType,
    VoiceSettings: settingsType,
    ClonedVoice: clonedVoiceType,
  },
  secretInputs: [],
  secretWireFields: [],
  check: (_olds, news, context) =>
    checkResource(
      {
        type: "Voice",
        schema: VoiceInputs,
        secretPaths: [],
        moreFailures: sampleFailures,
        warnings: voiceWarnings,
        normalize: normalizeVoiceInputs,
      },
      news,
      context,
    ),
  diff,
  create,
  update,
  delete: async (id, olds, context) => warnStaysOnPlatform(`${label(olds)} (${id})`, context),
  adoptWith: (id) =>
    `existingVoiceId: ${JSON.stringify(id)} (its create adopts that voice instead of cloning one; leave files out)`,
  stateAfterCreate,
  recovery: {
    lookFor: "a voice on the platform with",
    idLabel: "voice record id",
    identifyingInputs: ["name", "providerType", "files", "supportedLocales", "existingVoiceId"],
    // A clone sets isMultilingual with a second call, which an interrupted create may never have
    // made: recorded as unknown, as create itself records it when that call fails, so the next
    // `up` sends it (one PUT, in place) instead of assuming it.
    unsettledOutputs: (inputs) => (inputs.isMultilingual === undefined ? [] : ["isMultilingual"]),
    afterRecording:
      "A recovered voice has only its id: voiceId, organizationId, settings and ttsClient come in with its next update. A voice declaring isMultilingual gets that update from the next `pulumi up` (one PUT), since the interrupted create may not have set it.",
    interruptedUpdate:
      "The update (one PUT of the declared name, locales and settings) may or may not have reached the platform. The stack still holds the voice with its previous outputs, so the next `pulumi up` sends the same PUT again, which is safe to repeat.",
  },
};
