/**
 * When a failed HTTP attempt is tried again, and after how long. Pure functions, so the policy is
 * tested without a server.
 *
 * The platform documents no idempotency key, so a POST that may have reached the server is never
 * re-sent: a second create can make a second voice or carrier. A POST is retried only when the
 * request certainly was not processed.
 */

export type AttemptOutcome =
  | { readonly kind: "status"; readonly status: number; readonly retryAfterMs?: number }
  /** The connection failed. `code` is Node's or undici's error code. */
  | { readonly kind: "network"; readonly code: string }
  /** No complete answer before the deadline. */
  | { readonly kind: "timeout" }
  /** A success status whose body could not be read or parsed; `reason` when it was not read. */
  | { readonly kind: "unreadable"; readonly reason?: string }
  /** Refused before a byte was sent (a header value the HTTP client will not write). */
  | { readonly kind: "unsent"; readonly reason: string };

export interface RetryLimits {
  readonly maxRetries: number;
  /** First backoff ceiling; it doubles per retry up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails and says so. */
  readonly maxRetryAfterMs: number;
}

export const defaultRetryLimits: RetryLimits = {
  maxRetries: 5,
  baseDelayMs: 200,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** Codes that mean no connection was made, so nothing reached the server. */
const notSentCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status <= 599);
}

/** Whether the outcome proves the server did not process the request. */
export function certainlyNotProcessed(outcome: AttemptOutcome): boolean {
  switch (outcome.kind) {
    case "network":
      return notSentCodes.has(outcome.code);
    case "unsent":
      return true;
    case "status":
      return (
        outcome.status === 429 || (outcome.status === 503 && outcome.retryAfterMs !== undefined)
      );
    default:
      return false;
  }
}

export function shouldRetry(
  outcome: AttemptOutcome,
  request: { readonly idempotent: boolean; readonly retriesSoFar: number },
  limits: RetryLimits = defaultRetryLimits,
): boolean {
  if (request.retriesSoFar >= limits.maxRetries) return false;
  // The same request would be refused again.
  if (outcome.kind === "unsent") return false;
  if (retryAfterBeyondCap(outcome, limits)) return false;
  const transient = outcome.kind !== "status" || isRetryableStatus(outcome.status);
  if (!transient) return false;
  return request.idempotent || certainlyNotProcessed(outcome);
}

/**
 * Exponential backoff with full jitter; a Retry-After from the server is a floor. `random` is
 * injectable so tests can pin the jitter.
 */
export function retryDelay(
  retriesSoFar: number,
  retryAfterMs: number | undefined,
  limits: RetryLimits = defaultRetryLimits,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** retriesSoFar);
  const jittered = Math.floor(random() * ceiling);
  if (retryAfterMs === undefined) return jittered;
  // Spread the callers that were all told the same Retry-After over one base delay.
  return cappedRetryAfter(retryAfterMs, limits) + Math.floor(random() * limits.baseDelayMs);
}

/**
 * The platform asked for a longer wait than this provider makes: that call fails at once, and
 * the wait is not imposed on any other call.
 */
export function retryAfterBeyondCap(
  outcome: AttemptOutcome,
  limits: RetryLimits = defaultRetryLimits,
): outcome is { kind: "status"; status: number; retryAfterMs: number } {
  return (
    outcome.kind === "status" &&
    outcome.retryAfterMs !== undefined &&
    outcome.retryAfterMs > limits.maxRetryAfterMs
  );
}

/** A Retry-After as a wait: never longer than the configured maximum, whatever the server said. */
export function cappedRetryAfter(retryAfterMs: number, limits: RetryLimits = defaultRetryLimits) {
  return Math.min(Math.max(0, retryAfterMs), limits.maxRetryAfterMs);
}

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(
  header: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
