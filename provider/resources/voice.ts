import { z } from "zod";
import { withFieldsRules } from "../core/declared-rules";
import { stateOfCreated } from "../core/created-object";
import { IncompleteCreateError } from "../core/errors";
import { diffInputs, type DiffPlan } from "../core/diff";
import { containsUnknown, isAsset, isFileAsset } from "../core/engine-values";
import { requestBody, wireName } from "../core/field-facts";
import {
  finiteNumber,
  localeCode,
  normalizeLocale,
  pathId,
  subOrganizationId,
  text,
} from "../core/input-rules";
import { parsePath, pathContains } from "../core/property-path";
import { filledIn, warnStaysOnPlatform } from "../core/provider-log";
import {
  defineResource,
  storedState,
  type CallOptions,
  type CheckFailure,
  type DiffAnswer,
  type Inputs,
  type ProviderContext,
  type StateOf,
} from "../core/resource-descriptor";
import { InputError } from "../platform/errors";
import { pathSegment } from "../platform/http-client";
import { MultipartForm } from "../platform/multipart-form";
import {
  describeSample,
  samplePath,
  sampleProblem,
  sampleHash,
  SAMPLE_PROBLEMS,
  SampleUpload,
  type SampleFacts,
  type SampleInput,
} from "../platform/sample-files";

/**
 * What check says of samples beyond the schema: data, so the Python SDK's mocks say the same
 * (codegen/python-input-check.ts).
 */
export const SAMPLE_CHECK = {
  field: "files",
  problems: SAMPLE_PROBLEMS,
  /** A path longer than `longerThan` shows only its first and last `kept` characters. */
  shortPath: { longerThan: 120, kept: 50 },
  otherAsset: "must be a FileAsset or a path: other asset kinds cannot be uploaded",
} as const;

/** A long path inside a message keeps its start and its file name. */
function withShortPath(message: string, path: string): string {
  const { longerThan, kept } = SAMPLE_CHECK.shortPath;
  if (path.length <= longerThan) return message;
  return message.split(path).join(`${path.slice(0, kept)}…${path.slice(-kept)}`);
}

const sampleInput = z.union([
  z.string().min(1, "must be a path to an audio file"),
  z.custom<SampleInput>(
    isFileAsset,
    "must be a path string or a pulumi.asset.FileAsset (other assets are not supported)",
  ),
]);

/**
 * The voice's inputs as the provider receives them. The clone form (section 4.1) and the update
 * body (section 4.2) name the settings differently (camelCase, snake_case inside `settings`); a
 * field that no update sends can only change with a new clone.
 */
const voiceFields = z.strictObject({
  name: text.meta({
    description:
      "Display name. The spec leaves it open, but the clone's answer is matched to the request by it.",
    wire: "name",
  }),
  description: z
    .string()
    .optional()
    .meta({
      description: "Description sent with the clone.",
      wire: { clone: "description" },
      replaceOnChange: true,
    }),
  providerType: text.optional().meta({
    description: "The third-party synthesis provider, e.g. ELEVENLABS.",
    wire: { clone: "providerType" },
    replaceOnChange: true,
  }),
  supportedLocales: z
    .array(localeCode)
    .optional()
    .meta({ description: "Locale codes such as en-US.", wire: "supportedLocales", set: true }),
  subAccounts: z
    .boolean()
    .optional()
    .meta({
      description:
        "The clone form's subAccounts flag (the spec does not say what it means); sent with the clone.",
      wire: { clone: "subAccounts" },
      replaceOnChange: true,
    }),
  stability: finiteNumber.optional().meta({
    description:
      "Synthesis stability (the spec gives no range; outside 0–1, the range ElevenLabs documents, warns).",
    wire: { clone: "stability", update: "settings.stability" },
  }),
  similarityBoost: finiteNumber.optional().meta({
    description: "Synthesis similarity boost (the spec gives no range; outside 0–1 warns).",
    wire: { clone: "similarityBoost", update: "settings.similarity_boost" },
  }),
  speed: finiteNumber.optional().meta({
    description:
      "Speech speed (the spec gives no range; outside 0.7–1.2, the range ElevenLabs documents, warns).",
    wire: { clone: "speed", update: "settings.speed" },
  }),
  supportsAllLanguages: z
    .boolean()
    .optional()
    .meta({
      description:
        "The clone form's supportsAllLanguages flag (the spec does not say what it means); sent with the clone.",
      wire: { clone: "supportsAllLanguages" },
      replaceOnChange: true,
    }),
  isMultilingual: z
    .boolean()
    .optional()
    .meta({
      description: "Whether the voice is multilingual; set with an update right after the clone.",
      wire: { update: "isMultilingual" },
    }),
  files: z
    .array(sampleInput)
    .optional()
    .meta({
      description:
        "Audio samples: paths (relative to the project) or FileAssets, compared by content. Required unless existingVoiceId is given: a clone needs at least one sample.",
      wire: { clone: "files" },
      replaceOnChange: true,
    }),
  existingVoiceId: pathId.optional().meta({
    description: "Adopt this existing voice instead of cloning one.",
    replaceOnChange: true,
  }),
  subOrganizationId: subOrganizationId.optional().meta({
    description: "Sub-organization to act for; defaults to voiceplatform:subOrganizationId.",
    replaceOnChange: true,
  }),
});

