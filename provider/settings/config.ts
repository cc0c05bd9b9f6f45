/**
 * Provider configuration. This is the one place settings are read, and they are read at call
 * time: the engine hands stack config to `configure` once per provider process, and environment
 * variables are read fresh on every call so `destroy`/`refresh` see the current ones.
 */

/** How each setting is named in stack config and in the environment. */
export const settingSources = {
  apiKey: { key: "voiceplatform:apiKey", env: "VOICEPLATFORM_API_KEY" },
  baseUrl: { key: "voiceplatform:baseUrl", env: "VOICEPLATFORM_BASE_URL" },
  campaignsBaseUrl: {
    key: "voiceplatform:campaignsBaseUrl",
    env: "VOICEPLATFORM_CAMPAIGNS_BASE_URL",
  },
  subOrganizationId: {
    key: "voiceplatform:subOrganizationId",
    env: "VOICEPLATFORM_SUB_ORGANIZATION_ID",
  },
  authScheme: { key: "voiceplatform:authScheme", env: "VOICEPLATFORM_AUTH_SCHEME" },
  timeoutSeconds: { key: "voiceplatform:timeoutSeconds", env: "VOICEPLATFORM_TIMEOUT_SECONDS" },
  maxRetries: { key: "voiceplatform:maxRetries", env: "VOICEPLATFORM_MAX_RETRIES" },
  maxConcurrency: { key: "voiceplatform:maxConcurrency", env: "VOICEPLATFORM_MAX_CONCURRENCY" },
} as const;

export type SettingName = keyof typeof settingSources;

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

/** What the engine passed to `configure`: stack config with secrets already decrypted. */
let engineConfig: Readonly<Record<string, string | undefined>> = {};

/** Called from the provider's `configure`; keeps only this provider's keys. */
export function rememberEngineConfig(config: { get(key: string): string | undefined }): void {
  const kept: Record<string, string | undefined> = {};
  for (const { key } of Object.values(settingSources)) kept[key] = config.get(key);
  engineConfig = kept;
}

export function forgetEngineConfig(): void {
  engineConfig = {};
}

function readRaw(name: SettingName, env: NodeJS.ProcessEnv): string | undefined {
  const { key, env: variable } = settingSources[name];
  const value = engineConfig[key] ?? env[variable];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function readCount(
  name: "timeoutSeconds" | "maxRetries" | "maxConcurrency",
  env: NodeJS.ProcessEnv,
  minimum: number,
): number {
  const raw = readRaw(name, env);
  if (raw === undefined) return settingDefaults[name];
  const value = Number(raw);
  if (
    !Number.isFinite(value) ||
    value < minimum ||
    (name !== "timeoutSeconds" && !Number.isInteger(value))
  ) {
    const { key, env: variable } = settingSources[name];
    throw new Error(
      `${key} (or ${variable}) is "${raw}", which is not a valid ${name}: ` +
        `use a ${name === "timeoutSeconds" ? "number" : "whole number"} of at least ${minimum}.`,
    );
  }
  return value;
}

function readUrl(name: "baseUrl" | "campaignsBaseUrl", env: NodeJS.ProcessEnv): string | undefined {
  const raw = readRaw(name, env);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = new URL("invalid:");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    const { key, env: variable } = settingSources[name];
    throw new Error(
      `${key} (or ${variable}) is "${raw}", which is not an absolute http(s) URL: ` +
        `set it to the platform's address, e.g. https://api.example.com.`,
    );
  }
  return raw.replace(/\/+$/, "");
}

/** The settings parsed from the last raw values seen: parsing is skipped while they stay the same. */
let lastParsed: { readonly raw: string; readonly settings: Settings } | undefined;

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  // Every raw value is read now; only the parsing of unchanged values is reused.
  const raw = (Object.keys(settingSources) as SettingName[])
    .map((name) => readRaw(name, env) ?? "\u0000")
    .join("\u0001");
  if (lastParsed?.raw === raw) return lastParsed.settings;
  const settings: Settings = {
    apiKey: readRaw("apiKey", env),
    baseUrl: readUrl("baseUrl", env),
    campaignsBaseUrl: readUrl("campaignsBaseUrl", env),
    subOrganizationId: readRaw("subOrganizationId", env),
    authScheme: readRaw("authScheme", env),
    timeoutSeconds: readCount("timeoutSeconds", env, 1),
    maxRetries: readCount("maxRetries", env, 0),
    maxConcurrency: readCount("maxConcurrency", env, 1),
  };
  lastParsed = { raw, settings };
  return settings;
}

/** The message for a setting that a call needs and nobody set, naming both ways to set it. */
export function missingSettingMessage(name: SettingName, neededFor: string): string {
  const { key, env } = settingSources[name];
  const secret = name === "apiKey" ? " --secret" : "";
  return (
    `${key} is not set, and ${neededFor} needs it. Set it with ` +
    `\`pulumi config set${secret} ${key} <value>\`, or export ${env}.`
  );
}
