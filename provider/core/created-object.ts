/**
 * Once the platform has answered a create, the object exists: whatever fails after that (the
 * follow-up update, re-reading samples, mapping the answer) must still hand the engine its id, or
 * the next `pulumi up` creates it again.
 *
 * The engine finishes such an object with an update: the next `pulumi up` does, and on newer
 * engines (CLI 3.274.1 does, pulumi/pulumi#24684) the same run does too when an `onError` hook asks
 * for a retry: it calls Update with the recorded id and state instead of Create. An update that
 * fails there must hand the id back again, or that engine drops the object from the stack: the
 * state carries `INCOMPLETE_CREATE` until an update finishes it, and served-resource.ts answers a
 * failed update of such a state with this error again.
 */
import { redactSecrets } from "../platform/redaction";
import { VoicePlatformError } from "../settings/errors";
import { withoutUndefined } from "./serializable";

/**
 * Marks the state of an object whose create failed after the platform made it, until an update
 * finishes it. Internal (`__`): the engine shows it nowhere.
 */
export const INCOMPLETE_CREATE = "__incompleteCreate";

/** Whether a stored state is that of a create the platform answered and that then failed. */
export const isIncompleteCreate = (state: Record<string, unknown>): boolean =>
  state[INCOMPLETE_CREATE] === true;

/**
 * The platform created an object and a later step failed. The engine reads `id`, `properties`
 * and `reasons` from a create's (or an update's) error and records the resource with that state,
 * so the object is neither lost nor created again. `cause` is the step's own error: an
 * `ApiError`, with its request's facts, when the step was a call to the platform.
 */
export class IncompleteCreateError extends VoicePlatformError {
  override readonly name: string = "IncompleteCreateError";
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

export async function stateOfCreated<State extends object>(
  id: string,
  known: Record<string, unknown>,
  build: () => State | Promise<State>,
): Promise<State> {
  try {
    return await build();
  } catch (error) {
    throw error instanceof IncompleteCreateError
      ? error
      : new IncompleteCreateError(
          id,
          known,
          error instanceof Error ? error : new Error(String(error)),
        );
  }
}
