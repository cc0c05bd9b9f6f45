/**
 * One hierarchy for everything the provider throws at a program, openai-node style: a base
 * class, `ApiError` for every way a platform call can end badly (a subclass per kind and per
 * status a program would catch, chosen by one factory, `apiErrorFor`), and `ConfigurationError`
 * for a setting that is missing or malformed. Every message is built here.
 */
import { withoutUndefined } from "../core/serializable";
import { redactBody, redactedPrefix, redactSecrets } from "./redaction";
import type { AttemptOutcome } from "./retry-policy";

const MAX_BODY_CHARS = 2048;

/** The base of every error this package throws on purpose. */
export class VoicePlatformError extends Error {
  override readonly name: string = "VoicePlatformError";
}

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
  override readonly name: string = "ApiError";
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
  override readonly name: string = "ApiStatusError";
  declare readonly status: number;
}

/** 400: the platform refused the request's content; its message names what. */
export class BadRequestError extends ApiStatusError {
  override readonly name: string = "BadRequestError";
}

/** 401: the key is missing or wrong. */
export class AuthenticationError extends ApiStatusError {
  override readonly name: string = "AuthenticationError";
}

/** 403: the key may not do this, e.g. for a sub-organization outside its organization. */
export class PermissionDeniedError extends ApiStatusError {
  override readonly name: string = "PermissionDeniedError";
}

/** 404: no such voice (or path). */
export class NotFoundError extends ApiStatusError {
  override readonly name: string = "NotFoundError";
}

/** 409: the request conflicts with what the platform holds. */
export class ConflictError extends ApiStatusError {
  override readonly name: string = "ConflictError";
}

/** 429: still rate limited after the retries. */
export class RateLimitError extends ApiStatusError {
  override readonly name: string = "RateLimitError";
}

/** 5xx: the platform failed (after the retries a safe call gets). */
export class InternalServerError extends ApiStatusError {
  override readonly name: string = "InternalServerError";
}

/** No answer: the connection failed. `code` is Node's or undici's error code. */
export class ApiConnectionError extends ApiError {
  override readonly name: string = "ApiConnectionError";
  constructor(
    details: ApiErrorDetails,
    readonly code: string,
  ) {
    super(details);
  }
}

/** No complete answer before the deadline: a kind of connection error, as in openai-node. */
export class ApiTimeoutError extends ApiConnectionError {
  override readonly name: string = "ApiTimeoutError";
  constructor(details: ApiErrorDetails) {
    super(details, "ETIMEDOUT");
  }
}

/**
 * The request was refused before any byte was sent (a value the HTTP client cannot write into a
 * header): nothing reached the platform.
 */
export class RequestNotSentError extends ApiError {
  override readonly name: string = "RequestNotSentError";
}

/** A success status whose body is not the JSON the API describes, or not of the shape it gives. */
export class ApiResponseError extends ApiError {
  override readonly name: string = "ApiResponseError";
}

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
 * Thrown when the platform created an object but a later step failed (the follow-up PUT). The
 * engine reads `id`, `properties` and `reasons` from a create error and records the resource as
 * created, so the object is neither lost nor created again.
 */
export class IncompleteCreateError extends ApiError {
  override readonly name: string = "IncompleteCreateError";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: Error) {
    const reason =
      `created ${id} on the platform, then: ${cause.message}. The resource is recorded in the ` +
      `stack; the next \`pulumi up\` finishes it`;
    const details: ApiErrorDetails =
      cause instanceof ApiError
        ? { ...cause, body: undefined, cause }
        : { operation: "create", method: "", url: "", cause };
    super(details, reason);
    if (cause instanceof ApiError)
      Object.assign(this, { body: cause.body, apiMessage: cause.apiMessage });
    this.id = id;
    this.properties = withoutUndefined(properties);
    this.reasons = [reason];
  }
}

/** An id that would change the address of the request it is a path segment of. */
export class UnsafePathError extends VoicePlatformError {
  override readonly name = "UnsafePathError";
  constructor(operation: string, what: string, value: string, problem: string) {
    super(
      `${operation}: ${what} ${JSON.stringify(value)} ${problem}. Nothing was sent; fix the id`,
    );
  }
}

/** An input the program gave cannot be used as it is (a sample file that cannot be read, say). */
export class InputError extends VoicePlatformError {
  override readonly name: string = "InputError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The `pulumi-voice-platform` command could not do what it was asked: the Pulumi CLI is missing,
 * or the stack is not what it expects. Its message says what to do.
 */
export class StackCommandError extends VoicePlatformError {
  override readonly name: string = "StackCommandError";
}

/** The stack named to the `pulumi-voice-platform` command does not exist on the backend. */
export class StackNotFoundError extends StackCommandError {
  override readonly name: string = "StackNotFoundError";
}

/**
 * The `pulumi-voice-platform` command could not read the stack's state or locks from the backend
 * (or run the Pulumi CLI that reads them); nothing was changed. Its message names what to check.
 */
export class BackendReadError extends StackCommandError {
  override readonly name: string = "BackendReadError";
}

/** Where a setting comes from: its stack config key and its environment variable. */
export interface SettingSource {
  readonly setting: string;
  readonly key: string;
  readonly env: string;
}

/** A setting that a call needs is missing, or its value cannot be used. */
export class ConfigurationError extends VoicePlatformError {
  override readonly name = "ConfigurationError";
  readonly setting: string;
  readonly key: string;
  readonly env: string;

  private constructor(source: SettingSource, message: string) {
    super(message);
    this.setting = source.setting;
    this.key = source.key;
    this.env = source.env;
  }

  /** Nobody set it, and `neededFor` needs it: every way to set it. */
  static missing(
    source: SettingSource & { secret?: boolean },
    neededFor: string,
  ): ConfigurationError {
    const secret = source.secret ? " --secret" : "";
    return new ConfigurationError(
      source,
      `${source.key} is not set, and ${neededFor} needs it. Set it with ` +
        `\`pulumi config set${secret} ${source.key} <value>\` (an explicit provider: its ` +
        `\`${source.setting}\` input), or export ${source.env}.`,
    );
  }

  /** A value that breaks `rule` (which says how to fix it); a secret's value is not shown. */
  static breaks(
    source: SettingSource & { secret?: boolean },
    raw: string,
    rule: string,
  ): ConfigurationError {
    const shown = source.secret ? "" : ` is "${raw}", which`;
    return new ConfigurationError(source, `${source.key} (or ${source.env})${shown} ${rule}.`);
  }

  /** Set to `raw`, which is not `what`: `fix` says what to set instead. */
  static invalid(
    source: SettingSource,
    raw: string,
    what: string,
    fix: string,
  ): ConfigurationError {
    return new ConfigurationError(
      source,
      `${source.key} (or ${source.env}) is "${raw}", which is not ${what}: ${fix}.`,
    );
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
