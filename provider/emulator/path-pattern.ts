/** Whether `path` fits `pattern`: the same path, where a `*` segment stands for any one segment. */
export function pathMatches(pattern: string, path: string): boolean {
  const patternSegments = pattern.split("/");
  const pathSegments = path.split("/");
  if (patternSegments.length !== pathSegments.length) return false;
  return patternSegments.every((segment, index) => {
    const actual = pathSegments[index] ?? "";
    return segment === "*" ? actual !== "" : segment === actual;
  });
}
