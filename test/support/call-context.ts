/**
 * A call's context as a front end makes it, for tests calling the descriptors and served
 * resources in process: the process's own provider (what `resetProcessState` forgets), on the
 * resource `urn` when given, printing to the console.
 */
import { providerContext, type ProviderContext } from "../../provider/core/provider-context";
import type { SettingsSource } from "../../provider/settings/settings-state";
import { processProviderStates, providerSettings } from "../../provider/settings/process-state";

export function callContext(urn = ""): ProviderContext {
  return providerContext({ states: processProviderStates(), resource: urn });
}

/** Where the process's own provider reads its settings from. */
export function processSettings(): SettingsSource {
  return providerSettings(processProviderStates());
}
