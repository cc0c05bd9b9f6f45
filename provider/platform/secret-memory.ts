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

interface SecretMemory {
  /** Every secret value seen. */
  readonly secrets: Set<string>;
  /** The forms searched for in texts, case folded, and the same by their first units (built on demand). */
  readonly foldedSecrets: Set<string>;
  index: SecretIndex | undefined;
  /** Wire fields whose values are secret in any body (`register_password`, `headers[].value`). */
  readonly secretWireFields: Set<string>;
}

function fresh(): SecretMemory {
  return {
    secrets: new Set(),
    foldedSecrets: new Set(),
    index: undefined,
    secretWireFields: new Set(),
  };
}

const memory = stateSlot(fresh);

export function secretMemory(): SecretMemory {
  return memory();
}
