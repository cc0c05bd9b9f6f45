/**
 * Values the Pulumi engine puts into property bags: the marker of a value not known during
 * preview, and the signatures of an asset and of a secret. They are constants of Pulumi's
 * provider protocol (sdk/go/common/resource/sig and plugin), written here rather than taken
 * from `@pulumi/pulumi/runtime`, whose loading costs the plugin process its program runtime
 * (closure serializer, TypeScript shim); test/unit/engine-values.test.ts keeps them equal to the
 * SDK's.
 */

/** What the engine sends for a value not known yet during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The key that marks a special value (an asset, a secret) in a property bag, and each kind's value. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object")
    return Object.values(value).some(containsUnknown);
  return false;
}

export function isAsset(value: unknown): boolean {
  return value !== null && typeof value === "object" && SIG_KEY in value;
}

export function isFileAsset(value: unknown): value is { path: string } {
  return (
    isAsset(value) &&
    (value as Record<string, unknown>)[SIG_KEY] === ASSET_SIG &&
    typeof (value as Record<string, unknown>).path === "string"
  );
}
