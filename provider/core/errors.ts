/** The core floor's errors, in the package's one hierarchy (rooted in settings/errors.ts). */
import { redactSecrets } from "../platform/redaction";
import { VoicePlatformError } from "../settings/errors";
import { INCOMPLETE_CREATE } from "./hidden-properties";
import { withoutUndefined } from "./serializable";

/**
 * The platform created an object and a later step failed. The engine reads `id`, `properties`
 * and `reasons` from a create's (or an update's) error and records the resource with that state,
 * so the object is neither lost nor created again. `cause` is the step's own error: an `ApiError`, with its
 * request's facts, when the step was a call to the platform.
 */
export class IncompleteCreateError extends VoicePlatformError {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: Error) {
    // This package's messages hold no secret value; another error's may quote one.
    const failure =
      cause instanceof VoicePlatformError ? cause.message : redactSecrets(cause.message);
    const reason =
      `created ${id} on the platform, then: ${failure}. The resource is recorded in the ` +
      `stack; the next \`pulumi up\` finishes it`;
    super(reason, { cause });
    this.id = id;
    this.properties = { ...withoutUndefined(properties), [INCOMPLETE_CREATE]: true };
    this.reasons = [reason];
  }
}
