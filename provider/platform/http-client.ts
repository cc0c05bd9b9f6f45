import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import { sharedAgent, sharedLimit, sharedPacer, undici } from "./connection-pool";
import type { Pacer } from "./rate-pacer";
import { encodeMultipart, type MultipartForm } from "./multipart-form";
import type { z } from "zod";
import {
  apiErrorFor,
  ApiResponseError,
  authenticationHint,
  PartSourceError,
  permissionHint,
  TimeoutError,
  UnsafePathError,
  type ApiError,
  type ApiErrorDetails,
} from "./errors";
import { isFindable, MIN_FINDABLE_LENGTH, redactSecrets, rememberSecret } from "./redaction";
import { markedSecrets } from "./marked-secrets";
import { pathSegmentProblem } from "./path-segment";
import { missingSetting, readSettings, type Settings } from "../settings/config";
import { providerLifetime, type ProviderLifetime } from "../settings/process-state";
import {
  cappedRetryAfter,
  certainlyNotProcessed,
  defaultRetryLimits,
  parseRetryAfter,
  retryAfterBeyondCap,
  retryDelay,
  shouldRetry,
  type AttemptOutcome,
  type RetryLimits,
} from "./retry-policy";

export interface ApiCall<Answer = unknown> {
  /** What the provider is doing, for messages: `create SIP carrier "main-trunk"`. */
  readonly operation: string;
  /** The methods a resource's calls may need: a read, a create, an update, a delete. */
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The voice and SIP operations live on `baseUrl`, campaign webhooks on `campaignsBaseUrl`. */
  readonly origin: "api" | "campaigns";
  /** Path with segments already encoded. */
  readonly path: string;
  readonly json?: unknown;
  /** Built again for every attempt; its files are read from disk while it is sent. */
  readonly form?: () => MultipartForm;
  readonly subOrganizationId?: string;
  /**
   * The secret inputs the request carries, by input path (`registerPassword`). One too short to
   * be searched for in a text (redaction.ts) keeps the platform's answer out of every message.
   */
  readonly secrets?: readonly { readonly name: string; readonly value: unknown }[];
  /** Whether sending the request twice has the same effect as once (PUT). */
  readonly idempotent: boolean;
  /** Added to the per-attempt deadline, e.g. for large uploads. */
  readonly extraTimeoutMs?: number;
  /** Said when a create may have happened but the answer was lost. */
  readonly unknownOutcomeHint?: string;
  /**
   * The shape a success answer must have. An answer of another shape fails the call with an
   * `ApiResponseError` saying `problem(body)` and `hint` (the unknown-outcome hint by default).
   */
  readonly answer?: {
    readonly schema: z.ZodType<Answer>;
    readonly problem: (body: unknown) => string;
    readonly hint?: string;
  };
}

export interface ApiResponse<Answer = unknown> {
  readonly status: number;
  readonly body: Answer;
  readonly requestId: string | undefined;
}

/**
 * Calls one platform operation with retries, the process-wide limit and an exact deadline. Every
 * way the call itself can fail is an `ApiError`. Refused before anything is sent: a missing or
 * malformed setting (`ConfigurationError`), a path that would change the address
 * (`UnsafePathError`). A form part that cannot give what it announced (a sample that changed while
 * it was sent) cuts the request short with its own error, a `PartSourceError`.
 *
 * After the engine's Cancel no call of the provider starts (`RequestNotSentError`) and none tries
 * again; those in flight finish. Once the engine has ended the provider, its calls in flight are
 * cut too, uploads included: the engine records nothing they return (settings/process-state).
 */
export async function callApi<Answer = unknown>(
  call: ApiCall<Answer>,
  random: () => number = Math.random,
): Promise<ApiResponse<Answer>> {
  const response = await callWithRetries(call, random);
  if (call.answer === undefined) return response as ApiResponse<Answer>;
  const parsed = call.answer.schema.safeParse(response.body);
  if (parsed.success) return { ...response, body: parsed.data };
  const settings = readSettings();
  const withheld = answerWithheldBecause(call, settings.apiKey);
  throw new ApiResponseError({
    ...requestFacts(call, resolveUrl(call, settings)),
    status: response.status,
    ...(withheld === undefined
      ? {
          requestId: response.requestId,
          body: JSON.stringify(response.body),
          // Quotes the answer: redacted as the platform's text.
          problem: redactSecrets(call.answer.problem(response.body)),
        }
      : { problem: `the answer is not the one the API describes; ${withheld}` }),
    hint: call.answer.hint ?? call.unknownOutcomeHint,
  });
}

