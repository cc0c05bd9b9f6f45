/**
 * Canonical comparison of stored state with new inputs, shared by every resource's diff, and the
 * answer in the form the engine's `DiffResponse` takes: the changed inputs, and a detailed diff
 * (kind per property path, replace or not) from which the engine applies `replaceOnChanges` and
 * shows the user why a resource changes. Paths name properties, never values: a changed secret is
 * shown by its name.
 */
import { containsUnknown } from "./engine-values";
import type { Inputs } from "./property-bag";
import { formatPath, parsePath, pathContains, type PathSegment } from "./property-path";

export type DiffKind = "add" | "update" | "delete";

/** One changed property: how, and whether the change needs a new object. */
export interface PropertyDiff {
  readonly kind: DiffKind;
  readonly replace: boolean;
}

export interface DiffAnswer {
  readonly changes: boolean;
  /** Top-level inputs whose change needs a new object. */
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
  /** Top-level inputs that changed. */
  readonly diffs: string[];
  /** What changed, by property path (`name`, `advancedWebhook.method`). */
  readonly detailedDiff: Readonly<Record<string, PropertyDiff>>;
}

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

/** The answer for these changed paths: the changed and replaced inputs follow from them. */
export function diffAnswer(detailedDiff: Readonly<Record<string, PropertyDiff>>): DiffAnswer {
  const topOf = (path: string) => String(parsePath(path)?.[0] ?? path);
  const entries = Object.entries(detailedDiff);
  const unique = (keys: string[]) => [...new Set(keys)];
  return {
    changes: entries.length > 0,
    replaces: unique(entries.filter(([, diff]) => diff.replace).map(([path]) => topOf(path))),
    deleteBeforeReplace: false,
    diffs: unique(entries.map(([path]) => topOf(path))),
    detailedDiff,
  };
}

export const NO_CHANGES: DiffAnswer = diffAnswer({});

/** Compares stored outputs with new inputs; always a yes or a no, never "unknown". */
export function diffInputs(olds: object, news: Inputs, plan: DiffPlan): DiffAnswer {
  const detailed: Record<string, PropertyDiff> = {};
  for (const key of plan.keys) {
    const next = news[key];
    if (plan.optionalInPlaceKeys?.has(key) && (next === undefined || next === null)) continue;
    const previous = (olds as Inputs)[key];
    const replace = plan.replaceKeys.has(key);
    if (containsUnknown(next)) {
      detailed[formatPath([key])] = { kind: isAbsent(previous) ? "add" : "update", replace };
      continue;
    }
    const whole = plan.setKeys.has(key);
    const [before, after] = whole ? [asSet(previous), asSet(next)] : [previous, next];
    if (canonical(before) === canonical(after)) continue;
    for (const [path, kind] of changedPaths([key], before, after)) {
      detailed[formatPath(path)] = { kind, replace };
    }
  }
  return diffAnswer(detailed);
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The paths at which two values differ: objects are followed field by field; anything else
 * (lists, strings, assets) changes as a whole, at its own path.
 */
function changedPaths(
  path: PathSegment[],
  before: unknown,
  after: unknown,
): [PathSegment[], DiffKind][] {
  if (isAbsent(before)) return [[path, "add"]];
  if (isAbsent(after)) return [[path, "delete"]];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys
      .filter((key) => canonical(before[key]) !== canonical(after[key]))
      .flatMap((key) => changedPaths([...path, key], before[key], after[key]));
  }
  return [[path, "update"]];
}

function asSet(value: unknown): unknown {
  return Array.isArray(value) ? sortedSet(value) : value;
}

/** Paths as the program wrote them; the ones that do not parse match nothing. */
function parsedPaths(paths: readonly string[]): PathSegment[][] {
  return paths.map(parsePath).filter((path): path is PathSegment[] => path !== undefined);
}

function matchesAny(patterns: readonly PathSegment[][], path: string): boolean {
  const parsed = parsePath(path);
  return parsed !== undefined && patterns.some((pattern) => pathContains(pattern, parsed));
}

/** The answer without the changes `ignoreChanges` names: those are treated as unchanged. */
export function withoutIgnored(answer: DiffAnswer, ignoreChanges: readonly string[]): DiffAnswer {
  const patterns = parsedPaths(ignoreChanges);
  if (patterns.length === 0) return answer;
  return keepDeleteBeforeReplace(
    answer,
    diffAnswer(
      Object.fromEntries(
        Object.entries(answer.detailedDiff).filter(([path]) => !matchesAny(patterns, path)),
      ),
    ),
  );
}

/** The answer with every change `replaceOnChanges` names turned into a replacement. */
export function withReplaceOnChanges(
  answer: DiffAnswer,
  replaceOnChanges: readonly string[],
): DiffAnswer {
  const patterns = parsedPaths(replaceOnChanges);
  if (patterns.length === 0) return answer;
  return keepDeleteBeforeReplace(
    answer,
    diffAnswer(
      Object.fromEntries(
        Object.entries(answer.detailedDiff).map(([path, diff]) => [
          path,
          matchesAny(patterns, path) ? { ...diff, replace: true } : diff,
        ]),
      ),
    ),
  );
}

function keepDeleteBeforeReplace(from: DiffAnswer, to: DiffAnswer): DiffAnswer {
  return { ...to, deleteBeforeReplace: from.deleteBeforeReplace };
}
