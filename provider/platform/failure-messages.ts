/**
 * Explaining failures: the error a call fails with, its problem and its hint, worded for the
 * user from what the attempts found (send-attempt.ts) and how the retries ended (retry-loop.ts).
 * The platform's own text is quoted only redacted, and not at all when the request carried a
 * secret too short to be searched for.
 */
import {
  apiErrorFor,
  ApiResponseError,
  authenticationHint,
  permissionHint,
  type ApiError,
  type ApiErrorDetails,
} from "./errors";
import { isFindable, MIN_FINDABLE_LENGTH, redactSecrets } from "./redaction";
import { settingOrigin } from "../settings/config";
import { certainlyNotProcessed, retryAfterBeyondCap, type AttemptOutcome } from "./retry-policy";
import type { ProviderLifetime } from "../settings/process-state";
import type { ApiCall, ApiResponse, CallSettings } from "./api-call";
import type { GaveUp } from "./retry-loop";

/** A call the provider did not send because it was stopped: nothing reached the platform. */
export function notSentError(call: ApiCall, url: string, lifetime: ProviderLifetime): ApiError {
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

/** The error of a call whose last attempt failed: what happened, and what the user can do. */
export function gaveUpError(
  call: ApiCall,
  settings: CallSettings,
  { failure, retriesSoFar, stopped }: GaveUp,
  lifetime: ProviderLifetime,
): ApiError {
  const { outcome, response } = failure;
  const withheld = answerWithheldBecause(call, settings);
  const explained = explainFailure(call, outcome, retriesSoFar, settings);
  const notRetried = stopped ? `not tried again: ${stopReason(lifetime)}` : undefined;
  const problem = [explained.problem, notRetried, withheld].filter(Boolean).join("; ") || undefined;
  const answer = withheld === undefined ? response : undefined;
  const details: ApiErrorDetails = {
    ...requestFacts(call, settings.url),
    status: response?.status,
    requestId: answer?.requestId,
    body: outcome.kind === "unreadable" ? undefined : answer?.text,
    problem,
    hint: explained.hint,
    cause: failure.cause,
  };
  return apiErrorFor(outcome, details);
}

/** A success answer of another shape than `call.answer` describes. */
export function unexpectedAnswerError(
  call: ApiCall & { readonly answer: NonNullable<ApiCall["answer"]> },
  settings: CallSettings,
  response: ApiResponse,
): ApiResponseError {
  const withheld = answerWithheldBecause(call, settings);
  return new ApiResponseError({
    ...requestFacts(call, settings.url),
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
function answerWithheldBecause(
  call: ApiCall,
  { apiKey, markedSecrets }: CallSettings,
): string | undefined {
  const names = [...(call.secrets ?? []), ...markedSecrets]
    .filter(({ value }) => typeof value === "string" && value !== "" && !isFindable(value))
    .map(({ name }) => name);
  if (!isFindable(apiKey)) names.unshift("voiceplatform:apiKey");
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

/** Why the provider starts no more calls, for messages. */
function stopReason(lifetime: ProviderLifetime): string {
  return lifetime.ended.aborted
    ? "the engine ended this provider (its plugin process stopped), so it records nothing more from it"
    : "the engine cancelled the deployment (Ctrl-C, or the engine closing this provider)";
}

/** What went wrong, for the message, and what the user can do about it. */
function explainFailure(
  call: ApiCall,
  outcome: AttemptOutcome,
  retriesSoFar: number,
  settings: CallSettings,
): { problem?: string; hint?: string } {
  const afterRetries = retriesSoFar > 0 ? ` after ${retriesSoFar + 1} attempts` : "";
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
        hint: connectionHint(call, outcome, retriesSoFar),
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
      if (retryAfterBeyondCap(outcome, settings.limits)) {
        return {
          problem: `the platform asked to wait ${Math.ceil(outcome.retryAfterMs / 1000)} s before trying again (Retry-After), longer than the ${settings.limits.maxRetryAfterMs / 1000} s this provider waits${afterRetries}`,
          hint: certainlyNotProcessed(outcome)
            ? "The platform did not take the request: run `pulumi up` again once that time has passed"
            : (call.unknownOutcomeHint ?? "Run `pulumi up` again once that time has passed"),
        };
      }
      return {
        problem: afterRetries ? `still failing${afterRetries}` : undefined,
        hint: statusHint(outcome.status, settings, call),
      };
  }
}

/** Where the key in use came from, as a 401 or 403 names it. */
function keyOrigin(settings: CallSettings): string {
  return (
    settingOrigin(settings.source, "apiKey") ?? "voiceplatform:apiKey (or VOICEPLATFORM_API_KEY)"
  );
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

function statusHint(status: number, settings: CallSettings, call: ApiCall): string | undefined {
  if (status === 401) return authenticationHint(keyOrigin(settings));
  if (status === 403) return permissionHint(settings.subOrganizationId, keyOrigin(settings));
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
