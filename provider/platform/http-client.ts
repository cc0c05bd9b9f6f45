/**
 * The HTTP client's entry: `callApi` reads the settings once for the call, refuses what must not
 * be sent, and hands on to its parts: sending one attempt (send-attempt.ts), retrying and pacing
 * (retry-loop.ts) and explaining failures (failure-messages.ts).
 */
import { sharedPacer } from "./connection-pool";
import { UnsafePathError } from "./errors";
import { rememberSecret } from "./redaction";
import { pathSegmentProblem } from "./path-segment";
import { defaultRetryLimits } from "./retry-policy";
import { missingSetting, readSettings } from "../settings/config";
import type { ApiCall, ApiResponse, CallSettings, RequestContext } from "./api-call";
import { requestHeaders, requestUrl, sendAttempt } from "./send-attempt";
import { withRetries } from "./retry-loop";
import { gaveUpError, notSentError, unexpectedAnswerError } from "./failure-messages";

export type { ApiCall, ApiResponse, RequestContext } from "./api-call";

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
 *
 * `context` is the provider's, as the front end made it: its settings are read from
 * `context.settings` once, here, and the key goes on in `CallSettings.headers`.
 */
export async function callApi<Answer = unknown>(
  call: ApiCall<Answer>,
  context: RequestContext,
  random: () => number = Math.random,
): Promise<ApiResponse<Answer>> {
  const { lifetime } = context;
  // An ended provider's settings went with it: the path alone names the request.
  if (lifetime.ended.aborted) throw notSentError(call, call.path, lifetime);
  refuseUnsafePath(call);
  const settings = settingsForCall(call, context);
  if (lifetime.stopped.aborted) throw notSentError(call, settings.url, lifetime);
  const end = await withRetries(
    {
      idempotent: call.idempotent,
      limits: settings.limits,
      maxConcurrency: settings.maxConcurrency,
      states: context.states,
      lifetime,
      pacer: sharedPacer(context.states),
      random,
    },
    () => sendAttempt(call, settings, lifetime.ended),
  );
  if (end.kind === "not-started") throw notSentError(call, settings.url, lifetime);
  if (end.kind === "gave-up") throw gaveUpError(call, settings, end, lifetime);
  const { answer } = call;
  if (answer === undefined) return end.response as ApiResponse<Answer>;
  const parsed = answer.schema.safeParse(end.response.body);
  if (parsed.success) return { ...end.response, body: parsed.data };
  throw unexpectedAnswerError({ ...call, answer }, settings, end.response);
}

/** The settings, read once for the whole call: every attempt and every message uses these. */
function settingsForCall(call: ApiCall, context: RequestContext): CallSettings {
  const settings = readSettings(context.settings);
  const url = requestUrl(call, settings);
  const { apiKey } = settings;
  if (apiKey === undefined) throw missingSetting("apiKey", call.operation);
  rememberSecret(apiKey);
  const subOrganizationId = call.subOrganizationId ?? settings.subOrganizationId;
  return {
    source: context.settings,
    markedSecrets: context.markedSecrets,
    states: context.states,
    url,
    apiKey,
    headers: requestHeaders(call, apiKey, settings.authScheme, subOrganizationId),
    subOrganizationId,
    deadlineMs: settings.timeoutSeconds * 1000 + (call.extraTimeoutMs ?? 0),
    maxConcurrency: settings.maxConcurrency,
    limits: { ...defaultRetryLimits, maxRetries: settings.maxRetries },
  };
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