/** Fields only the clone sends: an adopted voice cannot have them. */
const cloneOnlyKeys = Object.keys(voiceFields.shape).filter((key) => {
  const field = voiceFields.shape[key as keyof typeof voiceFields.shape];
  return wireName(field, "clone") !== undefined && wireName(field, "update") === undefined;
}) as (keyof typeof voiceFields.shape)[];

/**
 * The inputs as the provider receives them, validated. An existingVoiceId unknown during preview
 * may still turn out to be left out, and one of the wrong type has its own failure: neither rule
 * says anything of it.
 */
export const VoiceInputs = withFieldsRules(voiceFields, [
  {
    rule: "requiredUnless",
    field: "files",
    unless: "existingVoiceId",
    message:
      "is required to clone a voice: give at least one audio sample, or set existingVoiceId to adopt a voice",
  },
  {
    rule: "forbiddenBeside",
    fields: cloneOnlyKeys,
    beside: "existingVoiceId",
    message:
      "is only sent when cloning, so it cannot apply to the adopted voice {beside}: remove it, or remove existingVoiceId to clone a new voice",
  },
]);
export type VoiceInputs = z.infer<typeof VoiceInputs>;

/** The keys spec 2.1 shows in a Voice object's settings. */
const VoiceSettings = z
  .looseObject({
    stability: z.number().optional().describe("Stability, as the platform answered it."),
    style: z.number().optional().describe("Style, as the platform answered it."),
  })
  .meta({
    typeName: "VoiceSettings",
    description: "A voice's synthesis settings as the platform answered them.",
  });

/** A Voice object of spec 2.1, as a clone answered it. */
const ClonedVoice = z
  .looseObject({
    id: z.string().optional().describe("The voice record's id (the one updates take)."),
    voiceId: z.string().optional().describe("The voice's id at the synthesis provider."),
    name: z.string().optional().describe("Display name."),
    organizationId: z.string().optional().describe("Organization that owns the voice."),
    settings: VoiceSettings.optional().describe("Synthesis settings."),
    isMultilingual: z.boolean().optional().describe("Whether the voice is multilingual."),
    supportedLocales: z.array(z.string()).optional().describe("Locale codes, language-REGION."),
    ttsClient: z.string().optional().describe("Synthesis client that serves the voice."),
  })
  .meta({
    typeName: "ClonedVoice",
    description: "A voice the clone answered with (every field optional: the answer may omit any).",
  });

/**
 * The Voice object as the API answers it: only `id` is relied on, and settings are kept as given
 * whatever their keys hold.
 */
const ApiVoice = ClonedVoice.extend({
  id: z.string().min(1),
  settings: z.record(z.string(), z.unknown()).optional(),
});
type ApiVoice = z.infer<typeof ApiVoice>;

const VoiceSample = z
  .object({
    name: z.string().describe("The file's base name, as uploaded."),
    sha256: z.string().describe("sha256 of the bytes sent."),
    size: z.number().int().describe("Size in bytes."),
  })
  .meta({ typeName: "VoiceSample", description: "An uploaded audio sample." });

/** What the provider writes beside the inputs. */
const VoiceOutputs = z.object({
  voiceId: z.string().optional().meta({
    description: "The voice's id at the synthesis provider.",
    writtenBy: "create",
  }),
  organizationId: z.string().optional().meta({
    description: "Organization that owns the voice.",
    writtenBy: "create and update",
  }),
  settings: VoiceSettings.optional().meta({
    description:
      "Synthesis settings as the platform answered them: the spec shows `stability` and `style`. Other keys the platform answers are kept in state and shown by the TypeScript SDK.",
    writtenBy: "create and update",
  }),
  ttsClient: z.string().optional().meta({
    description: "Synthesis client the platform uses for the voice.",
    writtenBy: "create and update",
  }),
  clonedVoices: z.array(ClonedVoice).meta({
    description: "Every voice the clone answered with, as the API gave them.",
    writtenBy: "create",
  }),
  samples: z.array(VoiceSample).meta({
    description: "Name, sha256 and size of each uploaded sample, in upload order.",
    writtenBy: "create",
  }),
});

