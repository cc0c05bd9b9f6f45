/** Canonical comparison of stored state with new inputs, shared by every resource's diff. */
import { containsUnknown } from "./engine-values";
import type { DiffAnswer, Inputs } from "./resource-descriptor";

/** Canonical text of a value for comparison: object keys sorted, null and undefined alike. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    // fromEntries keeps a `__proto__` key as an own key: assigning it would set the prototype
    // and drop the key from the canonical text.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, (value as Record<string, unknown>)[key]] as const)
        .filter(([, field]) => field !== undefined && field !== null)
        .map(([key, field]) => [key, sortKeys(field)]),
    );
  }
  return value ?? null;
}

/** A list treated as a set: deduplicated and in canonical order. */
export function sortedSet<T>(items: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(canonical(item), item);
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

export interface DiffPlan {
  /** Every input key of the resource. */
  readonly keys: readonly string[];
  /** Keys that cannot change in place. */
  readonly replaceKeys: ReadonlySet<string>;
  /** Lists whose order means nothing. */
  readonly setKeys: ReadonlySet<string>;
  /** Keys where leaving the input out means "keep whatever the platform has". */
  readonly optionalInPlaceKeys?: ReadonlySet<string>;
}

/** Compares stored outputs with new inputs; always a yes or a no, never "unknown". */
export function diffInputs(olds: object, news: Inputs, plan: DiffPlan): DiffAnswer {
  const changed: string[] = [];
  for (const key of plan.keys) {
    const next = news[key];
    if (plan.optionalInPlaceKeys?.has(key) && (next === undefined || next === null)) continue;
    if (containsUnknown(next)) {
      changed.push(key);
      continue;
    }
    const previous = (olds as Inputs)[key];
    const same = plan.setKeys.has(key)
      ? canonical(asSet(previous)) === canonical(asSet(next))
      : canonical(previous) === canonical(next);
    if (!same) changed.push(key);
  }
  return {
    changes: changed.length > 0,
    replaces: changed.filter((key) => plan.replaceKeys.has(key)),
    deleteBeforeReplace: false,
  };
}

function asSet(value: unknown): unknown {
  return Array.isArray(value) ? sortedSet(value) : value;
}
