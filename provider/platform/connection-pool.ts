/**
 * The connections every call of a provider shares: the HTTP client library, the pool sized for
 * the calls in flight, the process-wide cap on those calls, and the pacing learned from 429s.
 */
import type { Agent } from "undici";
import { stateSlot, type ProviderStates } from "../settings/process-state";
import { ConcurrencyLimit } from "./concurrency-limit";
import { Pacer } from "./rate-pacer";

interface Pool {
  /** The connection pool, sized for `connections` at once. */
  agent: { readonly dispatcher: Agent; readonly connections: number } | undefined;
  limit: ConcurrencyLimit | undefined;
  readonly pacer: Pacer;
}

function fresh(): Pool {
  return { agent: undefined, limit: undefined, pacer: new Pacer() };
}

// Calls in flight finish on the old connections, which close once they are done.
const pool = stateSlot(fresh, (dropped) => dropped.agent?.dispatcher.close());

let loadedUndici: typeof import("undici") | undefined;

/**
 * The HTTP client library, loaded with the first call: a program and a preview never make one,
 * and undici takes ~80 ms to load. A loaded module, not state: no reset clears it.
 */
export function undici(): typeof import("undici") {
  loadedUndici ??= require("undici") as typeof import("undici");
  return loadedUndici;
}

/**
 * Connections for `connections` calls at once. A new count (maxConcurrency changed) opens a new
 * pool; the old one finishes the calls it carries and closes.
 */
export function sharedAgent(connections: number, states: ProviderStates): Agent {
  const current = pool(states).agent;
  if (current?.connections === connections) return current.dispatcher;
  const dispatcher = new (undici().Agent)({
    connections,
    keepAliveTimeout: 30_000,
    // Deadlines come from a timer per attempt, which fires on time; undici's own timers are coarse.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  pool(states).agent = { dispatcher, connections };
  void current?.dispatcher.close();
  return dispatcher;
}

/** The process-wide cap on calls in flight, following the current maxConcurrency. */
export function sharedLimit(maxConcurrency: number, states: ProviderStates): ConcurrencyLimit {
  const shared = pool(states);
  if (shared.limit === undefined) shared.limit = new ConcurrencyLimit(maxConcurrency);
  else if (shared.limit.limit !== maxConcurrency) shared.limit.setLimit(maxConcurrency);
  return shared.limit;
}

/** The pacing every call of the provider owning `states` starts its attempts by. */
export function sharedPacer(states: ProviderStates): Pacer {
  return pool(states).pacer;
}
