/**
 * Everything the provider process keeps between calls, in one place with one reset. The engine
 * runs many resource operations in one process: they share the settings `configure` was given,
 * the connection pool and its concurrency limit, the pacing learned from 429s, the secrets to
 * keep out of messages, the warnings already said, the sample hashes already computed, and what
 * this run's diffs and checks found.
 */
import type { Agent } from "undici";
import { ConcurrencyLimit } from "../platform/concurrency-limit";
import { Pacer } from "../platform/rate-pacer";

export interface SampleHashEntry {
  /** Size, modification time and inode of the file the entry is for. */
  readonly stamp: string;
  readonly facts: Promise<{
    readonly name: string;
    readonly sha256: string;
    readonly size: number;
  }>;
  /** Set once the hash is known, for callers that cannot wait for it. */
  sha256?: string;
}

interface ProcessState {
  /** What the engine passed to `configure`: stack config with secrets already decrypted. */
  engineConfig: Readonly<Record<string, string | undefined>>;
  /** What the plugin's Configure was given, already checked: these settings are used as they are. */
  givenSettings: Readonly<Record<string, string | number | undefined>>;
  /** The settings last parsed, with the raw values they came from. */
  lastSettings: { readonly raw: string; readonly settings: object } | undefined;
  /** The connection pool, sized for `connections` at once. */
  agent: { readonly dispatcher: Agent; readonly connections: number } | undefined;
  limit: ConcurrencyLimit | undefined;
  pacer: Pacer;
  /** Every secret value seen. */
  readonly secrets: Set<string>;
  /** The forms searched for in texts, case folded, and the same by their first units (built on demand). */
  readonly foldedSecrets: Set<string>;
  secretsByPrefix: Map<string, string[]> | undefined;
  /** Wire fields whose values are secret in any body (`register_password`, `headers[].value`). */
  readonly secretWireFields: Set<string>;
  readonly warningsSaid: Set<string>;
  readonly sampleHashes: Map<string, SampleHashEntry>;
  /** `<type>\0<id>` of each object a diff of this process found must be replaced. */
  readonly replacing: Set<string>;
  /** URNs of the resources this process created an object for (not in a preview). */
  readonly created: Set<string>;
  /**
   * By URN, the declared inputs the last check of a dynamic resource found changed from the stored
   * ones, when its hidden inputs did not change: what the engine's own comparison of inputs, which
   * a diff can leave the details to, would show.
   */
  readonly inputChangesShown: Map<string, ReadonlySet<string>>;
}

function fresh(): ProcessState {
  return {
    engineConfig: {},
    givenSettings: {},
    lastSettings: undefined,
    agent: undefined,
    limit: undefined,
    pacer: new Pacer(),
    secrets: new Set(),
    foldedSecrets: new Set(),
    secretsByPrefix: undefined,
    secretWireFields: new Set(),
    warningsSaid: new Set(),
    sampleHashes: new Map(),
    replacing: new Set(),
    created: new Set(),
    inputChangesShown: new Map(),
  };
}

let state = fresh();

/** The state of this process; modules read and update it, never keep their own. */
export function processState(): ProcessState {
  return state;
}

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
export function sharedAgent(connections: number): Agent {
  const current = state.agent;
  if (current?.connections === connections) return current.dispatcher;
  const dispatcher = new (undici().Agent)({
    connections,
    keepAliveTimeout: 30_000,
    // Deadlines come from a timer per attempt, which fires on time; undici's own timers are coarse.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  state.agent = { dispatcher, connections };
  void current?.dispatcher.close();
  return dispatcher;
}

/** The process-wide cap on calls in flight, following the current maxConcurrency. */
export function sharedLimit(maxConcurrency: number): ConcurrencyLimit {
  if (state.limit === undefined) state.limit = new ConcurrencyLimit(maxConcurrency);
  else if (state.limit.limit !== maxConcurrency) state.limit.setLimit(maxConcurrency);
  return state.limit;
}

/**
 * Forgets everything at once, as a new process would start: for tests and benchmarks. Calls in
 * flight finish on the old connections, which close once they are done; the promise resolves then.
 */
export async function resetProcessState(): Promise<void> {
  const closing = state.agent?.dispatcher;
  state = fresh();
  await closing?.close();
}
