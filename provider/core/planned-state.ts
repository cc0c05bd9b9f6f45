/**
 * What a create or an update will store, as a preview shows it: the checked inputs, with every
 * output the platform's answer gives left unknown. Computed without a call, because the engine
 * sends `Create` and `Update` during every preview to any provider that answers the handshake,
 * and a preview must never touch the platform.
 */
import { UNKNOWN } from "./engine-values";
import { outputsWrittenBy, type Inputs, type ResourceDescriptor } from "./resource-descriptor";
import { withoutUndefined } from "./serializable";

function unknowns(names: readonly string[]): Inputs {
  return Object.fromEntries(names.map((name) => [name, UNKNOWN]));
}

export function plannedCreateState(descriptor: ResourceDescriptor<object>, news: Inputs): Inputs {
  return { ...withoutUndefined(news), ...unknowns(outputsWrittenBy(descriptor, "create")) };
}

/**
 * The stored outputs an update does not rewrite stay as they are (a voice keeps its id and its
 * samples); the ones its answer gives become unknown.
 */
export function plannedUpdateState(
  descriptor: ResourceDescriptor<object>,
  olds: Inputs,
  news: Inputs,
): Inputs {
  const inputNames = new Set(Object.keys(descriptor.inputSchema.shape));
  const keptOutputs = Object.entries(olds).filter(([name]) => !inputNames.has(name));
  return {
    ...withoutUndefined(Object.fromEntries(keptOutputs)),
    ...withoutUndefined(news),
    ...unknowns(outputsWrittenBy(descriptor, "update")),
  };
}
