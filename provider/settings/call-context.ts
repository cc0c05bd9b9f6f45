/**
 * What a call carries into everything it starts, in one AsyncLocalStorage: the states of the
 * provider the call is for (process-state.ts), the values the user marked secret on its inputs
 * (platform/marked-secrets.ts) and the resource it concerns (core/provider-log.ts). Each floor
 * adds what it knows under a key of its own (`callValue`), so this floor knows none of them. A
 * value set for a call holds in all it starts, until a call inside sets that key again.
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
