import type { IncomingHttpHeaders } from "node:http";

export const REDACTED = "[redacted]";

const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const redacted: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    redacted[name] = CREDENTIAL_HEADERS.has(name) ? REDACTED : value;
  }
  return redacted;
}

/**
 * Returns a deep copy with the contract's secrets replaced, as the provider treats them: the
 * fields the route files name secret (`register_password`) wherever they appear, and an advanced
 * webhook's `url`, `body` and the values of its `headers` and `parameters` (they carry tokens).
 * Works on bodies that failed validation too, since those are logged as well.
 */
export function redactSecrets<T>(
  value: T,
  kinds: readonly { readonly secretFields?: readonly string[] }[],
): T {
  const secretFields = new Set(kinds.flatMap((kind) => kind.secretFields ?? []));
  return redactValue(value, secretFields) as T;
}

function redactValue(value: unknown, secretFields: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secretFields));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (secretFields.has(key) && child !== undefined) copy[key] = REDACTED;
    else if (key === "advancedWebhook") copy[key] = redactAdvancedWebhook(child, secretFields);
    else copy[key] = redactValue(child, secretFields);
  }
  return copy;
}

function redactAdvancedWebhook(webhook: unknown, secretFields: ReadonlySet<string>): unknown {
  const copy = redactValue(webhook, secretFields);
  if (copy === null || typeof copy !== "object" || Array.isArray(copy)) return copy;
  const fields = copy as Record<string, unknown>;
  return {
    ...fields,
    ...("url" in fields && { url: REDACTED }),
    ...("body" in fields && { body: REDACTED }),
    ...("headers" in fields && { headers: withValuesRedacted(fields.headers) }),
    ...("parameters" in fields && { parameters: withValuesRedacted(fields.parameters) }),
  };
}

/** A list of `{name, value}` with each value redacted; anything else as it is. */
function withValuesRedacted(pairs: unknown): unknown {
  if (!Array.isArray(pairs)) return pairs;
  return pairs.map((pair: unknown) =>
    pair !== null && typeof pair === "object" && "value" in pair
      ? { ...pair, value: REDACTED }
      : pair,
  );
}
