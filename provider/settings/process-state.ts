/**
 * Everything a provider keeps between calls, and its one reset. The engine runs many resource
 * operations through one provider, and they share what earlier calls learned: the settings
 * `configure` was given, the connection pool, the pacing learned from 429s, the secrets to keep
 * out of messages, the sample hashes already computed, the warnings already said. Each concern
 * keeps its state in a slot of its own module, on its own floor (`stateSlot`).
 *
 * A process serves one provider, except the plugin's shared server (provider/plugin/
 * shared-server.ts), which serves every provider of one engine run, each with states of its own:
 * its calls run inside `withProviderStates`, and a slot answers the state of the provider whose
 * call is running. Anywhere else a slot answers the process's own.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One provider's states, by slot, each with what lets go of what it holds open: made on first use. */
export type ProviderStates = Map<object, HeldState>;

interface HeldState {
  readonly state: unknown;
  readonly close: () => void | Promise<void>;
}

const processStates: ProviderStates = new Map();

// Made with the first shared call: the single executable's startup snapshot holds this module,
// and async context made while a snapshot is built is not carried into the process.
let scope: AsyncLocalStorage<ProviderStates> | undefined;

/** A concern's state: the function answers the running provider's, made fresh on first use. */
export function stateSlot<T>(fresh: () => T, close?: (state: T) => void | Promise<void>): () => T {
  const slot = {};
  return () => {
    const states = scope?.getStore() ?? processStates;
    let held = states.get(slot);
    if (held === undefined) {
      const state = fresh();
      held = { state, close: () => close?.(state) };
      states.set(slot, held);
    }
    return held.state as T;
  };
}

/** Runs `work` (and all it starts) as a call of the provider owning `states`. */
export function withProviderStates<R>(states: ProviderStates, work: () => R): R {
  scope ??= new AsyncLocalStorage<ProviderStates>();
  return scope.run(states, work);
}

/**
 * Drops every state in `states`, as a new provider would start; calls in flight finish on the old
 * connections, which close once they are done, and the promise resolves then.
 */
export async function dropStates(states: ProviderStates): Promise<void> {
  const held = [...states.values()];
  states.clear();
  await Promise.all(held.map((state) => state.close()));
}

/** Forgets everything the process's own provider learned, at once: for tests and benchmarks. */
export async function resetProcessState(): Promise<void> {
  await dropStates(processStates);
}
