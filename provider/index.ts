export { Voice, SipCarrier, CampaignWebhook } from "./dynamic/resources";
export type {
  VoiceArgs,
  SipCarrierArgs,
  SipGatewayArgs,
  SipPhoneNumberArgs,
  CampaignWebhookArgs,
  AdvancedWebhookArgs,
  WebhookHeaderArgs,
  WebhookParameterArgs,
  WebhookEvent,
  /** The name of a header's or parameter's type in the first release. */
  WebhookHeaderArgs as WebhookPairArgs,
} from "./dynamic/args";
export { webhookEvents } from "./resources/campaign-webhook";
export { VoicePlatformError, ConfigurationError } from "./settings/errors";
export {
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
  RequestNotSentError,
  InputError,
  UnsafePathError,
} from "./platform/errors";
export { IncompleteCreateError } from "./core/created-object";
export { StackCommandError } from "./cli/errors";
