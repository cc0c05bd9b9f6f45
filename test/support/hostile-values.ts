/**
 * Hostile values and helpers shared by the property-based tests: wrong types, huge strings,
 * unicode, control characters, CR/LF, own `__proto__`/`constructor` keys, and the engine's
 * unknown-value marker.
 */
import fc from "fast-check";

/** What the engine sends for a value not known yet during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = readonly (string | number)[];

/** 100 KB strings of several kinds. Built once: generating them per run would dominate the time. */
const hugeStrings = [
  "x".repeat(100_000),
  "é".repeat(50_000),
  "👩‍👩‍👧".repeat(10_000),
  "a\r\n".repeat(33_334),
  "\u0000".repeat(100_000),
  "https://hooks.example.com/".padEnd(100_000, "a"),
];

export const hugeString = fc.constantFrom(...hugeStrings);

export const controlString = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
  maxLength: 12,
});

export const unicodeString = fc.string({ unit: "binary", maxLength: 24 });

/** Values that would split or end an HTTP header, or confuse a terminal. */
export const lineBreakString = fc.constantFrom(
  "value\r\nX-Injected: yes",
  "\r\n",
  "a\nb",
  "a\rb",
  "nul\u0000byte",
  "\u2028line separator",
  "\u0085next line",
  "tab\tvalue",
  "trailing newline\n",
);

export const oddString = fc.constantFrom(
  "",
  " ",
  "  padded  ",
  UNKNOWN,
  `${UNKNOWN} `,
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
  "NaN",
  "0",
  "-1",
  "1e309",
  "\u202eRTL override",
  "\ud800",
  "\ufeffBOM",
  "😀",
  "%00",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "${process.env.HOME}",
);

export const oddNumber = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  0,
  -1,
  0.5,
  1.5,
  65535,
  65536,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  Number.MIN_VALUE,
  Number.MAX_VALUE,
);

/** An object with own `__proto__` and `constructor` keys, as JSON.parse makes them. */
export const protoObject = fc
  .jsonValue({ maxDepth: 1 })
  .map(
    (value) =>
      JSON.parse(
        `{"__proto__": ${JSON.stringify(value)}, "constructor": {"prototype": {"polluted": true}}}`,
      ) as Json,
  );

export const hostileString = fc.oneof(
  { arbitrary: unicodeString, weight: 3 },
  { arbitrary: controlString, weight: 2 },
  { arbitrary: lineBreakString, weight: 2 },
  { arbitrary: oddString, weight: 3 },
  { arbitrary: hugeString, weight: 1 },
);

/** Any value the engine could send (JSON plus non-finite numbers), biased towards trouble. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 6 },
  { arbitrary: oddNumber, weight: 2 },
  { arbitrary: fc.constant(UNKNOWN), weight: 2 },
  { arbitrary: fc.constantFrom(null, true, false), weight: 2 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 3 },
  { arbitrary: protoObject, weight: 1 },
  { arbitrary: fc.array(hostileString, { maxLength: 3 }), weight: 1 },
);

/** Keys an attacker or a typo would use. */
export const hostileKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "__provider",
    "",
    " ",
    UNKNOWN,
    "gateways[0]",
    "a.b",
  ),
  unicodeString,
  controlString,
);

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Present and known: not left out, not the unknown marker. */
export const known = (value: unknown): boolean => value !== undefined && value !== UNKNOWN;

/** Sets an own property, even `__proto__`, without invoking any setter. */
export function defineOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A deep copy that keeps own `__proto__` keys as own keys. */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (isRecord(value)) {
    const copy = {};
    for (const key of Object.keys(value)) defineOwn(copy, key, deepCopy(value[key]));
    return copy as T;
  }
  return value;
}

/** Every path to a value inside `root`, the root itself excluded. */
export function allPaths(root: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [];
  if (Array.isArray(root)) {
    root.forEach((item, index) => {
      paths.push([...prefix, index], ...allPaths(item, [...prefix, index]));
    });
  } else if (isRecord(root)) {
    for (const key of Object.keys(root)) {
      paths.push([...prefix, key], ...allPaths(root[key], [...prefix, key]));
    }
  }
  return paths;
}

export function containerPaths(root: unknown): Path[] {
  return [[], ...allPaths(root)].filter((path) => {
    const value = getAt(root, path);
    return isRecord(value) || Array.isArray(value);
  });
}

export function getAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Replaces the value at `path` (which must exist) in place. */
export function setAt(root: unknown, path: Path, value: unknown): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  defineOwn(parent, path[path.length - 1]!, value);
}

export function deleteAt(root: unknown, path: Path): void {
  const parent = getAt(root, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
  else if (isRecord(parent)) delete parent[key];
}

/**
 * Reads a failure's property path back into the value it names: `gateways[0].ipv4`, with
 * `["a.b"]` for keys the plain syntax cannot carry.
 */
export function valueAtProperty(root: unknown, property: string): unknown {
  const segments: (string | number)[] = [];
  const pattern = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/gy;
  while (pattern.lastIndex < property.length) {
    const match = pattern.exec(property);
    if (match === null) return undefined;
    if (match[1] !== undefined) segments.push(Number(match[1]));
    else if (match[2] !== undefined) segments.push(JSON.parse(match[2]) as string);
    else segments.push(match[3]!);
  }
  return getAt(root, segments);
}

/** A mutation of a valid input: what it does, applied to a copy. */
export type Mutation =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "add-key"; at: number; key: string; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("replace" as const),
      at: fc.nat(),
      value: hostileValue,
    }),
    weight: 6,
  },
  { arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("add-key" as const),
      at: fc.nat(),
      key: hostileKey,
      value: hostileValue,
    }),
    weight: 2,
  },
);

export function applyMutations(input: Record<string, unknown>, mutations: readonly Mutation[]) {
  const copy = deepCopy(input);
  for (const change of mutations) {
    if (change.kind === "add-key") {
      const containers = containerPaths(copy).filter((path) => isRecord(getAt(copy, path)));
      const target = getAt(copy, containers[change.at % containers.length]!) as object;
      defineOwn(target, change.key, change.value);
      continue;
    }
    const paths = allPaths(copy);
    if (paths.length === 0) continue;
    const path = paths[change.at % paths.length]!;
    if (change.kind === "replace") setAt(copy, path, change.value);
    else deleteAt(copy, path);
  }
  return copy;
}

/** Counts what a property-based suite tried, for its summary line. */
export class InputCounter {
  private readonly counts = new Map<string, number>();

  add(label: string, n = 1): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + n);
  }

  get total(): number {
    return [...this.counts.values()].reduce((sum, n) => sum + n, 0);
  }

  summary(title: string): string {
    const parts = [...this.counts.entries()].map(([label, n]) => `${label}: ${n}`);
    return `${title}: ${this.total} inputs tried (${parts.join(", ")})`;
  }
}
