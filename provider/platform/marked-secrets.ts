/**
 * Values the user marked secret on inputs the package does not treat as secret (`name:
 * pulumi.secret(...)`), for the call that carries them. The plugin learns them from the engine's
 * secret markers; the served resource puts them in the call's context (core/provider-context.ts's
 * `markedSecrets`), and a platform answer to a call carrying one too short to be found in a text
 * is withheld, as for the package's own secrets (failure-messages' `answerWithheldBecause`).
 */

export interface NamedSecret {
  readonly name: string;
  readonly value: unknown;
}

/**
 * The provider's own text (a warning that names a resource by its `name`) with every marked
 * secret of the call blanked, as written or JSON-escaped, whatever its case.
 */
export function withoutMarkedSecrets(text: string, secrets: readonly NamedSecret[]): string {
  let shown = text;
  for (const { value } of secrets) {
    if (typeof value !== "string" || value === "") continue;
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      shown = shown.replace(new RegExp(escaped, "giu"), "[secret]");
    }
  }
  return shown;
}
