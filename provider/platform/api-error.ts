import { redactBody, redactSecrets } from "./redaction";

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
 * The one error type for everything that goes wrong talking to the platform. Its message names
 * the operation, the status, the platform's own message, the request and what to do, with
 * secrets redacted; the fields carry the same facts for programs.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** Redacted and truncated response body. */
  readonly body: string | undefined;
  /** The platform's own message, when the body carried one. */
  readonly apiMessage: string | undefined;

  constructor(details: ApiErrorDetails) {
    const body = details.body === undefined ? undefined : redactAndTruncate(details.body);
    const apiMessage = body === undefined ? undefined : extractApiMessage(body);
    super(
      formatMessage(details, apiMessage),
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.operation = details.operation;
    this.method = details.method;
    this.url = redactSecrets(details.url);
    this.status = details.status;
    this.requestId = details.requestId;
    this.body = body;
    this.apiMessage = apiMessage;
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
  const message =
    `${details.operation} failed: ${what}${said ? `: ${said}` : ""} (${where})` +
    (details.hint ? `. ${details.hint}` : "");
  return redactSecrets(message);
}

function redactAndTruncate(body: string): string {
  let text: string;
  try {
    text = JSON.stringify(redactBody(JSON.parse(body)));
  } catch {
    text = redactSecrets(body);
  }
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (truncated)` : text;
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

const statusTexts: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function statusText(status: number): string {
  return statusTexts[status] ?? "";
}
