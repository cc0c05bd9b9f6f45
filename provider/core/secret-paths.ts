/**
 * Secret paths, as descriptors name them: `registerPassword`, and `advancedWebhook.headers[].value`
 * for field `value` of every item of list `headers`. One walker serves every use: remembering the
 * values, wrapping them as the engine's secrets, and the top-level inputs that hold them.
 */
import { UNKNOWN } from "./engine-values";
import type { Inputs } from "./property-bag";

/**
 * Calls `visit(holder, key)` for every field a path names in a property bag. Fields missing,
 * null or not known yet (a preview's unknown) are passed over.
 */
export function forEachAtPath(
  bag: Inputs,
  path: string,
  visit: (holder: Inputs, key: string) => void,
): void {
  const walk = (holder: Inputs, segments: readonly string[]) => {
    const [head, ...rest] = segments as [string, ...string[]];
    const list = head.endsWith("[]");
    const key = list ? head.slice(0, -2) : head;
    const value = holder[key];
    if (value === undefined || value === null || value === UNKNOWN) return;
    if (rest.length === 0) return visit(holder, key);
    const children = list ? (Array.isArray(value) ? value : []) : [value];
    for (const child of children) {
      if (child !== null && typeof child === "object") walk(child as Inputs, rest);
    }
  };
  walk(bag, path.split("."));
}

/** Every value at the given paths of a property bag. */
export function secretValues(bag: Inputs, paths: readonly string[]): unknown[] {
  const found: unknown[] = [];
  for (const path of paths) forEachAtPath(bag, path, (holder, key) => found.push(holder[key]));
  return found;
}

/** Every value at the given paths, named by its path (`advancedWebhook.headers[].value`). */
export function namedSecretValues(
  bag: Inputs,
  paths: readonly string[],
): { name: string; value: unknown }[] {
  return paths.flatMap((path) => secretValues(bag, [path]).map((value) => ({ name: path, value })));
}

/**
 * Every text a top-level input the user marked secret holds (strings, and numbers as written),
 * named by the input: what redaction must find, however deep in the value.
 */
export function markedSecretValues(
  bag: Inputs,
  names: readonly string[],
): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  const walk = (name: string, node: unknown): void => {
    if (Array.isArray(node)) node.forEach((item) => walk(name, item));
    else if (node !== null && typeof node === "object")
      Object.values(node).forEach((item) => walk(name, item));
    else if ((typeof node === "string" && node !== UNKNOWN) || typeof node === "number")
      found.push({ name, value: String(node) });
  };
  for (const name of names) walk(name, bag[name]);
  return found;
}

/** Replaces, in place, every value at the given paths by what `wrap` makes of it. */
export function wrapAtPaths(
  bag: Inputs,
  paths: readonly string[],
  wrap: (value: unknown) => unknown,
): void {
  for (const path of paths)
    forEachAtPath(bag, path, (holder, key) => (holder[key] = wrap(holder[key])));
}

/** The top-level inputs that hold a secret somewhere below them. */
export function topLevelOf(paths: readonly string[]): string[] {
  return [...new Set(paths.map((path) => path.split(/[.[]/)[0]!))];
}
