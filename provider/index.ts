export { Voice, type VoiceArgs } from "./resources/voice";
export {
  SipCarrier,
  type SipCarrierArgs,
  type SipGatewayArgs,
  type SipPhoneNumberArgs,
} from "./resources/sip-carrier";
export {
  CampaignWebhook,
  webhookEvents,
  type CampaignWebhookArgs,
  type AdvancedWebhookArgs,
  type WebhookPairArgs,
  type WebhookEvent,
} from "./resources/campaign-webhook";
export { ApiError } from "./platform/api-error";
export { IncompleteCreateError } from "./platform/incomplete-create-error";
