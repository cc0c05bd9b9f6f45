/** Every secret this process has seen, in the forms redaction.ts searches texts for. */
import { stateSlot } from "../settings/process-state";

interface SecretMemory {
  /** Every secret value seen. */
  readonly secrets: Set<string>;
  /** The forms searched for in texts, case folded, and the same by their first units (built on demand). */
  readonly foldedSecrets: Set<string>;
  secretsByPrefix: Map<string, string[]> | undefined;
  /** Wire fields whose values are secret in any body (`register_password`, `headers[].value`). */
  readonly secretWireFields: Set<string>;
}

function fresh(): SecretMemory {
  return {
    secrets: new Set(),
    foldedSecrets: new Set(),
    secretsByPrefix: undefined,
    secretWireFields: new Set(),
  };
}

const memory = stateSlot(fresh);

export function secretMemory(): SecretMemory {
  return memory();
}