/** What the resource stores. */
export type VoiceState = StateOf<typeof VoiceInputs, typeof VoiceOutputs>;

/**
 * The voice's warnings, as data the Python SDK's mocks read too (codegen/python-input-check.ts):
 * templates, and what they compare with.
 */
export const VOICE_WARNINGS = {
  minNameLength: 5,
  providerTypes: ["ELEVENLABS", "CARTESIA"],
  /** The ranges ElevenLabs documents, in the order they are said. */
  ranges: { stability: [0, 1], similarityBoost: [0, 1], speed: [0.7, 1.2] },
  says: {
    shortName:
      '{at}: name "{name}" is shorter than {min} characters; the platform\'s docs ask for at least {min}',
    providerType: '{at}: providerType "{value}" is not one the platform\'s docs list ({known})',
    outOfRange: "{at}: {key} {value} is outside {min}–{max}, the range ElevenLabs documents",
  },
} as const;

/** Rules that come from the platform's public docs, not the spec: said, never enforced. */
function voiceWarnings(inputs: VoiceInputs): string[] {
  const { says, minNameLength, providerTypes, ranges } = VOICE_WARNINGS;
  const warnings: string[] = [];
  const at = `Voice ${JSON.stringify(inputs.name)}`;
  const say = (template: string, values: Record<string, string | number> = {}) =>
    warnings.push(filledIn(template, { at, ...values }));
  if (typeof inputs.name === "string" && inputs.name.length < minNameLength)
    say(says.shortName, { name: inputs.name, min: minNameLength });
  if (
    inputs.providerType !== undefined &&
    !(providerTypes as readonly string[]).includes(inputs.providerType)
  )
    say(says.providerType, { value: inputs.providerType, known: providerTypes.join(", ") });
  for (const [key, [min, max]] of Object.entries(ranges)) {
    const value = inputs[key as keyof typeof ranges];
    if (typeof value === "number" && (value < min || value > max))
      say(says.outOfRange, { key, value, min, max });
  }
  return warnings;
}

/** Locale case fixed (locales are a set: sorted by their fact). */
function normalizeLocales(news: Inputs): Inputs {
  const locales = news.supportedLocales;
  return Array.isArray(locales) &&
    !containsUnknown(locales) &&
    locales.every((l) => typeof l === "string")
    ? { ...news, supportedLocales: locales.map(normalizeLocale) }
    : news;
}

/**
 * The clone form (section 4.1), fields named and ordered as the inputs' wire facts say: values
 * as text (locales as one JSON-encoded field), then the samples, read from disk only while the
 * form is sent.
 */
export function toCloneForm(inputs: VoiceInputs, samples: readonly SampleUpload[]): MultipartForm {
  const form = new MultipartForm();
  const values = inputs as Record<string, unknown>;
  for (const [key, field] of Object.entries(voiceFields.shape)) {
    const name = wireName(field, "clone");
    const value = values[key];
    if (name === undefined || value === undefined) continue;
    if (key === "files") for (const sample of samples) form.append(name, sample);
    else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
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
  return requestBody(voiceFields, inputs, {
    call: "update",
    keep: (key) => !ignored.some((pattern) => pathContains(pattern, [key])),
  });
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
  clonedVoices: readonly ApiVoice[] | VoiceState["clonedVoices"],
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
    // The platform's answers as it gave them; the output schema types the keys the spec shows.
    settings: settings as VoiceState["settings"],
    ttsClient: voice.ttsClient,
    clonedVoices: clonedVoices as VoiceState["clonedVoices"],
    samples,
  };
}

