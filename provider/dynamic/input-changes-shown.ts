/**
 * By URN, the declared inputs the last check of a dynamic resource found changed from the stored
 * ones, when its hidden inputs did not change: what the engine's own comparison of inputs, which
 * a diff can leave the details to, would show (dynamic-adapter.ts).
 */
import { stateSlot, type ProviderStates } from "../settings/process-state";

const shown = stateSlot(() => new Map<string, ReadonlySet<string>>());

/** What the provider owning `states` found. */
export function inputChangesShown(states: ProviderStates): Map<string, ReadonlySet<string>> {
  return shown(states);
}
