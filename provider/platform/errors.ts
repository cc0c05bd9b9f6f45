/**
 * The platform floor's errors, in the package's one hierarchy (rooted in settings/errors.ts),
 * openai-node style: `ApiError` for every way a platform call can end badly, a subclass per kind
 * and per status a program would catch, chosen by one factory, `apiErrorFor`; and the errors of a
 * request or an input refused before anything is sent. Their messages are built here.
 */
import { VoicePlatformError } from "../settings/errors";
import { redactBody, redactedPrefix, redactSecrets } from "./redaction";
import type { AttemptOutcome } from "./retry-policy";

const MAX_BODY_CHARS = 2048;

export interface ApiErrorDetails {
  /** What the provider was doing, e.g. `create SIP carrier "main-trunk"`. */
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  /** Undefined when no HTTP answer arrived (connection error, deadline). */
  readonly status?: number;
  readonly requestId?: string;
  /** The raw response body, if any; it is redacted and truncated before it is kept. */
  readonly body?: string;
  /** Why there was no answer, or why the answer was unusable, when there is no API message. */
  readonly problem?: string;
  /** What the user can do about it. */
  readonly hint?: string;
  readonly cause?: unknown;
}

/**
 * Everything that goes wrong talking to the platform. Its message names the operation, the
 * status, the platform's own message, the request and what to do, with secrets redacted; the
 * fields carry the same facts for programs. The subclasses say which kind of failure it was.
 */
export class ApiError extends VoicePlatformError {
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** Redacted and truncated response body. */
  readonly body: string | undefined;
  /** The platform's own message, when the body carried one. */
  readonly apiMessage: string | undefined;

