import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import { encodeMultipart, PartSourceError, type MultipartForm } from "./multipart-form";
import { Agent, request } from "undici";
import { ApiError } from "./api-error";
import { ConcurrencyLimit } from "./concurrency-limit";
import { Pacer } from "./rate-pacer";
import { missingSettingMessage, readSettings, type Settings } from "../settings/config";
import { rememberSecret } from "./redaction";
import {
  defaultRetryLimits,
  parseRetryAfter,
  retryDelay,
  shouldRetry,
  type AttemptOutcome,
  type RetryLimits,
} from "./retry-policy";

export interface ApiCall {
  /** What the provider is doing, for messages: `create SIP carrier "main-trunk"`. */
  readonly operation: string;
  readonly method: "POST" | "PUT";
  /** The voice and SIP operations live on `baseUrl`, campaign webhooks on `campaignsBaseUrl`. */
  readonly origin: "api" | "campaigns";
  /** Path with segments already encoded. */
  readonly path: string;
  readonly json?: unknown;
  /** Built again for every attempt; its files are read from disk while it is sent. */
  readonly form?: () => MultipartForm;
  readonly subOrganizationId?: string;
  /** Whether sending the request twice has the same effect as once (PUT). */
  readonly idempotent: boolean;
  /** Added to the per-attempt deadline, e.g. for large uploads. */
  readonly extraTimeoutMs?: number;
  /** Said when a create may have happened but the answer was lost. */
  readonly unknownOutcomeHint?: string;
}

export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
}

let dispatcher: Agent | undefined;
let limit: ConcurrencyLimit | undefined;
let pacer = new Pacer();

function sharedDispatcher(settings: Settings): Agent {
  dispatcher ??= new Agent({
    connections: settings.maxConcurrency,
    keepAliveTimeout: 30_000,
    // Deadlines come from a timer per attempt, which fires on time; undici's own timers are coarse.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  return dispatcher;
}

function sharedLimit(settings: Settings): ConcurrencyLimit {
  if (limit === undefined) limit = new ConcurrencyLimit(settings.maxConcurrency);
  else if (limit.limit !== settings.maxConcurrency) limit.setLimit(settings.maxConcurrency);
  return limit;
}

/** Closes the shared connections; the next call opens new ones. For tests and benchmarks. */
export async function closeHttpClient(): Promise<void> {
  const closing = dispatcher;
  dispatcher = undefined;
  pacer = new Pacer();
  await closing?.close();
}

/** Calls one platform operation with retries, the process-wide limit and an exact deadline. */
export async function callApi(
  call: ApiCall,
  random: () => number = Math.random,
): Promise<ApiResponse> {
  const settings = readSettings();
  const url = resolveUrl(call, settings);
  if (settings.apiKey === undefined)
    throw new Error(missingSettingMessage("apiKey", call.operation));
  rememberSecret(settings.apiKey);
  const limits: RetryLimits = { ...defaultRetryLimits, maxRetries: settings.maxRetries };
  const subOrganizationId = call.subOrganizationId ?? settings.subOrganizationId;
  const headers: Record<string, string> = {
    authorization: settings.authScheme
      ? `${settings.authScheme} ${settings.apiKey}`
      : settings.apiKey,
    accept: "application/json",
    "user-agent": "pulumi-voice-platform",
  };
  if (subOrganizationId !== undefined) headers["x-sub-organization-id"] = subOrganizationId;
  if (call.json !== undefined) headers["content-type"] = "application/json";
  const deadlineMs = settings.timeoutSeconds * 1000 + (call.extraTimeoutMs ?? 0);

  const calls = pacer;
  calls.enter(Date.now());
  try {
    for (let retriesSoFar = 0; ; retriesSoFar++) {
      // Most calls are admitted at once; awaiting nothing would still cost a turn of the loop.
      const admitted = calls.admit(Date.now());
      if (admitted) await admitted;
      const startedAt = Date.now();
      const attempt = await sharedLimit(settings).run(() =>
        attemptOnce(call, url, headers, deadlineMs, settings),
      );
      const status =
        attempt.kind === "success" ? attempt.response.status : attempt.response?.status;
      if (status !== undefined) calls.answered(startedAt, status === 429, Date.now());
      if (attempt.kind === "success") return attempt.response;
      const { outcome, response } = attempt;
      if (
        outcome.kind === "status" &&
        outcome.status === 429 &&
        outcome.retryAfterMs !== undefined
      ) {
        calls.holdUntil(Date.now() + outcome.retryAfterMs);
      }
      if (!shouldRetry(outcome, { idempotent: call.idempotent, retriesSoFar }, limits)) {
        throw toApiError(
          call,
          url,
          outcome,
          response,
          retriesSoFar,
          subOrganizationId,
          attempt.cause,
        );
      }
      const retryAfterMs = outcome.kind === "status" ? outcome.retryAfterMs : undefined;
      await sleep(retryDelay(retriesSoFar, retryAfterMs, limits, random));
    }
  } finally {
    calls.leave(Date.now());
  }
}

type Attempt =
  | { kind: "success"; response: ApiResponse }
  | {
      kind: "failure";
      outcome: AttemptOutcome;
      response?: { status: number; text: string; requestId: string | undefined };
      cause?: unknown;
    };

async function attemptOnce(
  call: ApiCall,
  url: string,
  headers: Record<string, string>,
  deadlineMs: number,
  settings: Settings,
): Promise<Attempt> {
  // A timer cleared when the answer is in: as exact as AbortSignal.timeout, without leaving one
  // pending timer per call behind for the whole deadline. undici also takes an EventEmitter as its
  // signal, which costs a fraction of an AbortSignal's event listeners on every call.
  const signal = new DeadlineSignal();
  const timer = setTimeout(() => signal.fire(deadlineMs), deadlineMs);
  try {
    const form = call.form ? encodeMultipart(call.form()) : undefined;
    const res = await request(url, {
      method: call.method,
      headers: form ? { ...headers, ...form.headers } : headers,
      // undici's docs take any AsyncIterable as a body; its type declarations list only Readable.
      body: form ? (form.body as unknown as Readable) : JSON.stringify(call.json),
      dispatcher: sharedDispatcher(settings),
      signal,
    });
    const text = await res.body.text();
    const requestId = headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      try {
        return {
          kind: "success",
          response: { status: res.statusCode, body: JSON.parse(text), requestId },
        };
      } catch (cause) {
        return {
          kind: "failure",
          outcome: { kind: "unreadable" },
          response: { status: res.statusCode, text, requestId },
          cause,
        };
      }
    }
    const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]));
    return {
      kind: "failure",
      outcome: {
        kind: "status",
        status: res.statusCode,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      },
      response: { status: res.statusCode, text, requestId },
    };
  } catch (cause) {
    // Cut short by the provider itself: the platform never got a whole request to act on.
    if (cause instanceof PartSourceError) throw cause;
    if (signal.aborted) return { kind: "failure", outcome: { kind: "timeout" }, cause };
    return { kind: "failure", outcome: { kind: "network", code: errorCode(cause) }, cause };
  } finally {
    clearTimeout(timer);
  }
}

