/**
 * A stand-in for the platform inside a unit test: it answers the four operations of the API
 * contract as tersely as the contract shows them (a Voice object's eight fields with `settings`
 * holding `stability` and `style`, a carrier's `{id}`, a subscription's `{status, data}`), from
 * the request bodies the provider would send, with ids in the platform's formats. Nothing is
 * sent anywhere and nothing is kept: each answer is made up when asked for.
 */
import { randomBytes } from "node:crypto";
import { requestBody } from "../core/field-facts";
import { madeUpDefaults } from "./mock-facts";
import { toUpdateBody, voice, type toVoiceState, type VoiceInputs } from "../resources/voice";

/** A Voice object of the contract (section 2.1), as the clone and the update answer it. */
export type AnsweredVoice = Parameters<typeof toVoiceState>[1];

const DEFAULT_PROVIDER_TYPE = madeUpDefaults.providerType;
const DEFAULT_STABILITY = madeUpDefaults.stability;
const DEFAULT_STYLE = madeUpDefaults.style;

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
