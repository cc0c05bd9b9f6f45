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
 * Returns a deep copy with the contract's secrets replaced: `register_password` wherever it
 * appears and the values of `advancedWebhook.headers` (they usually carry tokens). Works on
 * bodies that failed validation too, since those are logged as well.
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value) as T;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "register_password" && child !== undefined) copy[key] = REDACTED;
    else if (key === "advancedWebhook") copy[key] = redactAdvancedWebhook(child);
    else copy[key] = redactValue(child);
  }
  return copy;
}

function redactAdvancedWebhook(webhook: unknown): unknown {
  const copy = redactValue(webhook);
  if (copy === null || typeof copy !== "object" || Array.isArray(copy)) return copy;
  const headers = (copy as Record<string, unknown>).headers;
  if (!Array.isArray(headers)) return copy;
  return {
    ...copy,
    headers: headers.map((header: unknown) =>
      header !== null && typeof header === "object" && "value" in header
        ? { ...header, value: REDACTED }
        : header,
    ),
  };
}
