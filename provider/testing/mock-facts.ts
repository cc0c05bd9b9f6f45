/**
 * What the testing entry's made-up platform (provider/testing) answers beyond the requests it is
 * sent, shared with the Python SDK's mocks generated from them (codegen/python-testing.ts): the forms of
 * the ids it makes up, which are the platform's, and the defaults it answers for what a request
 * leaves out, ElevenLabs' (the provider the platform's docs name first).
 */
import { WEBHOOK_ID } from "../resources/campaign-webhook";

export const mockIdFormats = Object.freeze({
  /** A voice record's id, a carrier's id, an organization: a MongoDB ObjectId, 24 hex digits. */
  objectId: /^[0-9a-f]{24}$/,
  /** A voice's id at the synthesis provider: 20 letters and digits, as ElevenLabs gives them. */
  providerVoiceId: /^[A-Za-z0-9]{20}$/,
  /** A webhook's id, which the provider makes up: `<campaignId>/<UUID>`. */
  webhookId: WEBHOOK_ID,
});

export const madeUpDefaults = Object.freeze({
  providerType: "ELEVENLABS",
  stability: 0.5,
  style: 0,
});
