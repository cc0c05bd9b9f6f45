/**
 * Once the platform has answered a create, the object exists: whatever fails after that (the
 * follow-up update, re-reading samples, mapping the answer) must still hand the engine its id, or
 * the next `pulumi up` creates it again.
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
