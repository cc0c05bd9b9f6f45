/**
 * The two properties a dynamic resource's state carries beside its declared inputs and outputs:
 * `__provider`, where the engine keeps the serialized provider, and `__resource`, what the
 * resource classes tell the provider about the resource. The dynamic front end sets them; every
 * reader of its states (the handlers, recover, rekey) takes them off and puts them back with these.
 * And, for both front ends, the mark of a partly created resource's state.
 */
import type { Inputs } from "./property-bag";

/** Where the engine keeps the serialized provider, in inputs and outputs alike. */
export const PROVIDER_KEY = "__provider";

/** Where the classes put what the provider learns of the resource beside its inputs. */
export const RESOURCE_KEY = "__resource";

/** The declared properties alone. */
export function withoutProvider(bag: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, [RESOURCE_KEY]: _resource, ...rest } = bag;
  return rest;
}

/**
 * The bag's own `__provider` and `__resource`, to hand back to the engine: what a dynamic
 * resource's outputs carry beside its state (recover writes them too).
 */
export function hidden(bag: Inputs): Inputs {
  const kept: Inputs = {};
  for (const key of [PROVIDER_KEY, RESOURCE_KEY]) if (bag[key] !== undefined) kept[key] = bag[key];
  return kept;
}

/**
 * Marks the state of an object whose create failed after the platform made it, until an update
 * finishes it. Internal (`__`): the engine shows it nowhere.
 */
export const INCOMPLETE_CREATE = "__incompleteCreate";

/** Whether a stored state is that of a create the platform answered and that then failed. */
export const isIncompleteCreate = (state: Record<string, unknown>): boolean =>
  state[INCOMPLETE_CREATE] === true;
