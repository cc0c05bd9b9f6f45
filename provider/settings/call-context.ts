/**
 * The one AsyncLocalStorage left, under one key: the states of the shared server's provider whose
 * call is running (process-state.ts's `withProviderStates`), for the two slots a call's context
 * does not reach yet: the secrets redaction searches texts for (platform/secret-memory.ts, read
 * wherever an error is worded) and the sample hashes (platform/sample-hash-cache.ts). Everything
 * else a call needs (settings, lifetime, marked secrets, log, connections, replacements, ledger)
 * travels by name in its context (core/provider-context.ts). Outside the shared server nothing
 * sets it, and a slot answers the process's own provider.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The running call's values, by key. */
type CallContext = ReadonlyMap<object, unknown>;

// Made with the first call: the single executable's startup snapshot holds this module, and
// async context made while a snapshot is built is not carried into the process.
let context: AsyncLocalStorage<CallContext> | undefined;

/** One key of the call context, and what it answers where no call set it. */
export interface CallValue<T> {
  /** The running call's value. */
  current(): T;
  /** Runs `work`, and all it starts, with `value` for this key. */
  runWith<R>(value: T, work: () => R): R;
}

export function callValue<T>(outside: T): CallValue<T> {
  const key = {};
  return {
    current() {
      const values = context?.getStore();
      return values?.has(key) === true ? (values.get(key) as T) : outside;
    },
    runWith(value, work) {
      context ??= new AsyncLocalStorage<CallContext>();
      return context.run(new Map(context.getStore()).set(key, value), work);
    },
  };
}
