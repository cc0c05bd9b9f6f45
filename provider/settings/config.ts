/**
 * Provider configuration. This is the one place settings are read, and they are read at call
 * time: the engine hands stack config to `configure` once per provider process, and environment
 * variables are read fresh on every call so `destroy`/`refresh` see the current ones.
 */

import type { Inputs } from "../core/resource-descriptor";
import { ConfigurationError } from "../platform/errors";
import { processState } from "./process-state";
import {
  authSchemeProblem,
  baseUrlProblem,
  controlCharacterProblem,
  countProblem,
  countRule,
  settingBounds,
  type CountSetting,
} from "./setting-rules";

/**
 * Each setting: its stack config key, its environment variable, whether it is secret, and its
 * one-line description, which the plugin's schema gives its provider input and stack config.
 */
export const settingSources = {
  apiKey: {
    key: "voiceplatform:apiKey",
    env: "VOICEPLATFORM_API_KEY",
    secret: true,
    description: "The platform's API key, sent in the Authorization header. Stored as a secret.",
  },
  baseUrl: {
    key: "voiceplatform:baseUrl",
    env: "VOICEPLATFORM_BASE_URL",
    description: "Address of the voice and SIP API, e.g. https://api.example.com.",
  },
  campaignsBaseUrl: {
    key: "voiceplatform:campaignsBaseUrl",
    env: "VOICEPLATFORM_CAMPAIGNS_BASE_URL",
    description: "Address of the campaigns API, where webhooks are subscribed.",
  },
  subOrganizationId: {
    key: "voiceplatform:subOrganizationId",
    env: "VOICEPLATFORM_SUB_ORGANIZATION_ID",
    description: "Sub-organization to act for when a resource does not name its own.",
  },
  authScheme: {
    key: "voiceplatform:authScheme",
    env: "VOICEPLATFORM_AUTH_SCHEME",
    description: "Scheme written before the key in the Authorization header, e.g. Bearer.",
  },
  timeoutSeconds: {
    key: "voiceplatform:timeoutSeconds",
    env: "VOICEPLATFORM_TIMEOUT_SECONDS",
    description: `Deadline of one attempt of a call, in seconds, ${settingBounds.timeoutSeconds.min} to ${settingBounds.timeoutSeconds.max} (default 60).`,
  },
  maxRetries: {
    key: "voiceplatform:maxRetries",
    env: "VOICEPLATFORM_MAX_RETRIES",
    description: `How often a failed call is tried again when that is safe, ${settingBounds.maxRetries.min} to ${settingBounds.maxRetries.max} (default 5).`,
  },
  maxConcurrency: {
    key: "voiceplatform:maxConcurrency",
    env: "VOICEPLATFORM_MAX_CONCURRENCY",
    description: `Most calls to the platform in flight at once, per process, ${settingBounds.maxConcurrency.min} to ${settingBounds.maxConcurrency.max} (default 16).`,
  },
} as const;

function sourceOf(name: SettingName) {
  return { setting: name, ...settingSources[name] };
}

export type SettingName = keyof typeof settingSources;

/** Settings whose values are secret: marked secret in the schema and in CheckConfig's answer. */
export const secretSettings = (Object.keys(settingSources) as SettingName[]).filter(
  (name) => "secret" in settingSources[name] && settingSources[name].secret,
);

export const settingDefaults = {
  timeoutSeconds: 60,
  maxRetries: 5,
  maxConcurrency: 16,
} as const;

export interface Settings {
  readonly apiKey: string | undefined;
  readonly baseUrl: string | undefined;
  readonly campaignsBaseUrl: string | undefined;
  readonly subOrganizationId: string | undefined;
  readonly authScheme: string | undefined;
  readonly timeoutSeconds: number;
  readonly maxRetries: number;
  readonly maxConcurrency: number;
}