  constructor(details: ApiErrorDetails, message?: string) {
    // What the platform sent is redacted here; the rest of the message is the provider's own.
    const body = details.body === undefined ? undefined : redactAndTruncate(details.body);
    const apiMessage = body === undefined ? undefined : extractApiMessage(body);
    const requestId =
      details.requestId === undefined ? undefined : redactSecrets(details.requestId);
    super(
      message ?? formatMessage({ ...details, requestId }, apiMessage),
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.operation = details.operation;
    this.method = details.method;
    this.url = details.url;
    this.status = details.status;
    this.requestId = requestId;
    this.body = body;
    this.apiMessage = apiMessage;
  }
}

/** The platform answered with an error status (after any retries). */
export class ApiStatusError extends ApiError {
  declare readonly status: number;
}

/** 400: the platform refused the request's content; its message names what. */
export class BadRequestError extends ApiStatusError {}

/** 401: the key is missing or wrong. */
export class AuthenticationError extends ApiStatusError {}

/** 403: the key may not do this, e.g. for a sub-organization outside its organization. */
export class PermissionDeniedError extends ApiStatusError {}

/** 404: no such voice (or path). */
export class NotFoundError extends ApiStatusError {}

/** 409: the request conflicts with what the platform holds. */
export class ConflictError extends ApiStatusError {}

/** 429: still rate limited after the retries. */
export class RateLimitError extends ApiStatusError {}

/** 5xx: the platform failed (after the retries a safe call gets). */
export class InternalServerError extends ApiStatusError {}

/** No answer: the connection failed. `code` is Node's or undici's error code. */
export class ApiConnectionError extends ApiError {
  constructor(
    details: ApiErrorDetails,
    readonly code: string,
  ) {
    super(details);
  }
}

/** No complete answer before the deadline: a kind of connection error, as in openai-node. */
export class ApiTimeoutError extends ApiConnectionError {
  constructor(details: ApiErrorDetails) {
    super(details, "ETIMEDOUT");
  }
}

/**
 * The request was refused before any byte was sent (a value the HTTP client cannot write into a
 * header): nothing reached the platform.
 */
export class RequestNotSentError extends ApiError {}

/** A success status whose body is not the JSON the API describes, or not of the shape it gives. */
export class ApiResponseError extends ApiError {}

const statusClasses: Readonly<Record<number, new (details: ApiErrorDetails) => ApiStatusError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** The one place that picks an `ApiError`'s class. */
export function apiErrorFor(outcome: AttemptOutcome, details: ApiErrorDetails): ApiError {
  switch (outcome.kind) {
    case "timeout":
      return new ApiTimeoutError(details);
    case "network":
      return new ApiConnectionError(details, outcome.code);
    case "unreadable":
      return new ApiResponseError(details);
    case "unsent":
      return new RequestNotSentError(details);
    case "status": {
      const StatusClass =
        statusClasses[outcome.status] ??
        (outcome.status >= 500 ? InternalServerError : ApiStatusError);
      return new StatusClass(details);
    }
  }
}

/**
 * What a 401 tells the user to check: the key where it was set (an explicit provider's input, the
 * stack config, the environment) and the scheme.
 */
export function authenticationHint(keyOrigin: string): string {
  return (
    `The platform refused the API key from ${keyOrigin}: check it there, and set authScheme ` +
    "(voiceplatform:authScheme, or an explicit provider's authScheme input), e.g. Bearer, if the platform expects a scheme before the key"
  );
}

/** What a 403 tells the user to check: the sub-organization if one was sent, else the key's rights. */
export function permissionHint(subOrganizationId: string | undefined, keyOrigin: string): string {
  return subOrganizationId === undefined
    ? `The API key from ${keyOrigin} may not do this: check that key's organization and rights`
    : `Check that sub-organization "${subOrganizationId}" belongs to the organization that owns the API key from ${keyOrigin}`;
}

/** An id that would change the address of the request it is a path segment of. */
export class UnsafePathError extends VoicePlatformError {
  constructor(operation: string, what: string, value: string, problem: string) {
    super(
      `${operation}: ${what} ${JSON.stringify(value)} ${problem}. Nothing was sent; fix the id`,
    );
  }
}

/**
 * A part could not produce the content it announced, so the body was cut short before the
 * platform had all of it: the request was never complete, and nothing was acted on.
 */
export class PartSourceError extends VoicePlatformError {}

/** A sample that changed size between the start of its upload and its last byte. */
export class SampleChangedError extends PartSourceError {}

/**
 * An attempt's deadline passed: the reason its request is cut, named as AbortSignal.timeout names
 * its own. The call then fails with an ApiTimeoutError, whose cause it is.
 */
export class TimeoutError extends VoicePlatformError {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

/** An input the program gave cannot be used as it is (a sample file that cannot be read, say). */
export class InputError extends VoicePlatformError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

function formatMessage(details: ApiErrorDetails, apiMessage: string | undefined): string {
  const answered = details.status !== undefined;
  const what = answered
    ? `${details.status} ${statusText(details.status!)}`.trim()
    : (details.problem ?? "no answer");
  // With a status, the problem (e.g. how many attempts were made) follows the platform's message.
  const said = [apiMessage, answered ? details.problem : undefined].filter(Boolean).join("; ");
  const where = `${details.method} ${details.url}${details.requestId ? `, request id ${details.requestId}` : ""}`;
  return (
    `${details.operation} failed: ${what}${said ? `: ${said}` : ""} (${where})` +
    (details.hint ? `. ${details.hint}` : "")
  );
}

/** Bodies up to this size are parsed, so secret fields are blanked by name; longer ones are cut. */
const MAX_PARSED_BODY_CHARS = 64 * 1024;

function redactAndTruncate(body: string): string {
  let text = body;
  if (body.length <= MAX_PARSED_BODY_CHARS) {
    try {
      text = JSON.stringify(redactBody(JSON.parse(body)));
    } catch {
      // Not JSON: redacted as text.
    }
  }
  return redactedPrefix(text, MAX_BODY_CHARS);
}

/** The platform shows no error shape, so the usual places for a message are tried in turn. */
export function extractApiMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.replace(/\s+/g, " ").trim();
    return text === "" ? undefined : text.slice(0, 300);
  }
  for (const candidate of [
    pick(parsed, "error", "message"),
    pick(parsed, "message"),
    pick(parsed, "error"),
    pick(parsed, "detail"),
    pick(parsed, "errors", "0", "message"),
  ]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate.trim();
  }
  return undefined;
}

function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * node:http loaded on first use: the single executable's startup snapshot (plugin/snapshot-main)
 * holds this module, and node:http's parser binding cannot be in a snapshot.
 */
function statusText(status: number): string {
  const { STATUS_CODES } = require("node:http") as typeof import("node:http");
  return STATUS_CODES[status] ?? "";
}

/**
 * Every error leaves a front end with secrets redacted (a `.catch` costs no extra async step).
 * This package's own errors are built so: what the platform sent is redacted where it is
 * quoted, and the rest never holds a secret value. The message and stack of any other error
 * (Node.js, undici, a bug) are redacted here, since the provider processes print the stack.
 */
export function rethrowRedacted(error: unknown): never {
  if (error instanceof VoicePlatformError) throw error;
  if (error instanceof Error) {
    error.message = redactSecrets(error.message);
    if (error.stack) error.stack = redactSecrets(error.stack);
    throw error;
  }
  throw new Error(redactSecrets(String(error)));
}
