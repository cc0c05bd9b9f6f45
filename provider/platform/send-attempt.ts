/**
 * Sending one attempt of a call: its URL and headers, its body, the answer read up to a bound,
 * and the attempt's outcome as the retry policy tells outcomes apart. Whether to try again, and
 * when, is retry-loop.ts's; what a failure means to the user, failure-messages.ts's.
 */
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import { sharedAgent, undici } from "./connection-pool";
import { encodeMultipart } from "./multipart-form";
import { PartSourceError, TimeoutError } from "./errors";
import { parseRetryAfter, type AttemptOutcome } from "./retry-policy";
import { missingSetting, type Settings } from "../settings/config";
import type { ApiCall, ApiResponse, CallSettings } from "./api-call";

export type Attempt = { kind: "success"; response: ApiResponse } | AttemptFailure;

export interface AttemptFailure {
  readonly kind: "failure";
  readonly outcome: AttemptOutcome;
  readonly response?: AnswerFacts;
  readonly cause?: unknown;
}

/** What the platform answered, as far as it was read. */
export interface AnswerFacts {
  readonly status: number;
  readonly text: string;
  readonly requestId: string | undefined;
}

/** The call's address on the origin it names; a base URL nobody set is a ConfigurationError. */
export function requestUrl(call: ApiCall, settings: Settings): string {
  const name = call.origin === "api" ? "baseUrl" : "campaignsBaseUrl";
  const base = settings[name];
  if (base === undefined) throw missingSetting(name, call.operation);
  return `${base}${call.path}`;
}

export function requestHeaders(
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

/** One attempt, cut at its deadline or when the provider ends (`ended`), whichever comes first. */
export async function sendAttempt(
  call: ApiCall,
  settings: CallSettings,
  ended: AbortSignal,
): Promise<Attempt> {
  const { deadlineMs, headers } = settings;
  // A timer cleared when the answer is in: as exact as AbortSignal.timeout, without leaving one
  // pending timer per call behind for the whole deadline. undici also takes an EventEmitter as its
  // signal, which costs a fraction of an AbortSignal's event listeners on every call.
  const signal = new AttemptSignal();
  const timer = setTimeout(() => signal.fire(new TimeoutError(deadlineMs)), deadlineMs);
  const cut = () => signal.fire(ended.reason as Error);
  ended.addEventListener("abort", cut);
  try {
    const form = call.form ? encodeMultipart(call.form(), ended) : undefined;
    const res = await undici().request(settings.url, {
      method: call.method,
      headers: form ? { ...headers, ...form.headers } : headers,
      // undici's docs take any AsyncIterable as a body; its type declarations list only Readable.
      body: form ? (form.body as unknown as Readable) : JSON.stringify(call.json),
      dispatcher: sharedAgent(settings.maxConcurrency, settings.states),
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