/** Reads any stored shape this package ever wrote. */
function readVoiceState(olds: Inputs): VoiceState {
  return { clonedVoices: [], samples: [], ...storedState(olds) } as unknown as VoiceState;
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
  context: ProviderContext,
  id: string,
  inputs: VoiceInputs,
  operation: string,
  body: Record<string, unknown> = toUpdateBody(inputs),
): Promise<ApiVoice> {
  const response = await context.request({
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
  const files = news[SAMPLE_CHECK.field];
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
      failures.push({
        property: `${SAMPLE_CHECK.field}[${index}]`,
        reason: withShortPath(problem, path),
      });
    }
  });
  files.forEach((file, index) => {
    if (isAsset(file) && !isFileAsset(file)) {
      failures.push({
        property: `${SAMPLE_CHECK.field}[${index}]`,
        reason: SAMPLE_CHECK.otherAsset,
      });
    }
  });
  return failures;
}

async function diff(
  _context: ProviderContext,
  _id: string,
  olds: Inputs,
  news: Inputs,
  plan: DiffPlan,
): Promise<DiffAnswer> {
  const stored = readVoiceState(olds);
  const files = news.files;
  // Samples compare by content, as a set: the same path with new audio is a new voice, the same
  // audio in another order is not.
  const newFiles =
    Array.isArray(files) && !containsUnknown(files)
      ? (await Promise.all((files as SampleInput[]).map(sampleHash))).sort()
      : files;
  const oldFiles =
    stored.samples.length > 0
      ? stored.samples.map((sample) => sample.sha256).sort()
      : await unrecordedSampleHashes(stored.files);
  return diffInputs({ ...stored, files: oldFiles }, { ...news, files: newFiles }, plan);
}

/*
 * A state that declares files but records no samples was not finished by this provider: a create
 * that failed after the clone, or an import file's outputs (CLI 3.254 and later record those
 * without a call). Its files are described as they are now, as an import's are; one that cannot
 * be (gone from disk, or a FileAsset without its hash) leaves them all undescribed, as before,
 * so the declared ones count as new.
 */

/** The sha256s of such a state's files, sorted; a diff's FileAsset has its hash and no path. */
async function unrecordedSampleHashes(files: VoiceState["files"]): Promise<string[] | undefined> {
  if (files === undefined) return undefined;
  return Promise.all(files.map(sampleHash)).then(
    (hashes) => hashes.sort(),
    () => [],
  );
}

/** The samples a stored state records, or its files described as they are now. */
async function recordedSamples(stored: VoiceState): Promise<SampleFacts[]> {
  if (stored.samples.length > 0 || stored.files === undefined) return stored.samples;
  return Promise.all(stored.files.map(describeSample)).catch(() => []);
}

/** A clone, or the adoption of the voice `existingVoiceId` names. */
async function create(
  context: ProviderContext,
  inputs: VoiceInputs,
  options: CallOptions = {},
): Promise<{ id: string; state: VoiceState }> {
  if (inputs.existingVoiceId !== undefined) {
    return adoptVoice(context, inputs, inputs.existingVoiceId, options);
  }
  const samples = await openSamples(inputs);
  const voices = await cloneVoice(context, inputs, samples);
  const voice = pickCreatedVoice(voices, inputs.name)!;
  const state = await stateOfCreated(
    voice.id,
    { ...inputs, voiceId: voice.voiceId, clonedVoices: voices },
    async () =>
      toVoiceState(inputs, voice, voices, await Promise.all(samples.map((s) => s.facts()))),
  );
  if (inputs.isMultilingual === undefined) return { id: voice.id, state };
  return { id: voice.id, state: await setMultilingual(context, inputs, voice, state) };
}

/** Adopting sets what the program declares and does not ignore; with nothing left, no call. */
async function adoptVoice(
  context: ProviderContext,
  inputs: VoiceInputs,
  existing: string,
  options: CallOptions,
): Promise<{ id: string; state: VoiceState }> {
  const body = toUpdateBody(inputs, options.ignoreChanges);
  if (Object.keys(body).length === 0) {
    return { id: existing, state: toVoiceState(inputs, { id: existing }, [], []) };
  }
  const voice = await putVoice(
    context,
    existing,
    inputs,
    `adopt ${label(inputs)} (${existing})`,
    body,
  );
  return { id: voice.id, state: toVoiceState(inputs, voice, [], []) };
}

/** The samples, opened before anything is sent: one gone or unreadable since check says so. */
function openSamples(inputs: VoiceInputs): Promise<SampleUpload[]> {
  return Promise.all((inputs.files ?? []).map(SampleUpload.open)).catch(
    (error: NodeJS.ErrnoException) => {
      throw new InputError(
        `clone ${label(inputs)}: a sample cannot be read (${error.code ?? error.message}${error.path ? `: ${error.path}` : ""}), ` +
          "so nothing was sent. Fix the file and run `pulumi up` again",
        { cause: error },
      );
    },
  );
}

