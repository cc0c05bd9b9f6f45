/**
 * Once the platform has answered a create, the object exists: whatever fails after that (the
 * follow-up update, re-reading samples, mapping the answer) must still hand the engine its id, or
 * the next `pulumi up` creates it again (`IncompleteCreateError`, core/errors.ts).
 *
 * The engine finishes such an object with an update: the next `pulumi up` does, and on newer
 * engines (CLI 3.274.1 does, pulumi/pulumi#24684) the same run does too when an `onError` hook asks
 * for a retry: it calls Update with the recorded id and state instead of Create. An update that
 * fails there must hand the id back again, or that engine drops the object from the stack: the
 * state carries `INCOMPLETE_CREATE` (hidden-properties.ts) until an update finishes it, and served-resource.ts answers a
 * failed update of such a state with this error again.
 */
import { IncompleteCreateError } from "./errors";

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
