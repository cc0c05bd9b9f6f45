import type { Inputs } from "../../provider/core/resource-descriptor";
import { PROVIDER_KEY } from "../../provider/core/hidden-properties";

/** A dynamic provider's property bag as the resource descriptors take it: without `__provider`. */
export function withoutProvider(bag: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, ...inputs } = bag;
  return inputs;
}
