/**
 * What a provider was given to read settings from, and the settings last parsed from it
 * (config.ts reads them, at call time). Each provider has one, among its states
 * (process-state.ts's `providerSettings`); the front ends hand it down in each call's context.
 */

export interface SettingsSource {
  /** What the engine passed to `configure`: stack config with secrets already decrypted. */
  engineConfig: Readonly<Record<string, string | undefined>>;
  /** What the plugin's Configure was given, already checked: these settings are used as they are. */
  givenSettings: Readonly<Record<string, string | number | undefined>>;
  /** The explicit provider whose inputs givenSettings are; undefined for the default provider. */
  explicitProvider: string | undefined;
  /** The settings last parsed, with the raw values they came from. */
  lastSettings: { readonly raw: string; readonly settings: object } | undefined;
}

/** A provider's settings before `configure`: every setting from its environment variable. */
export function freshSettingsSource(): SettingsSource {
  return {
    engineConfig: {},
    givenSettings: {},
    explicitProvider: undefined,
    lastSettings: undefined,
  };
}