/** Called from the provider's `configure`; keeps only this provider's keys. */
export function rememberEngineConfig(config: { get(key: string): string | undefined }): void {
  const kept: Record<string, string | undefined> = {};
  for (const { key } of Object.values(settingSources)) kept[key] = config.get(key);
  const state = processState();
  state.engineConfig = kept;
  state.givenSettings = {};
}

/**
 * Called from the plugin's Configure with the provider's checked inputs (provider-config): they
 * are the settings. Those left out fall back to their environment variables, read at call time.
 */
export function rememberProviderSettings(
  given: Readonly<Partial<Record<SettingName, string | number>>>,
): void {
  const state = processState();
  state.engineConfig = {};
  state.givenSettings = given;
  state.lastSettings = undefined;
}

function readRaw(name: SettingName, env: NodeJS.ProcessEnv): string | undefined {
  const given = processState().givenSettings[name];
  if (given !== undefined) return String(given);
  const { key, env: variable } = settingSources[name];
  const value = processState().engineConfig[key] ?? env[variable];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function readCount(name: CountSetting, env: NodeJS.ProcessEnv): number {
  const raw = readRaw(name, env);
  if (raw === undefined) return settingDefaults[name];
  const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (countProblem(name, value) !== undefined)
    throw ConfigurationError.breaks(sourceOf(name), raw, countRule(name));
  return value;
}

function readUrl(name: "baseUrl" | "campaignsBaseUrl", env: NodeJS.ProcessEnv): string | undefined {
  const raw = readRaw(name, env);
  if (raw === undefined) return undefined;
  const problem = baseUrlProblem(raw);
  if (problem !== undefined) throw ConfigurationError.breaks(sourceOf(name), raw, problem);
  return raw.replace(/\/+$/, "");
}

/** Text sent in a header: no control characters, and for the scheme, one word. */
function readHeaderText(
  name: "apiKey" | "authScheme" | "subOrganizationId",
  env: NodeJS.ProcessEnv,
): string | undefined {
  const raw = readRaw(name, env);
  if (raw === undefined) return undefined;
  const problem =
    controlCharacterProblem(raw) ?? (name === "authScheme" ? authSchemeProblem(raw) : undefined);
  if (problem !== undefined) throw ConfigurationError.breaks(sourceOf(name), raw, problem);
  return raw;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  // Every raw value is read now; only the parsing of unchanged values is reused.
  const raw = (Object.keys(settingSources) as SettingName[])
    .map((name) => readRaw(name, env) ?? "\u0000")
    .join("\u0001");
  // The settings parsed from the last raw values seen: parsing is skipped while they stay the same.
  const last = processState().lastSettings;
  if (last?.raw === raw) return last.settings as Settings;
  const settings: Settings = {
    apiKey: readHeaderText("apiKey", env),
    baseUrl: readUrl("baseUrl", env),
    campaignsBaseUrl: readUrl("campaignsBaseUrl", env),
    subOrganizationId: readHeaderText("subOrganizationId", env),
    authScheme: readHeaderText("authScheme", env),
    timeoutSeconds: readCount("timeoutSeconds", env),
    maxRetries: readCount("maxRetries", env),
    maxConcurrency: readCount("maxConcurrency", env),
  };
  processState().lastSettings = { raw, settings };
  return settings;
}

/** The error for a setting that a call needs and nobody set, naming both ways to set it. */
export function missingSetting(name: SettingName, neededFor: string): ConfigurationError {
  return ConfigurationError.missing(sourceOf(name), neededFor);
}

/**
 * A resource without its own subOrganizationId acts for the stack's default one, and the state
 * records which: moving the default later replaces what lives in the old sub-organization.
 */
export function withDefaultSubOrganization(inputs: Inputs): Inputs {
  if (inputs.subOrganizationId !== undefined) return inputs;
  const fallback = readSettings().subOrganizationId;
  return fallback === undefined ? inputs : { ...inputs, subOrganizationId: fallback };
}
