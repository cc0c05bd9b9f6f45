export { Voice, type VoiceArgs } from "./voice";
export {
  SipCarrier,
  type SipCarrierArgs,
  type SipGatewayArgs,
  type SipPhoneNumberArgs,
} from "./sip-carrier";
export {
  CampaignWebhook,
  webhookEvents,
  type CampaignWebhookArgs,
  type AdvancedWebhookArgs,
  type WebhookPairArgs,
  type WebhookEvent,
} from "./campaign-webhook";
export { ApiError } from "./api-error";
export { IncompleteCreateError } from "./incomplete-create-error";
