/**
 * The provider's own inputs (`pulumi:providers:voiceplatform`): their schema, CheckConfig and
 * DiffConfig. An explicit provider passes them as resource inputs; the default provider gets the
 * stack's `voiceplatform:*` config under the same names. Whatever is left out falls back to the
 * same environment variable as the dynamic resources, read when a call needs it.
 */
import type { z } from "zod";
import { suggestion } from "../core/check";
import type { CheckFailure, Inputs } from "../core/resource-descriptor";
import type { SettingsSource } from "../settings/settings-state";
import {
  rememberProviderSettings,
  settingSources,
  SettingsSchema,
  type SettingName,
} from "../settings/config";

/** The provider's inputs are the settings, validated by the one settings schema. */
export const ProviderInputs = SettingsSchema;
export type ProviderInputs = z.infer<typeof ProviderInputs>;

/** Inputs the engine adds to every provider's; they are not configuration. */
const engineKeys = new Set(["version", "pluginDownloadURL"]);

/**
 * Checks the inputs and, for those left out, the environment variable that stands in for them, so
 * a malformed value fails at preview naming the input (or the variable) and how to fix it.
 * Values not known during preview are checked once they are.
 */
export function checkProviderConfig(
  news: Inputs,
  env: NodeJS.ProcessEnv,
  isUnknown: (value: unknown) => boolean,
): { inputs: Inputs; failures: CheckFailure[]; warnings: string[] } {
  const failures = unknownInputs(news);
  const inputs: Inputs = {};
  for (const [name, value] of Object.entries(news)) if (engineKeys.has(name)) inputs[name] = value;
  for (const name of Object.keys(ProviderInputs.shape) as SettingName[]) {
    const given = news[name];
    if (given === undefined || given === null) {
      const failure = fallbackFailure(name, env);
      if (failure !== undefined) failures.push(failure);
    } else if (isUnknown(given)) {
      inputs[name] = given;
    } else {
      const parsed = ProviderInputs.shape[name].safeParse(given);
      if (parsed.success) inputs[name] = parsed.data;
      else {
        const shown = name === "apiKey" ? "" : ` (${JSON.stringify(given)})`;
        failures.push({ property: name, reason: `${firstIssue(parsed.error)}${shown}` });
      }
    }
  }
  return { inputs, failures, warnings: missingKeyWarnings(news, env) };
}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "is not valid";
}

/** Names no input of the provider has: each named, with the one it probably meant. */
function unknownInputs(news: Inputs): CheckFailure[] {
  const known = Object.keys(ProviderInputs.shape);
  return Object.keys(news)
    .filter((name) => !engineKeys.has(name) && !known.includes(name))
    .map((name) => ({
      property: name,
      reason: `is not an input of the voiceplatform provider${suggestion(name, known)}; remove it or fix its name`,
    }));
}

/** An input left out whose environment variable holds a value that cannot be used. */
function fallbackFailure(name: SettingName, env: NodeJS.ProcessEnv): CheckFailure | undefined {
  const { env: variable } = settingSources[name];
  const fallback = env[variable];
  if (fallback === undefined || fallback.trim() === "") return undefined;
  const parsed = ProviderInputs.shape[name].safeParse(fallback);
  if (parsed.success) return undefined;
  const shown = name === "apiKey" ? "[redacted]" : fallback;
  return {
    property: name,
    reason: `is not set, and its fallback ${variable} is "${shown}", which ${firstIssue(parsed.error)}: fix or unset ${variable}`,
  };
}

/** Not a failure: a stack whose resources need no call (destroy, refresh) works without a key. */
function missingKeyWarnings(news: Inputs, env: NodeJS.ProcessEnv): string[] {
  const keyVariable = settingSources.apiKey.env;
  if ((news.apiKey !== undefined && news.apiKey !== null) || env[keyVariable]?.trim()) return [];
  return [
    `the voiceplatform provider has no apiKey and ${keyVariable} is not set, so every call to the platform will fail: ` +
      `give the provider an apiKey input (the default provider: \`pulumi config set --secret voiceplatform:apiKey <key>\`), or export ${keyVariable}`,
  ];
}

/**
 * What a change of the provider's inputs means. Nothing replaces the provider: replacing it would
 * replace every resource it manages, and the API can delete none of them, so each would be
 * created a second time. A new apiKey is the same organization's new key. A new baseUrl or
 * campaignsBaseUrl is a new address of the same platform; moving resources to another platform
 * takes a second provider and new resources. A new subOrganizationId is recorded by each resource
 * that names none when it is checked, and the resource's own diff replaces it there.
 */
export function diffProviderConfig(
  olds: Inputs,
  news: Inputs,
): { changed: string[]; replaces: string[] } {
  const names = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const changed = [...names].filter(
    (name) => !engineKeys.has(name) && JSON.stringify(olds[name]) !== JSON.stringify(news[name]),
  );
  return { changed: changed.sort(), replaces: [] };
}

/**
 * Configure: the checked inputs become the provider's settings, by name. `providerUrn` says whose
 * they are (an explicit provider's inputs, or the stack config given to the default provider).
 */
export function configureProvider(
  settings: SettingsSource,
  inputs: Inputs,
  providerUrn = "",
): void {
  const given: Partial<Record<SettingName, string | number>> = {};
  for (const name of Object.keys(ProviderInputs.shape) as SettingName[]) {
    const value = inputs[name];
    if (typeof value === "string" || typeof value === "number") given[name] = value;
  }
  rememberProviderSettings(settings, given, providerUrn);
}