/** The clone call (section 4.1): every voice its answer holds. */
async function cloneVoice(
  context: ProviderContext,
  inputs: VoiceInputs,
  samples: SampleUpload[],
): Promise<ApiVoice[]> {
  const totalBytes = samples.reduce((sum, sample) => sum + sample.size, 0);
  const response = await context.request({
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
  return response.body;
}

/** The clone form has no isMultilingual: the new voice gets it with an update right after. */
async function setMultilingual(
  context: ProviderContext,
  inputs: VoiceInputs,
  voice: ApiVoice,
  cloned: VoiceState,
): Promise<VoiceState> {
  try {
    const updated = await putVoice(
      context,
      voice.id,
      inputs,
      `set isMultilingual on the new ${label(inputs)} (${voice.id})`,
    );
    return toVoiceState(inputs, updated, cloned.clonedVoices, cloned.samples);
  } catch (error) {
    // Record what the platform has, so the next update retries the PUT instead of cloning again.
    throw new IncompleteCreateError(
      voice.id,
      { ...cloned, isMultilingual: voice.isMultilingual },
      error as Error,
    );
  }
}

async function update(
  context: ProviderContext,
  id: string,
  olds: Inputs,
  inputs: VoiceInputs,
  options: CallOptions = {},
): Promise<VoiceState> {
  const stored = readVoiceState(olds);
  const body = toUpdateBody(inputs, options.ignoreChanges);
  const samples = await recordedSamples(stored);
  const voice = await putVoice(context, id, inputs, `update ${label(inputs)} (${id})`, body);
  return toVoiceState(inputs, voice, stored.clonedVoices, samples);
}

/**
 * The platform's own fields are unknown without a call: the next update brings them in. The
 * samples are described from the files, so a diff against the same files shows no change.
 */
async function stateAfterCreate(id: string, inputs: VoiceInputs): Promise<VoiceState> {
  const samples =
    inputs.existingVoiceId === undefined
      ? await Promise.all((inputs.files ?? []).map(describeSample))
      : [];
  return toVoiceState(inputs, { id }, [], samples);
}

export const voice = defineResource({
  type: "Voice",
  summary: "A voice cloned from audio samples, or an existing voice adopted with existingVoiceId.",
  importId:
    "the voice record's `id` (the one the update path takes): `pulumi import voiceplatform:index:Voice support-voice <id>`",
  example: {
    title: "A voice cloned from two samples",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import * as voiceplatform from "pulumi-voice-platform-sdk";

const voice = new voiceplatform.Voice("support-voice", {
    name: "Support agent",
    supportedLocales: ["en-US", "es-ES"],
    stability: 0.5,
    files: ["samples/greeting.wav", new pulumi.asset.FileAsset("samples/closing.wav")],
});
export const voiceId = voice.voiceId;`,
    python: `import pulumi
import pulumi_voiceplatform as voiceplatform

voice = voiceplatform.Voice("support-voice",
    name="Support agent",
    supported_locales=["en-US", "es-ES"],
    stability=0.5,
    files=["samples/greeting.wav", pulumi.FileAsset("samples/closing.wav")])
pulumi.export("voiceId", voice.voice_id)`,
    go: `voice, err := voiceplatform.NewVoice(ctx, "support-voice", &voiceplatform.VoiceArgs{
	Name:             pulumi.String("Support agent"),
	SupportedLocales: pulumi.StringArray{pulumi.String("en-US"), pulumi.String("es-ES")},
	Stability:        pulumi.Float64(0.5),
	Files:            pulumi.Array{pulumi.String("samples/greeting.wav"), pulumi.NewFileAsset("samples/closing.wav")},
})
if err != nil {
	return err
}
ctx.Export("voiceId", voice.VoiceId)
return nil`,
    yaml: `resources:
  support-voice:
    type: voiceplatform:index:Voice
    properties:
      name: Support agent
      supportedLocales: [en-US, es-ES]
      stability: 0.5
      files:
        - samples/greeting.wav
        - fn::fileAsset: samples/closing.wav
outputs:
  voiceId: \${support-voice.voiceId}`,
  },
  inputSchema: VoiceInputs,
  outputSchema: VoiceOutputs,
  warnings: voiceWarnings,
  moreFailures: sampleFailures,
  normalize: normalizeLocales,
  diff,
  create,
  update,
  delete: async (context, id, olds, deleted) =>
    warnStaysOnPlatform(context.log, `${label(olds)} (${id})`, deleted),
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
});
