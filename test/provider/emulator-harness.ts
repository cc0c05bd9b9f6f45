import {
  startEmulator,
  type RunningEmulator,
  type StartEmulatorOptions,
} from "../../provider/emulator";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import type { SettingsSource } from "../../provider/settings/settings-state";
import { processSettings } from "../support/call-context";

/**
 * Gives the provider these stack config values (keys without the `voiceplatform:` namespace), as
 * the engine does before a call.
 */
export function setStackConfig(
  values: Record<string, string | undefined>,
  settings: SettingsSource = processSettings(),
): void {
  rememberEngineConfig(settings, { get: (key) => values[key.replace(/^voiceplatform:/, "")] });
}

/** Where the provider is pointed: an emulator, or any server standing in for the platform. */
export interface PlatformEndpoint {
  apiKey: string;
  baseUrl: string;
  campaignsBaseUrl?: string;
}

/**
 * Points the provider at `endpoint` (its key and both base URLs) through the same `configure`
 * path the engine uses; `settings` are more stack config values without namespace, and win.
 */
export function configureAgainst(
  endpoint: PlatformEndpoint,
  settings: Record<string, string | undefined> = {},
  source?: SettingsSource,
): void {
  setStackConfig(
    {
      apiKey: endpoint.apiKey,
      baseUrl: endpoint.baseUrl,
      campaignsBaseUrl: endpoint.campaignsBaseUrl,
      ...settings,
    },
    source,
  );
}

/**
 * Starts an emulator for a test file and points the provider at it through the same
 * `configure` path the engine uses. `settings` are extra stack config values, without namespace.
 */
export function useEmulator(
  options: StartEmulatorOptions = {},
  settings: Record<string, string> = {},
) {
  const context = {} as {
    emulator: RunningEmulator;
    /** Configures the process's own provider, or the one reading its settings from `source`. */
    configure(extra?: Record<string, string>, source?: SettingsSource): void;
  };
  beforeAll(async () => {
    context.emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await resetProcessState();
    await context.emulator.stop();
  });
  context.configure = (extra: Record<string, string> = {}, source?: SettingsSource) =>
    configureAgainst(context.emulator, { ...settings, ...extra }, source);
  beforeEach(async () => {
    await context.emulator.reset();
    context.configure();
  });
  return context;
}
