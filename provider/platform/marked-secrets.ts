/**
 * Values the user marked secret on inputs the package does not treat as secret (`name:
 * pulumi.secret(...)`), for the call that carries them. The plugin learns them from the engine's
 * secret markers; the front end runs the call inside `withMarkedSecrets`, and a platform answer to
 * a call carrying one too short to be found in a text is withheld, as for the package's own
 * secrets (failure-messages' `answerWithheldBecause`).
 */
import { callValue } from "../settings/call-context";

export interface NamedSecret {
  readonly name: string;
  readonly value: unknown;
}

const marked = callValue<readonly NamedSecret[]>([]);

export function withMarkedSecrets<T>(secrets: readonly NamedSecret[], work: () => T): T {
  return marked.runWith(secrets, work);
}

/** The marked secrets of the running call; none outside `withMarkedSecrets`. */
export function markedSecrets(): readonly NamedSecret[] {
  return marked.current();
}

/**
 * The provider's own text (a warning that names a resource by its `name`) with every marked
 * secret of the running call blanked, as written or JSON-escaped, whatever its case.
 */
export function withoutMarkedSecrets(text: string): string {
  let shown = text;
  for (const { value } of markedSecrets()) {
    if (typeof value !== "string" || value === "") continue;
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      shown = shown.replace(new RegExp(escaped, "giu"), "[secret]");
    }
  }
  return shown;
}
