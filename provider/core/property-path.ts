/**
 * Pulumi's property paths, as check failures, detailed diffs, `ignoreChanges` and
 * `replaceOnChanges` write them: `gateways[0].ipv4`, `advancedWebhook.headers[*].value`, and
 * `["a.b"]` for a key the plain syntax cannot carry.
 */

export type PathSegment = string | number;

/**
 * A path from its segments. A key that is empty or holds characters the plain syntax cannot carry
 * (`.`, brackets, quotes, spaces, control characters) is written `["…"]`, so every path names its
 * property unambiguously: `[""]`, `gateways[0]["a.b"]`.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else if (typeof segment === "string" && /^[^.[\]"'\s\p{Cc}]+$/u.test(segment))
      result += result === "" ? segment : `.${segment}`;
    else result += `[${JSON.stringify(String(segment))}]`;
  }
  return result;
}

/** The segments of a path, or undefined when it is not one. */
export function parsePath(path: string): PathSegment[] | undefined {
  const segments: PathSegment[] = [];
  let rest = path;
  while (rest !== "") {
    if (rest.startsWith(".") && segments.length > 0) rest = rest.slice(1);
    if (rest.startsWith('["')) {
      const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
      if (quoted === null) return undefined;
      segments.push(JSON.parse(quoted[1]!) as string);
      rest = rest.slice(quoted[0].length);
    } else if (rest.startsWith("[")) {
      const index = /^\[(\d+|\*)\]/.exec(rest);
      if (index === null) return undefined;
      segments.push(index[1] === "*" ? "*" : Number(index[1]));
      rest = rest.slice(index[0].length);
    } else {
      const name = /^[^.[]+/.exec(rest);
      if (name === null) return undefined;
      segments.push(name[0]);
      rest = rest.slice(name[0].length);
    }
  }
  return segments.length === 0 ? undefined : segments;
}

/**
 * Whether `pattern` names `path` or a property above it, `*` standing for any key or index: as
 * the engine matches `ignoreChanges` and `replaceOnChanges` against a diff's paths.
 */
export function pathContains(
  pattern: readonly PathSegment[],
  path: readonly PathSegment[],
): boolean {
  if (path.length < pattern.length) return false;
  return pattern.every((segment, index) => segment === "*" || segment === path[index]);
}

/** A descriptor's secret path (`headers[].value`) as a pattern, `*` for every item of a list. */
function secretPattern(secret: string): PathSegment[] {
  return secret
    .split(".")
    .flatMap((part): PathSegment[] => (part.endsWith("[]") ? [part.slice(0, -2), "*"] : [part]));
}

/**
 * Whether a path lies at or under one of the descriptors' secret paths, which write a field of
 * every item of a list as `headers[].value`.
 */
export function isUnderSecretPath(
  path: readonly PathSegment[],
  secretPaths: readonly string[],
): boolean {
  return secretPaths.some((secret) => pathContains(secretPattern(secret), path));
}

/**
 * Whether the value at a path may hold a secret: it lies at or under a secret path, or above one
 * (`advancedWebhook` given as a string where an object holding a secret URL belongs).
 */
export function touchesSecretPath(
  path: readonly PathSegment[],
  secretPaths: readonly string[],
): boolean {
  return secretPaths.some((secret) => {
    const pattern = secretPattern(secret);
    const above =
      path.length < pattern.length &&
      path.every((segment, index) => pattern[index] === "*" || pattern[index] === segment);
    return above || pathContains(pattern, path);
  });
}
