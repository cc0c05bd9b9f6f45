/**
 * Provider configuration. This is the one place settings are read, and they are read at call
 * time: the engine hands stack config to `configure` once per provider process, and environment
 * variables are read fresh on every call so `destroy`/`refresh` see the current ones.
 */

import { z } from "zod";
import { ConfigurationError } from "./errors";
import type { SettingsSource } from "./settings-state";
import {
  authSchemeProblem,
  baseUrlProblem,
  countProblem,
  countRule,
  headerValueProblem,
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

/** One description per setting, for the input and the stack config alike. */
const describedAs = (name: SettingName) => ({ description: settingSources[name].description });

/** A count given as a number, or as the string stack config always is, within its bounds. */
function count(name: CountSetting) {
  const rule = countRule(name);
  const whole = settingBounds[name].whole;
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, rule),
    ])
    .transform(Number)
    .pipe(z.number().refine((value) => countProblem(name, value) === undefined, rule))
    .meta({ ...describedAs(name), pulumiType: whole ? "integer" : "number" });
}

function url(name: "baseUrl" | "campaignsBaseUrl") {
  return z
    .string()
    .trim()
    .superRefine((value, context) => {
      const problem = baseUrlProblem(value);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    })
    .meta(describedAs(name));
}

/**
 * Text sent in a header, as the header can carry it (headerValueProblem): never trimmed, so a key
 * with a space or line break at either end is refused rather than silently changed.
 */
function headerText(empty: string, extraRule?: (value: string) => string | undefined) {
  return z.string().superRefine((value, context) => {
    // Blank is empty; any other value with white space at either end is refused as it is.
    const problem = value.trim() === "" ? empty : (headerValueProblem(value) ?? extraRule?.(value));
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  });
}

/**
 * The one settings schema: stack config and environment variables (text) and the plugin's
 * provider inputs (text or numbers) all parse through it. Every setting is optional: each has
 * an environment fallback, and the counts a default.
 */
export const SettingsSchema = z.strictObject({
  apiKey: headerText("must not be empty: give the organization's API key, or leave it out")
    .meta(describedAs("apiKey"))
    .optional(),
  baseUrl: url("baseUrl").optional(),
  campaignsBaseUrl: url("campaignsBaseUrl").optional(),
  subOrganizationId: headerText("must not be empty: remove it or give a sub-organization id")
    .meta(describedAs("subOrganizationId"))
    .optional(),
  authScheme: headerText(
    "must not be empty: remove it or give a scheme such as Bearer",
    authSchemeProblem,
  )
    .meta(describedAs("authScheme"))
    .optional(),
  timeoutSeconds: count("timeoutSeconds").optional(),
  maxRetries: count("maxRetries").optional(),
  maxConcurrency: count("maxConcurrency").optional(),
});

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

/** Called from the provider's `configure`; keeps only this provider's keys, in its `source`. */
export function rememberEngineConfig(
  source: SettingsSource,
  config: { get(key: string): string | undefined },
): void {
  const kept: Record<string, string | undefined> = {};
  for (const { key } of Object.values(settingSources)) kept[key] = config.get(key);
  const state = source;
  state.engineConfig = kept;
  state.givenSettings = {};
  state.explicitProvider = undefined;
}

/**
 * Called from the plugin's Configure with the provider's checked inputs (provider-config): they
 * are the settings. Those left out fall back to their environment variables, read at call time.
 * `providerUrn` tells an explicit provider, whose inputs these are, from the default provider,
 * which the engine gives the stack config under the same names.
 */
export function rememberProviderSettings(
  source: SettingsSource,
  given: Readonly<Partial<Record<SettingName, string | number>>>,
  providerUrn = "",
): void {
  const state = source;
  state.engineConfig = {};
  state.givenSettings = given;
  state.explicitProvider = explicitProviderName(providerUrn);
  state.lastSettings = undefined;
}

/**
 * The name of an explicit provider from its URN; undefined for a default provider (named
 * `default` or `default_<version>` by the engine) or when the URN is not known.
 */
function explicitProviderName(urn: string): string | undefined {
  const name = urn.split("::").at(-1) ?? "";
  return name === "" || /^default(_\d+_\d+_\d+\w*)?$/.test(name) ? undefined : name;
}

/** Where a value came from: an explicit provider's input, the stack config, the environment. */
type SettingOrigin = "provider input" | "stack config" | "environment";

