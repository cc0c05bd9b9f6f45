export { Voice, SipCarrier, CampaignWebhook } from "./dynamic/resources";
export type { VoiceArgs } from "./resources/voice";
export type { SipCarrierArgs, SipGatewayArgs, SipPhoneNumberArgs } from "./resources/sip-carrier";
export {
  webhookEvents,
  type CampaignWebhookArgs,
  type AdvancedWebhookArgs,
  type WebhookPairArgs,
  type WebhookEvent,
} from "./resources/campaign-webhook";
export {
  VoicePlatformError,
  ApiError,
  ApiStatusError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  ApiConnectionError,
  ApiTimeoutError,
  ApiResponseError,
  IncompleteCreateError,
  ConfigurationError,
  InputError,
  StackCommandError,
  UnsafePathError,
} from "./platform/errors";
