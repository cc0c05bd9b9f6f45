/**
 * The provider's own inputs (`pulumi:providers:voiceplatform`): their schema, CheckConfig and
 * DiffConfig. An explicit provider passes them as resource inputs; the default provider gets the
 * stack's `voiceplatform:*` config under the same names. Whatever is left out falls back to the
 * same environment variable as the dynamic resources, read when a call needs it.
 */
import { z } from "zod";
import {
  authSchemeProblem,
  baseUrlProblem,
  controlCharacterProblem,
  countProblem,
  countRule,
  settingBounds,
  type CountSetting,
} from "../settings/setting-rules";
import { suggestion } from "../core/check";
import type { CheckFailure, Inputs } from "../core/resource-descriptor";
import { rememberProviderSettings, settingSources, type SettingName } from "../settings/config";

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

/** Text sent in a header: a control character would split or corrupt the request. */
function headerText(empty: string, extraRule?: (value: string) => string | undefined) {
  return z
    .string()
    .trim()
    .min(1, empty)
    .superRefine((value, context) => {
      const problem = controlCharacterProblem(value) ?? extraRule?.(value);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    });
}

/** The provider's inputs, validated. Every one is optional: each has an environment fallback. */
export const ProviderInputs = z.strictObject({
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
  const failures: CheckFailure[] = [];
  const warnings: string[] = [];
  const inputs: Inputs = {};
  const shape = ProviderInputs.shape;
  for (const [name, value] of Object.entries(news)) {
    if (engineKeys.has(name)) {
      inputs[name] = value;
      continue;
    }
    if (!Object.hasOwn(shape, name)) {
      failures.push({
        property: name,
        reason: `is not an input of the voiceplatform provider${suggestion(name, Object.keys(shape))}; remove it or fix its name`,
      });
    }
  }
  for (const name of Object.keys(shape) as (keyof typeof shape)[]) {
    const given = news[name];
    if (given === undefined || given === null) {
      const { env: variable } = settingSources[name];
      const fallback = env[variable];
      if (fallback === undefined || fallback.trim() === "") continue;
      const parsed = shape[name].safeParse(fallback);
      if (!parsed.success) {
        failures.push({
          property: name,
          reason: `is not set, and its fallback ${variable} is "${name === "apiKey" ? "[redacted]" : fallback}", which ${parsed.error.issues[0]?.message ?? "is not valid"}: fix or unset ${variable}`,
        });
      }
      continue;
    }
    if (isUnknown(given)) {
      inputs[name] = given;
      continue;
    }
    const parsed = shape[name].safeParse(given);
    if (parsed.success) inputs[name] = parsed.data;
    else {
      const shown = name === "apiKey" ? "" : ` (${JSON.stringify(given)})`;
      failures.push({
        property: name,
        reason: `${parsed.error.issues[0]?.message ?? "is not valid"}${shown}`,
      });
    }
  }
  const keyVariable = settingSources.apiKey.env;
  if ((news.apiKey === undefined || news.apiKey === null) && !env[keyVariable]?.trim()) {
    // Not a failure: a stack whose resources need no call (destroy, refresh) works without one.
    warnings.push(
      `the voiceplatform provider has no apiKey and ${keyVariable} is not set, so every call to the platform will fail: ` +
        `give the provider an apiKey input (the default provider: \`pulumi config set --secret voiceplatform:apiKey <key>\`), or export ${keyVariable}`,
    );
  }
  return { inputs, failures, warnings };
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

/** Configure: the checked inputs become the provider's settings, by name. */
export function configureProvider(inputs: Inputs): void {
  const given: Partial<Record<SettingName, string | number>> = {};
  for (const name of Object.keys(ProviderInputs.shape) as SettingName[]) {
    const value = inputs[name];
    if (typeof value === "string" || typeof value === "number") given[name] = value;
  }
  rememberProviderSettings(given);
}
