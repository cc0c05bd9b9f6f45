/**
 * Values the Pulumi engine puts into property bags, from `@pulumi/pulumi` itself rather than
 * copied: the marker of a value not known during preview, and the signatures of an asset and of a
 * secret. Every
 * process that runs these handlers (the dynamic provider, the plugin) has `@pulumi/pulumi` loaded
 * already, so taking them from it costs nothing there.
 */
import {
  specialAssetSig,
  specialSecretSig,
  specialSigKey,
  unknownValue,
} from "@pulumi/pulumi/runtime";

/** What the engine sends for a value not known yet during preview. */
export const UNKNOWN: string = unknownValue;

/** The key that marks a special value (an asset, a secret) in a property bag, and each kind's value. */
export const SIG_KEY: string = specialSigKey;
export const ASSET_SIG: string = specialAssetSig;
export const SECRET_SIG: string = specialSecretSig;

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
