/**
 * Everything a provider keeps between calls, and its one reset. The engine runs many resource
 * operations through one provider, and they share what earlier calls learned: the settings
 * `configure` was given, the connection pool, the pacing learned from 429s, the secrets to keep
 * out of messages, the sample hashes already computed, the warnings already said. Each concern
 * keeps its state in a slot of its own module, on its own floor (`stateSlot`), and a slot is read
 * with the states of the provider it is for: a call's context carries them
 * (core/provider-context.ts), with the provider's settings (`providerSettings`) and lifetime
 * (`providerLifetime`).
 *
 * A process serves one provider, except the plugin's shared server (provider/plugin/
 * shared-server.ts), which serves every provider of one engine run, each with states of its own.
 * Its calls also run inside `withProviderStates`, for the slots still read without states (the
 * secrets redaction searches for and the sample hashes, see call-context.ts); anywhere else such
 * a slot answers the process's own.
 *
 * A provider's lifetime is one of its states too: the engine's Cancel stops it starting calls, and
 * ending it (the shared server, when the engine lets go of the provider) also cuts those in flight.
 */
import { callValue } from "./call-context";
import { freshSettingsSource, type SettingsSource } from "./settings-state";

/** One provider's states, by slot, each with what lets go of what it holds open: made on first use. */
export type ProviderStates = Map<object, HeldState>;

interface HeldState {
  readonly state: unknown;
  readonly close: () => void | Promise<void>;
}

const processStates: ProviderStates = new Map();

/**
 * The states of the process's own provider: the plugin serving one provider, or the dynamic
 * provider, whose runtime entry Pulumi loads once per process and calls without a context.
 */
export function processProviderStates(): ProviderStates {
  return processStates;
}

/** The states of the provider whose call is running: the process's own outside the shared server. */
const runningProvider = callValue(processStates);

function runningStates(): ProviderStates {
  return runningProvider.current();
}

/** The state `slot` holds in `states`, made fresh on first use. */
function heldIn<T>(
  states: ProviderStates,
  slot: object,
  fresh: () => T,
  close?: (state: T) => void | Promise<void>,
): T {
  let held = states.get(slot);
  if (held === undefined) {
    const state = fresh();
    held = { state, close: () => close?.(state) };
    states.set(slot, held);
  }
  return held.state as T;
}

/**
 * A concern's state: the function answers the state of the provider owning `states`, made fresh
 * on first use; called without them, the running provider's (see `withProviderStates`).
 */
export function stateSlot<T>(
  fresh: () => T,
  close?: (state: T) => void | Promise<void>,
): (states?: ProviderStates) => T {
  const slot = {};
  return (states = runningStates()) => heldIn(states, slot, fresh, close);
}

/** Runs `work` (and all it starts) as a call of the provider owning `states`. */
export function withProviderStates<R>(states: ProviderStates, work: () => R): R {
  return runningProvider.runWith(states, work);
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

/** Whether a provider's calls may still start, and whether those in flight may finish. */
export interface ProviderLifetime {
  /** Aborted by the engine's Cancel, or when the provider ends: no call starts after it. */
  readonly stopped: AbortSignal;
  /** Aborted when the provider ends: the engine records nothing more, so calls in flight end too. */
  readonly ended: AbortSignal;
}

interface LifetimeControl {
  readonly stop: AbortController;
  readonly end: AbortController;
}

const lifetimeSlot = {};

function lifetimeIn(states: ProviderStates): LifetimeControl {
  return heldIn(states, lifetimeSlot, () => ({
    stop: new AbortController(),
    end: new AbortController(),
  }));
}

/** The lifetime of the provider owning `states`. */
export function providerLifetime(states: ProviderStates): ProviderLifetime {
  const { stop, end } = lifetimeIn(states);
  return { stopped: stop.signal, ended: end.signal };
}

/**
 * The engine's Cancel: the provider owning `states` starts no call from now on; those in flight
 * finish.
 */
export function cancelProviderCalls(states: ProviderStates): void {
  lifetimeIn(states).stop.abort(new Error("the engine cancelled the provider's calls"));
}

const settingsSlot = {};

/**
 * Where the provider owning `states` reads its settings from: what its `configure` was given
 * (config.ts's `rememberEngineConfig`, `rememberProviderSettings`), and the last settings parsed.
 */
export function providerSettings(states: ProviderStates): SettingsSource {
  return heldIn(states, settingsSlot, freshSettingsSource);
}

/**
 * Ends the provider owning `states`: its calls in flight are cut at once, none starts again (its
 * lifetime stays ended in `states`, whatever still runs for it), and its other states are dropped.
 */
export async function endProvider(states: ProviderStates): Promise<void> {
  const lifetime = lifetimeIn(states);
  lifetime.stop.abort(new Error("the engine ended the provider"));
  lifetime.end.abort(new Error("the engine ended the provider"));
  const dropping = dropStates(states);
  states.set(lifetimeSlot, { state: lifetime, close: () => undefined });
  await dropping;
}

/** Forgets everything the process's own provider learned, at once: for tests and benchmarks. */
export async function resetProcessState(): Promise<void> {
  await dropStates(processStates);
}
