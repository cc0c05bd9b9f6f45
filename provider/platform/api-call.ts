/**
 * What a platform call is (ApiCall), what it answers (ApiResponse), and what it takes from the
 * settings, read once when it starts (CallSettings): the values the HTTP client's parts pass on.
 */
import type { z } from "zod";
import type { MultipartForm } from "./multipart-form";
import type { RetryLimits } from "./retry-policy";
import type { NamedSecret } from "./marked-secrets";
import type { ProviderLifetime, ProviderStates } from "../settings/process-state";
import type { SettingsSource } from "../settings/settings-state";

/**
 * What a call is sent for, handed down by name from the front end that made the call's context
 * (core/provider-context.ts): where the provider's settings (its API key among them) are read
 * from, its lifetime, its other states (its connections and their pacing) and the values the
 * user marked secret on the call's inputs.
 */
export interface RequestContext {
  readonly settings: SettingsSource;
  readonly states: ProviderStates;
  readonly lifetime: ProviderLifetime;
  readonly markedSecrets: readonly NamedSecret[];
}

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

/** What one call takes from the settings, read once when it starts: every attempt uses these. */
export interface CallSettings {
  /** Where they were read from: a 401 or 403 names where the key was set. */
  readonly source: SettingsSource;
  /** The values the user marked secret on the call's inputs. */
  readonly markedSecrets: readonly NamedSecret[];
  /** The states of the provider whose connections carry the call. */
  readonly states: ProviderStates;
  readonly url: string;
  /** Kept to tell whether it is too short to be searched for in the platform's answers. */
  readonly apiKey: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly subOrganizationId: string | undefined;
  /** One attempt's deadline. */
  readonly deadlineMs: number;
  readonly maxConcurrency: number;
  readonly limits: RetryLimits;
}
