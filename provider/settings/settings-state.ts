/**
 * What this process was given to read settings from, and the settings last parsed from it
 * (config.ts reads them, at call time).
 */
import { stateSlot } from "./process-state";

interface SettingsState {
  /** What the engine passed to `configure`: stack config with secrets already decrypted. */
  engineConfig: Readonly<Record<string, string | undefined>>;
  /** What the plugin's Configure was given, already checked: these settings are used as they are. */
  givenSettings: Readonly<Record<string, string | number | undefined>>;
  /** The explicit provider whose inputs givenSettings are; undefined for the default provider. */
  explicitProvider: string | undefined;
  /** The settings last parsed, with the raw values they came from. */
  lastSettings: { readonly raw: string; readonly settings: object } | undefined;
}

function fresh(): SettingsState {
  return {
    engineConfig: {},
    givenSettings: {},
    explicitProvider: undefined,
    lastSettings: undefined,
  };
}

const state = stateSlot(fresh);

export function settingsState(): SettingsState {
  return state();
}
