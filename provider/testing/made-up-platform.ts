/**
 * A stand-in for the platform inside a unit test: it answers the four operations of the API
 * contract as tersely as the contract shows them (a Voice object's eight fields with `settings`
 * holding `stability` and `style`, a carrier's `{id}`, a subscription's `{status, data}`), from
 * the request bodies the provider would send, with ids in the platform's formats. Nothing is
 * sent anywhere and nothing is kept: each answer is made up when asked for.
 */
import { randomBytes } from "node:crypto";
import { requestBody } from "../core/field-facts";
import { WEBHOOK_ID } from "../resources/campaign-webhook";
import { toUpdateBody, voice, type toVoiceState, type VoiceInputs } from "../resources/voice";

/** A Voice object of the contract (section 2.1), as the clone and the update answer it. */
export type AnsweredVoice = Parameters<typeof toVoiceState>[1];

/** The forms of the ids the stand-in makes, which are the platform's. */
export const mockIdFormats = Object.freeze({
  /** A voice record's id, a carrier's id, an organization: a MongoDB ObjectId, 24 hex digits. */
  objectId: /^[0-9a-f]{24}$/,
  /** A voice's id at the synthesis provider: 20 letters and digits, as ElevenLabs gives them. */
  providerVoiceId: /^[A-Za-z0-9]{20}$/,
  /** A webhook's id, which the provider makes up: `<campaignId>/<UUID>`. */
  webhookId: WEBHOOK_ID,
});

/** Synthesis defaults of ElevenLabs, the provider the platform's docs name first. */
const DEFAULT_PROVIDER_TYPE = "ELEVENLABS";
const DEFAULT_STABILITY = 0.5;
const DEFAULT_STYLE = 0;

export function newObjectId(): string {
  return randomBytes(12).toString("hex");
}

function newProviderVoiceId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(20), (byte) => alphabet[byte % alphabet.length]).join("");
}

export class MadeUpPlatform {
  constructor(readonly organizationId: string) {}

  /** The clone's answer (section 4.1): a list holding the one new voice, read off the clone form. */
  cloneAnswer(inputs: VoiceInputs): AnsweredVoice[] {
    const form = requestBody(voice.inputSchema, inputs, { call: "clone" }) as unknown as CloneForm;
    const providerType = form.providerType ?? DEFAULT_PROVIDER_TYPE;
    return [
      {
        id: newObjectId(),
        voiceId: newProviderVoiceId(),
        name: form.name,
        organizationId: this.organizationId,
        settings: { stability: form.stability ?? DEFAULT_STABILITY, style: DEFAULT_STYLE },
        isMultilingual: false,
        supportedLocales: form.supportedLocales ?? [],
        ttsClient: providerType.toLowerCase(),
      },
    ];
  }

  /**
   * The update's answer (section 4.2): `current` (the voice as the clone answered it, or one
   * made up for an adopted voice) with the update body applied.
   */
  updateAnswer(id: string, inputs: VoiceInputs, current?: AnsweredVoice): AnsweredVoice {
    const body = toUpdateBody(inputs) as UpdateBody;
    const before = current ?? this.existingVoice(id, inputs.name);
    return {
      ...before,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.isMultilingual !== undefined && { isMultilingual: body.isMultilingual }),
      ...(body.supportedLocales !== undefined && { supportedLocales: body.supportedLocales }),
      settings: {
        stability: body.settings?.stability ?? before.settings?.stability ?? DEFAULT_STABILITY,
        style: before.settings?.style ?? DEFAULT_STYLE,
      },
    };
  }

  /** The carrier create's answer (section 4.3): its id alone. */
  carrierAnswer(): { id: string } {
    return { id: newObjectId() };
  }

  /** The subscribe's answer (section 4.4). */
  subscribeAnswer(): { status: "success"; data: true } {
    return { status: "success", data: true };
  }

  /** A voice the platform already holds, as far as an adoption can tell. */
  private existingVoice(id: string, name: string): AnsweredVoice {
    return {
      id,
      voiceId: newProviderVoiceId(),
      name,
      organizationId: this.organizationId,
      settings: { stability: DEFAULT_STABILITY, style: DEFAULT_STYLE },
      isMultilingual: false,
      supportedLocales: [],
      ttsClient: DEFAULT_PROVIDER_TYPE.toLowerCase(),
    };
  }
}

interface CloneForm {
  name: string;
  providerType?: string;
  stability?: number;
  supportedLocales?: string[];
}

interface UpdateBody {
  name?: string;
  isMultilingual?: boolean;
  supportedLocales?: string[];
  settings?: { stability?: number };
}
