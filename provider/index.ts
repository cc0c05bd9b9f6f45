// The resource classes and their output types, and the XArgs types: generated from the list of
// descriptors (provider/resources) by `npm run args`.
export * from "./dynamic/generated/resources";
export type * from "./dynamic/generated/args";
export type {
  /** The name of a header's or parameter's type in the first release. */
  WebhookHeaderArgs as WebhookPairArgs,
} from "./dynamic/generated/args";
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
export { IncompleteCreateError } from "./core/errors";
export { StackCommandError } from "./cli/errors";
