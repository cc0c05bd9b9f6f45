/**
 * Property bags as the engine can carry them. `Struct.fromJavaScript`, which both
 * `@pulumi/pulumi/cmd/dynamic-provider` and the plugin use, throws on `undefined` at any depth,
 * and for a create it throws after the platform made the object: the id would be lost.
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.filter((item) => item !== undefined).map(withoutUndefined) as T;
  }
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .map(([key, entry]) => [key, withoutUndefined(entry)]),
  ) as T;
}
