/**
 * Keeps secrets out of everything the provider prints or throws. Every secret the provider
 * handles (the API key, SIP passwords, what an advanced webhook can carry a token in) is remembered here, and every
 * message leaving the provider passes through `redactSecrets`.
 */

import { UNKNOWN } from "../core/engine-values";
import { processState } from "../settings/process-state";

const REDACTED = "[redacted]";

/** Secrets shorter than this are not scanned for: replacing "1" everywhere would garble text. */
const MIN_SECRET_LENGTH = 4;

/**
 * A secret shorter than this is blanked only where it stands as a word of its own: a parameter
 * value such as "voice" must not turn "voices" into "[redacted]s", yet never shows on its own.
 */
const WHOLE_WORD_BELOW = 12;

function wholeWord(secret: string): RegExp {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, "g");
}

/**
 * The engine's marker for a value not known during preview stands in for a secret that is not
 * known yet, and is no secret itself: remembering it would blank it out of every message.
 */
export function rememberSecret(value: unknown): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || value === UNKNOWN) return;
  const state = processState();
  if (state.secrets.has(value)) return;
  // Echoed back inside a JSON text or a URL, a secret is escaped or encoded: those forms too.
  for (const form of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
    state.secrets.add(form);
  }
  state.secretsBySize = undefined;
}

export function redactSecrets(text: string): string {
  const state = processState();
  // Longest first, so a secret that contains another is blanked whole, not around the other.
  state.secretsBySize ??= [...state.secrets].sort((a, b) => b.length - a.length);
  let result = text;
  for (const secret of state.secretsBySize) {
    if (!result.includes(secret)) continue;
    result =
      secret.length < WHOLE_WORD_BELOW
        ? result.replace(wholeWord(secret), REDACTED)
        : result.split(secret).join(REDACTED);
  }
  return result;
}

/** Field names secret in any body whatever the resource: the API key, a password. */
const alwaysSecretFields = ["apiKey", "password"];

/**
 * Remembers wire fields whose values are secret (a resource's `secretWireFields`): a name is
 * secret wherever it appears in a body, `list[].field` in every item of such a list.
 */
export function rememberSecretWireFields(paths: readonly string[]): void {
  for (const path of paths) processState().secretWireFields.add(path);
}

/**
 * A copy of a parsed JSON body with the values of secret wire fields blanked, and every
 * remembered secret in the rest redacted.
 */
export function redactBody(value: unknown): unknown {
  const fields = new Set(alwaysSecretFields);
  const inLists = new Map<string, string>();
  for (const path of processState().secretWireFields) {
    const [list, field] = path.split("[].");
    if (field === undefined) fields.add(path);
    else inLists.set(list!, field);
  }
  const walk = (node: unknown, secretInItems?: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, secretInItems));
    if (node === null || typeof node !== "object") {
      return typeof node === "string" ? redactSecrets(node) : node;
    }
    // Keys are redacted too (a platform may key its complaints by the value it refused), and
    // fromEntries keeps a `__proto__` key an own key instead of setting the prototype.
    return Object.fromEntries(
      Object.entries(node).map(([key, field]) => [
        redactSecrets(key),
        fields.has(key) || key === secretInItems ? REDACTED : walk(field, inLists.get(key)),
      ]),
    );
  };
  return walk(value);
}