/** The abort signal undici listens to: an EventEmitter with `aborted`, fired at the deadline. */
class DeadlineSignal extends EventEmitter {
  aborted = false;

  fire(ms: number): void {
    this.aborted = true;
    this.emit("abort", new DeadlineError(ms));
  }
}

class DeadlineError extends Error {
  override readonly name = "TimeoutError";
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

function toApiError(
  call: ApiCall,
  url: string,
  outcome: AttemptOutcome,
  response: { status: number; text: string; requestId: string | undefined } | undefined,
  retriesSoFar: number,
  subOrganizationId: string | undefined,
  cause: unknown,
): ApiError {
  const afterRetries = retriesSoFar > 0 ? ` after ${retriesSoFar + 1} attempts` : "";
  let problem: string | undefined;
  let hint: string | undefined;
  switch (outcome.kind) {
    case "timeout":
      problem = `no complete answer within the deadline${afterRetries}`;
      hint = call.idempotent
        ? "Raise voiceplatform:timeoutSeconds if the platform is slow"
        : call.unknownOutcomeHint;
      break;
    case "network":
      problem = `connection failed (${outcome.code})${afterRetries}`;
      if (!call.idempotent && outcome.code !== "ECONNREFUSED") hint = call.unknownOutcomeHint;
      else if (retriesSoFar > 0) hint = KEPT_FAILING;
      break;
    case "unreadable":
      problem = `the answer was not the JSON the API describes${afterRetries}`;
      // A success status with an unreadable body: the platform did process a create.
      hint = call.idempotent ? KEPT_FAILING : call.unknownOutcomeHint;
      break;
    case "status":
      problem = afterRetries ? `still failing${afterRetries}` : undefined;
      hint = statusHint(outcome.status, subOrganizationId, call);
      break;
  }
  return new ApiError({
    operation: call.operation,
    method: call.method,
    url,
    status: outcome.kind === "status" ? outcome.status : undefined,
    requestId: response?.requestId,
    body: outcome.kind === "unreadable" ? undefined : response?.text,
    problem,
    hint,
    cause,
  });
}

function statusHint(
  status: number,
  subOrganizationId: string | undefined,
  call: ApiCall,
): string | undefined {
  if (status === 401) {
    return "Check voiceplatform:apiKey (or VOICEPLATFORM_API_KEY), and set voiceplatform:authScheme (e.g. Bearer) if the platform expects a scheme before the key";
  }
  if (status === 403 && subOrganizationId !== undefined) {
    return `Check that sub-organization "${subOrganizationId}" belongs to the organization that owns the API key`;
  }
  if (status === 429) {
    return "The platform is rate limiting: lower voiceplatform:maxConcurrency or raise voiceplatform:maxRetries";
  }
  if (status >= 500 && !call.idempotent) return call.unknownOutcomeHint;
  if (status >= 500 || status === 408) return KEPT_FAILING;
  return undefined;
}

const KEPT_FAILING =
  "The platform kept failing: run `pulumi up` again later, or raise voiceplatform:maxRetries";

function resolveUrl(call: ApiCall, settings: Settings): string {
  const name = call.origin === "api" ? "baseUrl" : "campaignsBaseUrl";
  const base = settings[name];
  if (base === undefined) throw new Error(missingSettingMessage(name, call.operation));
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
