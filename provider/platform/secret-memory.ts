/** Every secret this process has seen, in the forms redaction.ts searches texts for. */
import { stateSlot } from "../settings/process-state";

/**
 * The folded secrets by their first units, how many units those keys have, and their first two
 * units as one number (a cheap test before a key is looked up).
 */
export interface SecretIndex {
  readonly byPrefix: Map<string, string[]>;
  readonly keyLengths: readonly number[];
  readonly firstPairs: ReadonlySet<number>;
}

/** Base64 runs of the secrets' bytes (encoded-secrets.ts) by their first 4 characters as one number. */
export type Base64Index = ReadonlyMap<number, readonly string[]>;

interface SecretMemory {
  /** Every secret value seen. */
  readonly secrets: Set<string>;
  /** The forms searched for in texts, case folded, and the same by their first units (built on demand). */
  readonly foldedSecrets: Set<string>;
  index: SecretIndex | undefined;
  /** The most units a searched form has, hex dumps left out (they are encodings themselves). */
  longestForm: number;
  /** The secrets' bytes in base64, at each alignment (case-sensitive), and by their first characters. */
  readonly base64Runs: Set<string>;
  base64Index: Base64Index | undefined;
  /**
   * Whether a text read from base64 or hex shows a secret (`found`: in redaction's search;
   * `shown`: in its second opinion), kept until a secret is added.
   */
  readonly readings: { readonly found: Map<string, boolean>; readonly shown: Map<string, boolean> };
  /** Wire fields whose values are secret in any body (`register_password`, `headers[].value`). */
  readonly secretWireFields: Set<string>;
}

function fresh(): SecretMemory {
  return {
    secrets: new Set(),
    foldedSecrets: new Set(),
    index: undefined,
    longestForm: 0,
    base64Runs: new Set(),
    base64Index: undefined,
    readings: { found: new Map(), shown: new Map() },
    secretWireFields: new Set(),
  };
}

const memory = stateSlot(fresh);

export function secretMemory(): SecretMemory {
  return memory();
}
