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
 * Returns a deep copy with the contract's secrets replaced, as the route files name them (their
 * `secretFields`), wherever the first name of one stands: `register_password`, or
 * `advancedWebhook.headers[].value` for the value of each header of any advanced webhook.
 * Works on bodies that failed validation too, since those are logged as well.
 */
export function redactSecrets<T>(
  value: T,
  kinds: readonly { readonly secretFields?: readonly string[] }[],
): T {
  const paths = kinds.flatMap((kind) => kind.secretFields ?? []).map((path) => path.split("."));
  return redactValue(value, paths, []) as T;
}

/**
 * `secrets` are the paths as the route files name them, `following` those that led here and go
 * on from `value`; each as its segments, a segment ending in `[]` leading into each item of a list.
 */
function redactValue(
  value: unknown,
  secrets: readonly string[][],
  following: readonly string[][],
): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, []));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const here = [...secrets, ...following].filter((path) => path[0]!.replace(/\[\]$/, "") === key);
    if (here.some((path) => path.length === 1) && child !== undefined) copy[key] = REDACTED;
    else copy[key] = redactChild(child, secrets, here);
  }
  return copy;
}

/** A field's value, with the paths that lead through it followed on. */
function redactChild(
  child: unknown,
  secrets: readonly string[][],
  here: readonly string[][],
): unknown {
  const rest = (intoList: boolean) =>
    here.filter((path) => path[0]!.endsWith("[]") === intoList).map((path) => path.slice(1));
  if (Array.isArray(child)) return child.map((item) => redactValue(item, secrets, rest(true)));
  return redactValue(child, secrets, rest(false));
}
