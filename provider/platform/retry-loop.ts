/**
 * Retrying and pacing around the attempts of one call: the pacing every call of the provider
 * starts its attempts by, the cap on calls in flight, a Retry-After that holds every call, the
 * delays of the retry policy, and the provider's lifetime, which stops retries and waits. It
 * sends nothing itself (`attempt` does) and words no message: it says how the call ended.
 */
import { sharedLimit } from "./connection-pool";
import type { Pacer } from "./rate-pacer";
import {
  cappedRetryAfter,
  retryAfterBeyondCap,
  retryDelay,
  shouldRetry,
  type AttemptOutcome,
  type RetryLimits,
} from "./retry-policy";
import type { ProviderLifetime, ProviderStates } from "../settings/process-state";
import type { ConcurrencyLimit } from "./concurrency-limit";
import type { ApiResponse } from "./api-call";
import type { Attempt, AttemptFailure } from "./send-attempt";

/** What the loop needs to know of the call and the provider, given once per call. */
export interface RetryTerms {
  readonly idempotent: boolean;
  readonly limits: RetryLimits;
  readonly maxConcurrency: number;
  /** The states of the provider whose cap on calls in flight the call waits for. */
  readonly states: ProviderStates;
  readonly lifetime: ProviderLifetime;
  readonly pacer: Pacer;
  readonly random: () => number;
}

export type CallEnd =
  { readonly kind: "success"; readonly response: ApiResponse } | NotStarted | GaveUp;

/** An attempt the provider did not start: stopped while it waited for its turn. */
export interface NotStarted {
  readonly kind: "not-started";
}

/** The last attempt failed and no other follows. */
export interface GaveUp {
  readonly kind: "gave-up";
  readonly failure: AttemptFailure;
  readonly retriesSoFar: number;
  /** Not tried again although the policy allowed it, because the provider was stopped. */
  readonly stopped: boolean;
}

const NOT_STARTED: NotStarted = { kind: "not-started" };

/** Runs `attempt` until it succeeds, the retry policy gives up, or the provider is stopped. */
export async function withRetries(
  terms: RetryTerms,
  attempt: () => Promise<Attempt>,
): Promise<CallEnd> {
  const { pacer, lifetime, limits } = terms;
  pacer.enter(Date.now());
  try {
    for (let retriesSoFar = 0; ; retriesSoFar++) {
      const result = await pacedAttempt(
        pacer,
        sharedLimit(terms.maxConcurrency, terms.states),
        lifetime.stopped,
        attempt,
      );
      if (result.kind !== "failure") return result;
      const { outcome } = result;
      holdForRetryAfter(pacer, outcome, limits);
      const gaveUp = (stopped: boolean): GaveUp => ({
        kind: "gave-up",
        failure: result,
        retriesSoFar,
        stopped,
      });
      if (lifetime.ended.aborted) return gaveUp(true);
      if (!shouldRetry(outcome, { idempotent: terms.idempotent, retriesSoFar }, limits)) {
        return gaveUp(false);
      }
      const retryAfterMs = outcome.kind === "status" ? outcome.retryAfterMs : undefined;
      const waited = await waitUnlessStopped(
        retryDelay(retriesSoFar, retryAfterMs, limits, terms.random),
        lifetime.stopped,
      );
      if (!waited) return gaveUp(true);
    }
  } finally {
    pacer.leave(Date.now());
  }
}

/**
 * One attempt, started when the pacing admits it and run within the process's limit of calls in
 * flight; the pacing learns from what the platform answered. Not started when the provider is
 * stopped first, waits included.
 */
async function pacedAttempt(
  pacer: Pacer,
  limit: ConcurrencyLimit,
  stopped: AbortSignal,
  attempt: () => Promise<Attempt>,
): Promise<Attempt | NotStarted> {
  // Most calls are admitted at once; awaiting nothing would still cost a turn of the loop.
  const admitted = pacer.admit(Date.now(), stopped);
  if (admitted && !(await admitted)) return NOT_STARTED;
  const startedAt = Date.now();
  const result = await limit.run<Attempt | NotStarted>(
    () => (stopped.aborted ? Promise.resolve(NOT_STARTED) : attempt()),
    stopped,
  );
  if (result === undefined || result.kind === "not-started") return NOT_STARTED;
  const status = result.kind === "success" ? result.response.status : result.response?.status;
  if (status !== undefined) pacer.answered(startedAt, status === 429, Date.now());
  return result;
}

/**
 * A wait the platform asks for holds every call of the process, unless it is longer than the
 * provider waits: then only this call fails, and the others carry on.
 */
function holdForRetryAfter(pacer: Pacer, outcome: AttemptOutcome, limits: RetryLimits): void {
  if (
    outcome.kind === "status" &&
    outcome.status === 429 &&
    outcome.retryAfterMs !== undefined &&
    !retryAfterBeyondCap(outcome, limits)
  ) {
    pacer.holdUntil(Date.now() + cappedRetryAfter(outcome.retryAfterMs, limits));
  }
}

/** Waits `ms`; false when `stopped` aborts first. */
function waitUnlessStopped(ms: number, stopped: AbortSignal): Promise<boolean> {
  if (stopped.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stopped.removeEventListener("abort", stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    stopped.addEventListener("abort", stop, { once: true });
  });
}