/**
 * Why the platform's answer is not shown, when the request carried a secret too short to be
 * searched for: the answer could echo it where no redaction would find it.
 */
function answerWithheldBecause(call: ApiCall, apiKey: string | undefined): string | undefined {
  const names = [...(call.secrets ?? []), ...markedSecrets()]
    .filter(({ value }) => typeof value === "string" && value !== "" && !isFindable(value))
    .map(({ name }) => name);
  if (apiKey !== undefined && !isFindable(apiKey)) names.unshift("voiceplatform:apiKey");
  if (names.length === 0) return undefined;
  const unique = [...new Set(names)];
  return (
    `the platform's answer is not shown, because the request carried ${unique.join(", ")}: ` +
    `a secret under ${MIN_FINDABLE_LENGTH} characters cannot be told apart from other text, so no ` +
    `answer that might echo it is shown (a secret of ${MIN_FINDABLE_LENGTH} or more characters is blanked instead)`
  );
}

function requestFacts(
  call: ApiCall,
  url: string,
): Pick<ApiErrorDetails, "operation" | "method" | "url"> {
  return { operation: call.operation, method: call.method, url };
}

/** An id as one segment of a request's path, encoded; refused when it would change the address. */
export function pathSegment(operation: string, what: string, id: string): string {
  const problem = pathSegmentProblem(id);
  if (problem !== undefined) throw new UnsafePathError(operation, what, id, problem);
  return encodeURIComponent(id);
}

/** The last line of defence: no path leaves with a segment a URL parser would resolve away. */
function refuseUnsafePath(call: ApiCall): void {
  for (const segment of call.path.split("/").slice(1)) {
    const problem = segment === "" ? undefined : pathSegmentProblem(segment);
    if (problem !== undefined)
      throw new UnsafePathError(call.operation, "the path segment", segment, problem);
  }
}

async function callWithRetries(call: ApiCall, random: () => number): Promise<ApiResponse> {
  const lifetime = providerLifetime();
  // An ended provider's settings went with it: the path alone names the request.
  if (lifetime.ended.aborted) throw notSent(call, call.path, lifetime);
  refuseUnsafePath(call);
  const settings = readSettings();
  const url = resolveUrl(call, settings);
  if (settings.apiKey === undefined) throw missingSetting("apiKey", call.operation);
  rememberSecret(settings.apiKey);
  const limits: RetryLimits = { ...defaultRetryLimits, maxRetries: settings.maxRetries };
  const subOrganizationId = call.subOrganizationId ?? settings.subOrganizationId;
  const headers = requestHeaders(call, settings.apiKey, settings.authScheme, subOrganizationId);
  const deadlineMs = settings.timeoutSeconds * 1000 + (call.extraTimeoutMs ?? 0);
  if (lifetime.stopped.aborted) throw notSent(call, url, lifetime);
  const pacer = sharedPacer();
  pacer.enter(Date.now());
  try {
    for (let retriesSoFar = 0; ; retriesSoFar++) {
      const attempt = await pacedAttempt(pacer, settings.maxConcurrency, lifetime.stopped, () =>
        attemptOnce(call, url, headers, deadlineMs, settings, lifetime.ended),
      );
      if (attempt.kind === "not-started") throw notSent(call, url, lifetime);
      if (attempt.kind === "success") return attempt.response;
      const { outcome, response } = attempt;
      holdForRetryAfter(pacer, outcome, limits);
      const failure = (stoppedBy?: string) =>
        toApiError(call, url, outcome, response, {
          retriesSoFar,
          subOrganizationId,
          limits,
          withheld: answerWithheldBecause(call, settings.apiKey),
          cause: attempt.cause,
          stoppedBy,
        });
      if (lifetime.ended.aborted) throw failure(stopReason(lifetime));
      if (!shouldRetry(outcome, { idempotent: call.idempotent, retriesSoFar }, limits)) {
        throw failure();
      }
      const retryAfterMs = outcome.kind === "status" ? outcome.retryAfterMs : undefined;
      const waited = await waitUnlessStopped(
        retryDelay(retriesSoFar, retryAfterMs, limits, random),
        lifetime.stopped,
      );
      if (!waited) throw failure(stopReason(lifetime));
    }
  } finally {
    pacer.leave(Date.now());
  }
}