interface RawSetting {
  readonly value: string;
  readonly origin: SettingOrigin;
}

/** A setting as it was given, untrimmed; an empty value is no value. */
function readRaw(
  source: SettingsSource,
  name: SettingName,
  env: NodeJS.ProcessEnv,
): RawSetting | undefined {
  const state = source;
  const given = state.givenSettings[name];
  if (given !== undefined) {
    const origin = state.explicitProvider === undefined ? "stack config" : "provider input";
    return { value: String(given), origin };
  }
  const { key, env: variable } = settingSources[name];
  const configured = state.engineConfig[key];
  const [value, origin]: [string | undefined, SettingOrigin] =
    configured !== undefined ? [configured, "stack config"] : [env[variable], "environment"];
  return value === undefined || value.trim() === "" ? undefined : { value, origin };
}

/**
 * Where the value of setting `name` in use comes from, as a message names it: the explicit
 * provider's input, the stack config key, or the environment variable; undefined when unset.
 */
export function settingOrigin(
  source: SettingsSource,
  name: SettingName,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const raw = readRaw(source, name, env);
  if (raw === undefined) return undefined;
  const { key, env: variable } = settingSources[name];
  switch (raw.origin) {
    case "provider input":
      return `the \`${name}\` input of the explicit provider "${source.explicitProvider}" (the SDKs fill it from ${variable} when the program leaves it out)`;
    case "stack config":
      return `the stack config key ${key}`;
    case "environment":
      return `the environment variable ${variable}`;
  }
}

/** A setting's value parsed by the settings schema, or the error naming where it was set. */
function readSetting<Name extends SettingName>(
  source: SettingsSource,
  name: Name,
  env: NodeJS.ProcessEnv,
): z.output<(typeof SettingsSchema.shape)[Name]> | undefined {
  const raw = readRaw(source, name, env)?.value;
  if (raw === undefined) return undefined;
  const parsed = SettingsSchema.shape[name].safeParse(raw);
  if (!parsed.success) {
    throw ConfigurationError.breaks(
      sourceOf(name),
      raw,
      parsed.error.issues[0]?.message ?? "is not valid",
    );
  }
  return parsed.data as z.output<(typeof SettingsSchema.shape)[Name]>;
}

/** The settings of the provider whose settings `source` holds, as they are now. */
export function readSettings(
  source: SettingsSource,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  // Every raw value is read now; only the parsing of unchanged values is reused.
  const raw = (Object.keys(settingSources) as SettingName[])
    .map((name) => readRaw(source, name, env)?.value ?? "\u0000")
    .join("\u0001");
  // The settings parsed from the last raw values seen: parsing is skipped while they stay the same.
  const last = source.lastSettings;
  if (last?.raw === raw) return last.settings as Settings;
  const settings: Settings = {
    apiKey: readSetting(source, "apiKey", env),
    baseUrl: readSetting(source, "baseUrl", env)?.replace(/\/+$/, ""),
    campaignsBaseUrl: readSetting(source, "campaignsBaseUrl", env)?.replace(/\/+$/, ""),
    subOrganizationId: readSetting(source, "subOrganizationId", env),
    authScheme: readSetting(source, "authScheme", env),
    timeoutSeconds: readSetting(source, "timeoutSeconds", env) ?? settingDefaults.timeoutSeconds,
    maxRetries: readSetting(source, "maxRetries", env) ?? settingDefaults.maxRetries,
    maxConcurrency: readSetting(source, "maxConcurrency", env) ?? settingDefaults.maxConcurrency,
  };
  source.lastSettings = { raw, settings };
  return settings;
}

/** The error for a setting that a call needs and nobody set, naming both ways to set it. */
export function missingSetting(name: SettingName, neededFor: string): ConfigurationError {
  return ConfigurationError.missing(sourceOf(name), neededFor);
}

/**
 * Variables the engine hands every provider process (Pulumi CLI 3.247 and later, from a Pulumi
 * Cloud login; any process may inherit them from the shell too): the backend's token and address.
 * The provider never uses them, and no message or log of it may show their values.
 */
export const engineCredentialVariables = ["PULUMI_ACCESS_TOKEN", "PULUMI_API"] as const;

/** The values of `engineCredentialVariables` set now: secrets for redaction. */
export function engineCredentials(env: NodeJS.ProcessEnv = process.env): string[] {
  return engineCredentialVariables
    .map((name) => env[name])
    .filter((value): value is string => value !== undefined && value !== "");
}
