/**
 * Keeps secrets out of everything the provider prints or throws. Every secret the provider
 * handles (the API key, SIP passwords, webhook header values) is remembered here, and every
 * message leaving the provider passes through `redactSecrets`.
 */

const REDACTED = "[redacted]";
const knownSecrets = new Set<string>();

/** Secrets shorter than this are not scanned for: replacing "1" everywhere would garble text. */
const MIN_SECRET_LENGTH = 4;

export function rememberSecret(value: unknown): void {
  if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) knownSecrets.add(value);
}

export function redactSecrets(text: string): string {
  let result = text;
  for (const secret of knownSecrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Wire field names whose values are secret wherever they appear in a JSON body. */
const secretFieldNames = new Set(["register_password", "registerPassword", "password", "apiKey"]);

/**
 * A copy of a parsed JSON body with secret fields blanked: `register_password` anywhere, and the
 * `value` of every header in an advanced webhook.
 */
export function redactBody(value: unknown, insideHeaders = false): unknown {
  if (Array.isArray(value)) return value.map((item) => redactBody(item, insideHeaders));
  if (value === null || typeof value !== "object") {
    return typeof value === "string" ? redactSecrets(value) : value;
  }
  const result: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (secretFieldNames.has(key) || (insideHeaders && key === "value")) {
      result[key] = REDACTED;
    } else {
      result[key] = redactBody(field, key === "headers");
    }
  }
  return result;
}