function requestHeaders(
  call: ApiCall,
  apiKey: string,
  authScheme: string | undefined,
  subOrganizationId: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: authScheme ? `${authScheme} ${apiKey}` : apiKey,
    accept: "application/json",
    "user-agent": "pulumi-voice-platform",
  };
  if (subOrganizationId !== undefined) headers["x-sub-organization-id"] = subOrganizationId;
  if (call.json !== undefined) headers["content-type"] = "application/json";
  return headers;
}

/**
 * One attempt, started when the pacing admits it and run within the process's limit of calls in
 * flight; the pacing learns from what the platform answered. Not started when the provider is
 * stopped first, waits included.
 */
async function pacedAttempt(
  pacer: Pacer,
  maxConcurrency: number,
  stopped: AbortSignal,
  attempt: () => Promise<Attempt>,
): Promise<Attempt | NotStarted> {
  // Most calls are admitted at once; awaiting nothing would still cost a turn of the loop.
  const admitted = pacer.admit(Date.now(), stopped);
  if (admitted && !(await admitted)) return NOT_STARTED;
  const startedAt = Date.now();
  const result = await sharedLimit(maxConcurrency).run<Attempt | NotStarted>(
    () => (stopped.aborted ? Promise.resolve(NOT_STARTED) : attempt()),
    stopped,
  );
  if (result === undefined || result.kind === "not-started") return NOT_STARTED;
  const status = result.kind === "success" ? result.response.status : result.response?.status;
  if (status !== undefined) pacer.answered(startedAt, status === 429, Date.now());
  return result;
}

/** An attempt the provider did not start: stopped while it waited for its turn. */
interface NotStarted {
  readonly kind: "not-started";
}

const NOT_STARTED: NotStarted = { kind: "not-started" };

/** Why the provider starts no more calls, for messages. */
function stopReason(lifetime: ProviderLifetime): string {
  return lifetime.ended.aborted
    ? "the engine ended this provider (its plugin process stopped), so it records nothing more from it"
    : "the engine cancelled the deployment (Ctrl-C, or the engine closing this provider)";
}

/** A call the provider did not send because it was stopped: nothing reached the platform. */
function notSent(call: ApiCall, url: string, lifetime: ProviderLifetime): ApiError {
  const reason = stopReason(lifetime);
  return apiErrorFor(
    { kind: "unsent", reason },
    {
      ...requestFacts(call, url),
      problem: `not sent: ${reason}`,
      hint:
        "Nothing was sent for it, so nothing was created or changed on the platform: run " +
        "`pulumi up` again to carry on",
    },
  );
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

type Attempt =
  | { kind: "success"; response: ApiResponse }
  | { kind: "failure"; outcome: AttemptOutcome; response?: AnswerFacts; cause?: unknown };

interface AnswerFacts {
  readonly status: number;
  readonly text: string;
  readonly requestId: string | undefined;
}

async function attemptOnce(
  call: ApiCall,
  url: string,
  headers: Record<string, string>,
  deadlineMs: number,
  settings: Settings,
  ended: AbortSignal,
): Promise<Attempt> {
  // A timer cleared when the answer is in: as exact as AbortSignal.timeout, without leaving one
  // pending timer per call behind for the whole deadline. undici also takes an EventEmitter as its
  // signal, which costs a fraction of an AbortSignal's event listeners on every call.
  const signal = new AttemptSignal();
  const timer = setTimeout(() => signal.fire(new TimeoutError(deadlineMs)), deadlineMs);
  const cut = () => signal.fire(ended.reason as Error);
  ended.addEventListener("abort", cut);
  try {
    const form = call.form ? encodeMultipart(call.form(), ended) : undefined;
    const res = await undici().request(url, {
      method: call.method,
      headers: form ? { ...headers, ...form.headers } : headers,
      // undici's docs take any AsyncIterable as a body; its type declarations list only Readable.
      body: form ? (form.body as unknown as Readable) : JSON.stringify(call.json),
      dispatcher: sharedAgent(settings.maxConcurrency),
      signal,
    });
    const { text, tooLarge } = await readBounded(res.body, MAX_RESPONSE_BYTES);
    const answer = {
      status: res.statusCode,
      text,
      requestId: headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]),
    };
    if (res.statusCode >= 200 && res.statusCode < 300) return successAttempt(answer, tooLarge);
    const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]));
    return {
      kind: "failure",
      outcome: {
        kind: "status",
        status: res.statusCode,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      },
      response: answer,
    };
  } catch (cause) {
    return failedAttempt(cause, signal);
  } finally {
    clearTimeout(timer);
    ended.removeEventListener("abort", cut);
  }
}

