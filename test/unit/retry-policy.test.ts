import {
  certainlyNotProcessed,
  defaultRetryLimits,
  parseRetryAfter,
  retryDelay,
  shouldRetry,
  type AttemptOutcome,
} from "../../provider/platform/retry-policy";

const put = { idempotent: true, retriesSoFar: 0 };
const post = { idempotent: false, retriesSoFar: 0 };
const status = (code: number, retryAfterMs?: number): AttemptOutcome =>
  retryAfterMs === undefined
    ? { kind: "status", status: code }
    : { kind: "status", status: code, retryAfterMs };

describe("shouldRetry", () => {
  it.each([408, 429, 500, 502, 503, 504])("retries a PUT answered %i", (code) => {
    expect(shouldRetry(status(code), put)).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422, 501])("never retries status %i", (code) => {
    expect(shouldRetry(status(code), put)).toBe(false);
    expect(shouldRetry(status(code), post)).toBe(false);
  });

  it("retries a PUT after a reset, a deadline or an unreadable answer", () => {
    expect(shouldRetry({ kind: "network", code: "ECONNRESET" }, put)).toBe(true);
    expect(shouldRetry({ kind: "timeout" }, put)).toBe(true);
    expect(shouldRetry({ kind: "unreadable" }, put)).toBe(true);
  });

  it("re-sends a POST only when the request certainly was not processed", () => {
    expect(shouldRetry({ kind: "network", code: "ECONNREFUSED" }, post)).toBe(true);
    expect(shouldRetry(status(429), post)).toBe(true);
    expect(shouldRetry(status(503, 1000), post)).toBe(true);
    expect(shouldRetry(status(503), post)).toBe(false);
    expect(shouldRetry(status(500), post)).toBe(false);
    expect(shouldRetry(status(502), post)).toBe(false);
    expect(shouldRetry(status(504), post)).toBe(false);
    expect(shouldRetry({ kind: "network", code: "ECONNRESET" }, post)).toBe(false);
    expect(shouldRetry({ kind: "timeout" }, post)).toBe(false);
    expect(shouldRetry({ kind: "unreadable" }, post)).toBe(false);
  });

  it("stops at maxRetries", () => {
    const limits = { ...defaultRetryLimits, maxRetries: 2 };
    expect(shouldRetry(status(500), { idempotent: true, retriesSoFar: 1 }, limits)).toBe(true);
    expect(shouldRetry(status(500), { idempotent: true, retriesSoFar: 2 }, limits)).toBe(false);
    expect(
      shouldRetry(status(500), { idempotent: true, retriesSoFar: 0 }, { ...limits, maxRetries: 0 }),
    ).toBe(false);
  });

  it("does not wait for a Retry-After beyond the cap", () => {
    expect(shouldRetry(status(429, defaultRetryLimits.maxRetryAfterMs + 1), put)).toBe(false);
    expect(shouldRetry(status(429, defaultRetryLimits.maxRetryAfterMs), put)).toBe(true);
  });

  it("knows which outcomes prove nothing was processed", () => {
    expect(certainlyNotProcessed({ kind: "network", code: "ENOTFOUND" })).toBe(true);
    expect(certainlyNotProcessed({ kind: "network", code: "ETIMEDOUT" })).toBe(false);
  });
});

describe("retryDelay", () => {
  const limits = { ...defaultRetryLimits, baseDelayMs: 100, maxDelayMs: 1000 };

  it("draws full jitter below an exponentially growing ceiling", () => {
    expect(retryDelay(0, undefined, limits, () => 0.999)).toBe(99);
    expect(retryDelay(1, undefined, limits, () => 0.999)).toBe(199);
    expect(retryDelay(3, undefined, limits, () => 0.5)).toBe(400);
    expect(retryDelay(0, undefined, limits, () => 0)).toBe(0);
  });

  it("never exceeds maxDelayMs", () => {
    expect(retryDelay(30, undefined, limits, () => 0.999)).toBeLessThan(1000);
  });

  it("waits at least the Retry-After, spread over one base delay", () => {
    expect(retryDelay(0, 2000, limits, () => 0)).toBe(2000);
    expect(retryDelay(0, 2000, limits, () => 0.999)).toBe(2099);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
  });

  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("")).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
