/**
 * The context of one call, made by the front end that received it and passed by name to
 * everything the call does, as pulumi-go-provider's `infer` hands each resource
 * `Create(ctx, req)`: the provider's settings (its API key among them), its lifetime, the values
 * the user marked secret on the call's inputs, the log of the resource the call concerns, and the
 * request function, the HTTP client bound to all of these. The plugin makes one per gRPC call,
 * from the states of the provider that Configure set up; the dynamic provider one per call of its
 * runtime entry, from the process's own provider (docs/architecture.md, "How a call's context
 * travels").
 */
import { callApi, type ApiCall, type ApiResponse } from "../platform/http-client";
import type { NamedSecret } from "../platform/marked-secrets";
import {
  providerLifetime,
  providerSettings,
  type ProviderLifetime,
  type ProviderStates,
} from "../settings/process-state";
import type { SettingsSource } from "../settings/settings-state";
import { consolePrinter, providerLog, type LogPrinter, type ProviderLog } from "./provider-log";

export interface ProviderContext {
  /** Where the provider's settings are read from: what its `configure` was given. */
  readonly settings: SettingsSource;
  /** Whether its calls may still start, and those in flight finish. */
  readonly lifetime: ProviderLifetime;
  /** Values the user marked secret on the call's inputs (served-resource learns them). */
  readonly markedSecrets: readonly NamedSecret[];
  /** The call's log, on the resource it concerns. */
  readonly log: ProviderLog;
  /** The provider's other states (connections, secrets seen, warnings said, replacements). */
  readonly states: ProviderStates;
  /** Calls one platform operation with this provider's settings, lifetime and the call's secrets. */
  request<Answer>(call: ApiCall<Answer>): Promise<ApiResponse<Answer>>;
}

export interface ContextParts {
  /** The states of the provider the call is for. */
  readonly states: ProviderStates;
  /** The URN of the resource the call concerns; "" (the default) when the front end cannot say. */
  readonly resource?: string;
  /** Where its log goes; the console by default. */
  readonly print?: LogPrinter;
  readonly markedSecrets?: readonly NamedSecret[];
}

export function providerContext(parts: ContextParts): ProviderContext {
  const { states, resource = "", print = consolePrinter, markedSecrets = [] } = parts;
  const request = {
    settings: providerSettings(states),
    states,
    lifetime: providerLifetime(states),
    markedSecrets,
  };
  return Object.freeze({
    ...request,
    log: providerLog({ states, resource, markedSecrets, print }),
    request: <Answer>(call: ApiCall<Answer>) => callApi(call, request),
  });
}

/** The same call's context, with the values the user marked secret on its inputs. */
export function withMarkedSecrets(
  context: ProviderContext,
  markedSecrets: readonly NamedSecret[],
): ProviderContext {
  const { states, log } = context;
  return providerContext({ states, resource: log.resource, print: log.print, markedSecrets });
}