/** A success status: the answer as JSON, or why it could not be read. */
function successAttempt(answer: AnswerFacts, tooLarge: boolean): Attempt {
  if (tooLarge) {
    return {
      kind: "failure",
      outcome: {
        kind: "unreadable",
        reason: `the answer was larger than ${MAX_RESPONSE_BYTES} bytes (1 MiB), so it was not read`,
      },
      response: { ...answer, text: "" },
    };
  }
  try {
    const body: unknown = JSON.parse(answer.text);
    return {
      kind: "success",
      response: { status: answer.status, body, requestId: answer.requestId },
    };
  } catch (cause) {
    return { kind: "failure", outcome: { kind: "unreadable" }, response: answer, cause };
  }
}

/** No answer: what kept it from coming, as the retry policy tells outcomes apart. */
function failedAttempt(cause: unknown, signal: AttemptSignal): Attempt {
  // Cut short by the provider itself: the platform never got a whole request to act on.
  if (cause instanceof PartSourceError) throw cause;
  if (signal.reason instanceof TimeoutError)
    return { kind: "failure", outcome: { kind: "timeout" }, cause };
  // Cut because the provider ended: the platform may have acted on it.
  if (signal.aborted)
    return { kind: "failure", outcome: { kind: "network", code: "ECANCELED" }, cause };
  const refused = refusedBeforeSending(cause);
  if (refused !== undefined)
    return { kind: "failure", outcome: { kind: "unsent", reason: refused }, cause };
  return { kind: "failure", outcome: { kind: "network", code: errorCode(cause) }, cause };
}

/**
 * What the HTTP client refused before it wrote a byte (a header value with a line break, a
 * character a header cannot carry): its own message, which names the header, never its value.
 */
function refusedBeforeSending(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_INVALID_ARG" ? String((error as Error).message) : undefined;
}

/** No answer of these operations comes near this; a larger one is an error, not memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** The body as text, up to `limit` bytes; past it, reading stops and the rest is dropped. */
async function readBounded(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return { text: Buffer.concat(chunks).toString("utf8"), tooLarge: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString("utf8"), tooLarge: false };
}

/**
 * The abort signal undici listens to: an EventEmitter with `aborted`, fired at the deadline or
 * when the provider ends, whichever comes first.
 */
class AttemptSignal extends EventEmitter {
  aborted = false;
  reason: Error | undefined;

  fire(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort", reason);
  }
}

interface FailureFacts {
  readonly retriesSoFar: number;
  readonly subOrganizationId: string | undefined;
  readonly limits: RetryLimits;
  /** Why the platform's answer is withheld, when it is (answerWithheldBecause). */
  readonly withheld: string | undefined;
  readonly cause: unknown;
  /** Why the call was not tried again although it could have been: the provider was stopped. */
  readonly stoppedBy?: string;
}

function toApiError(
  call: ApiCall,
  url: string,
  outcome: AttemptOutcome,
  response: AnswerFacts | undefined,
  facts: FailureFacts,
): ApiError {
  const explained = explainFailure(call, outcome, facts);
  const stopped = facts.stoppedBy === undefined ? undefined : `not tried again: ${facts.stoppedBy}`;
  const problem =
    [explained.problem, stopped, facts.withheld].filter(Boolean).join("; ") || undefined;
  const answer = facts.withheld === undefined ? response : undefined;
  const details: ApiErrorDetails = {
    ...requestFacts(call, url),
    status: response?.status,
    requestId: answer?.requestId,
    body: outcome.kind === "unreadable" ? undefined : answer?.text,
    problem,
    hint: explained.hint,
    cause: facts.cause,
  };
  return apiErrorFor(outcome, details);
}

