import type { Caller } from "./auth";
import type { AnswerShape, Voice } from "./control-types";
import { ErrorAnswer } from "./errors";
import { newObjectId, newProviderVoiceId } from "./ids";
import { readMultipartForm } from "./multipart-upload";
import { readLoggedJsonBody, type OperationHandler } from "./operation";
import { requireMediaType } from "./json-body";
import { parseCloneForm, parseVoiceUpdate, type CloneVoiceInput } from "./validate-voice";

/** ElevenLabs' defaults: the provider the platform's docs name first. */
const DEFAULT_PROVIDER_TYPE = "ELEVENLABS";
const DEFAULT_SETTINGS = { stability: 0.5, similarity_boost: 0.75, speed: 1, style: 0 };

export const cloneVoice: OperationHandler = async (request) => {
  requireMediaType(request.req, "multipart/form-data");
  const logged = { fields: {}, files: [] };
  request.logEntry.multipart = logged;
  const input = parseCloneForm(await readMultipartForm(request.req, logged));
  return {
    successStatus: 200,
    commit: () => {
      const voice = newVoice(input, request.caller);
      request.store.saveVoice(voice);
      return [voiceAnswer(voice, request.answers)];
    },
  };
};

export const updateVoice: OperationHandler = async (request) => {
  const id = request.params.id ?? "";
  const existing = request.store.findVoice(request.caller.organization.id, id);
  if (existing === undefined || !visibleTo(existing, request.caller)) {
    throw new ErrorAnswer(404, "voice_not_found", `No voice with id "${id}" in this organization.`);
  }
  const update = parseVoiceUpdate(await readLoggedJsonBody(request));
  return {
    successStatus: 200,
    commit: () => {
      const current = request.store.findVoice(existing.organizationId, existing.id) ?? existing;
      const updated: Voice = {
        ...current,
        ...(update.name !== undefined && { name: update.name }),
        ...(update.isMultilingual !== undefined && { isMultilingual: update.isMultilingual }),
        ...(update.supportedLocales !== undefined && { supportedLocales: update.supportedLocales }),
        settings: { ...current.settings, ...definedEntries(update.settings ?? {}) },
      };
      request.store.saveVoice(updated);
      return voiceAnswer(updated, request.answers);
    },
  };
};

/**
 * A Voice object as spec 2.1 shows it: its eight fields, settings with stability and style only.
 * Extended: everything stored, plus fields no spec names.
 */
export function voiceAnswer(voice: Voice, shape: AnswerShape): Record<string, unknown> {
  if (shape === "extended") {
    return {
      ...voice,
      settings: { ...voice.settings, use_speaker_boost: true },
      createdAt: "2026-01-01T00:00:00.000Z",
      labels: { accent: "neutral" },
    };
  }
  return {
    id: voice.id,
    voiceId: voice.voiceId,
    name: voice.name,
    organizationId: voice.organizationId,
    settings: { stability: voice.settings.stability, style: voice.settings.style },
    isMultilingual: voice.isMultilingual,
    supportedLocales: voice.supportedLocales,
    ttsClient: voice.ttsClient,
  };
}

/** An organization sees all its voices; a sub-organization only its own. */
function visibleTo(voice: Voice, caller: Caller): boolean {
  return caller.subOrganizationId === null || voice.subOrganizationId === caller.subOrganizationId;
}

function newVoice(input: CloneVoiceInput, caller: Caller): Voice {
  const providerType = input.providerType ?? DEFAULT_PROVIDER_TYPE;
  return {
    id: newObjectId(),
    voiceId: newProviderVoiceId(),
    name: input.name,
    description: input.description ?? "",
    organizationId: caller.organization.id,
    subOrganizationId: caller.subOrganizationId,
    providerType,
    settings: {
      stability: input.stability ?? DEFAULT_SETTINGS.stability,
      similarity_boost: input.similarityBoost ?? DEFAULT_SETTINGS.similarity_boost,
      speed: input.speed ?? DEFAULT_SETTINGS.speed,
      style: DEFAULT_SETTINGS.style,
    },
    isMultilingual: false,
    supportedLocales: input.supportedLocales ?? [],
    subAccounts: input.subAccounts ?? false,
    supportsAllLanguages: input.supportsAllLanguages ?? false,
    ttsClient: providerType.toLowerCase(),
    samples: input.files.map(({ filename, size, sha256 }) => ({ filename, size, sha256 })),
  };
}

function definedEntries<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
