/**
 * What each resource's create stores, given the made-up platform's answers instead of the real
 * platform's: the same calls in the same order as the resource's `create`, and the very functions
 * it builds its state with (toVoiceState, the carrier's stateAfterCreate, subscribedState).
 * test/provider/mocks-match-create.test.ts holds these states against the real creates' against
 * the emulator, so the two cannot drift apart.
 */
import { describeSample } from "../platform/sample-files";
import type { Inputs } from "../core/resource-descriptor";
import type { ResourceKind } from "../resources";
import {
  campaignWebhook,
  CampaignWebhookInputs,
  newWebhookId,
  subscribedState,
} from "../resources/campaign-webhook";
import { sipCarrier, SipCarrierInputs } from "../resources/sip-carrier";
import { pickCreatedVoice, toUpdateBody, toVoiceState, VoiceInputs } from "../resources/voice";
import type { MadeUpPlatform } from "./made-up-platform";

export interface CreatedObject {
  readonly id: string;
  readonly state: object;
}

type MadeUpCreate = (news: Inputs, platform: MadeUpPlatform) => Promise<CreatedObject>;

/** A clone (and the update that sets isMultilingual), or an adoption of existingVoiceId. */
async function createdVoice(news: Inputs, platform: MadeUpPlatform): Promise<CreatedObject> {
  const inputs = VoiceInputs.parse(news);
  const existing = inputs.existingVoiceId;
  if (existing !== undefined) {
    if (Object.keys(toUpdateBody(inputs)).length === 0) {
      return { id: existing, state: toVoiceState(inputs, { id: existing }, [], []) };
    }
    const updated = platform.updateAnswer(existing, inputs);
    return { id: updated.id, state: toVoiceState(inputs, updated, [], []) };
  }
  const voices = platform.cloneAnswer(inputs);
  const created = pickCreatedVoice(voices, inputs.name)!;
  const samples = await Promise.all((inputs.files ?? []).map(describeSample));
  const cloned = toVoiceState(inputs, created, voices, samples);
  if (inputs.isMultilingual === undefined) return { id: created.id, state: cloned };
  const updated = platform.updateAnswer(created.id, inputs, created);
  return {
    id: created.id,
    state: toVoiceState(inputs, updated, cloned.clonedVoices, cloned.samples),
  };
}

/** A new carrier, or one recorded with existingCarrierId (no call). */
async function createdCarrier(news: Inputs, platform: MadeUpPlatform): Promise<CreatedObject> {
  const inputs = SipCarrierInputs.parse(news);
  const id = inputs.existingCarrierId ?? platform.carrierAnswer().id;
  return { id, state: await sipCarrier.stateAfterCreate(id, inputs) };
}

/** A subscription, or one recorded with alreadySubscribed (no call); the id is the provider's. */
async function createdWebhook(news: Inputs, platform: MadeUpPlatform): Promise<CreatedObject> {
  const inputs = CampaignWebhookInputs.parse(news);
  const id = newWebhookId(inputs.campaignId);
  if (inputs.alreadySubscribed === true) {
    return { id, state: await campaignWebhook.stateAfterCreate(id, inputs) };
  }
  return { id, state: subscribedState(inputs, platform.subscribeAnswer()) };
}

/** One per resource kind: a new resource without one does not compile. */
export const madeUpCreates: Readonly<Record<ResourceKind, MadeUpCreate>> = {
  Voice: createdVoice,
  SipCarrier: createdCarrier,
  CampaignWebhook: createdWebhook,
};