/** What went wrong, for the message, and what the user can do about it. */
function explainFailure(
  call: ApiCall,
  outcome: AttemptOutcome,
  facts: FailureFacts,
): { problem?: string; hint?: string } {
  const afterRetries = facts.retriesSoFar > 0 ? ` after ${facts.retriesSoFar + 1} attempts` : "";
  switch (outcome.kind) {
    case "timeout":
      return {
        problem: `no complete answer within the deadline${afterRetries}`,
        hint: call.idempotent
          ? "Raise voiceplatform:timeoutSeconds if the platform is slow"
          : call.unknownOutcomeHint,
      };
    case "network":
      return {
        problem: `connection failed (${outcome.code})${afterRetries}`,
        hint: connectionHint(call, outcome, facts.retriesSoFar),
      };
    case "unreadable":
      return {
        problem: `${outcome.reason ?? "the answer was not the JSON the API describes"}${afterRetries}`,
        // A success status with an unreadable body: the platform did process a create.
        hint: call.idempotent ? KEPT_FAILING : call.unknownOutcomeHint,
      };
    case "unsent":
      return {
        problem: `the request was refused before it was sent (${redactSecrets(outcome.reason)})`,
        hint:
          "Nothing was sent, so nothing was created or changed on the platform. A value given to the " +
          "provider cannot be carried in the request: fix it (check the sub-organization id and the " +
          "ids of the resource) and run `pulumi up` again",
      };
    case "status":
      if (retryAfterBeyondCap(outcome, facts.limits)) {
        return {
          problem: `the platform asked to wait ${Math.ceil(outcome.retryAfterMs / 1000)} s before trying again (Retry-After), longer than the ${facts.limits.maxRetryAfterMs / 1000} s this provider waits${afterRetries}`,
          hint: certainlyNotProcessed(outcome)
            ? "The platform did not take the request: run `pulumi up` again once that time has passed"
            : (call.unknownOutcomeHint ?? "Run `pulumi up` again once that time has passed"),
        };
      }
      return {
        problem: afterRetries ? `still failing${afterRetries}` : undefined,
        hint: statusHint(outcome.status, facts.subOrganizationId, call),
      };
  }
}

function connectionHint(
  call: ApiCall,
  outcome: AttemptOutcome,
  retriesSoFar: number,
): string | undefined {
  if (certainlyNotProcessed(outcome)) return retriesSoFar > 0 ? KEPT_FAILING : NOT_REACHED;
  if (!call.idempotent) return call.unknownOutcomeHint;
  return retriesSoFar > 0 ? KEPT_FAILING : undefined;
}

function statusHint(
  status: number,
  subOrganizationId: string | undefined,
  call: ApiCall,
): string | undefined {
  if (status === 401) return authenticationHint();
  if (status === 403) return permissionHint(subOrganizationId);
  if (status === 429) {
    return "The platform is rate limiting: lower voiceplatform:maxConcurrency or raise voiceplatform:maxRetries";
  }
  if (status >= 500 && !call.idempotent) return call.unknownOutcomeHint;
  if (status >= 500 || status === 408) return KEPT_FAILING;
  return undefined;
}

const KEPT_FAILING =
  "The platform kept failing: run `pulumi up` again later, or raise voiceplatform:maxRetries";

const NOT_REACHED =
  "Nothing reached the platform, so nothing was created: check voiceplatform:baseUrl and " +
  "voiceplatform:campaignsBaseUrl and the network, then run `pulumi up` again";

function resolveUrl(call: ApiCall, settings: Settings): string {
  const name = call.origin === "api" ? "baseUrl" : "campaignsBaseUrl";
  const base = settings[name];
  if (base === undefined) throw missingSetting(name, call.operation);
  return `${base}${call.path}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    if (code === "UND_ERR_SOCKET") return "ECONNRESET";
    current = (current as { cause?: unknown }).cause;
  }
  return "UNKNOWN";
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
