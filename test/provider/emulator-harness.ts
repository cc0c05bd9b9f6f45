import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../emulator";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";

/**
 * Gives the provider these stack config values (keys without the `voiceplatform:` namespace), as
 * the engine does before a call.
 */
export function setStackConfig(values: Record<string, string | undefined>): void {
  rememberEngineConfig({ get: (key) => values[key.replace(/^voiceplatform:/, "")] });
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
    configure(extra?: Record<string, string>): void;
  };
  beforeAll(async () => {
    context.emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await resetProcessState();
    await context.emulator.close();
  });
  context.configure = (extra: Record<string, string> = {}) => {
    const { emulator } = context;
    const values: Record<string, string> = {
      apiKey: emulator.apiKey,
      baseUrl: emulator.baseUrl,
      campaignsBaseUrl: emulator.campaignsBaseUrl,
      ...settings,
      ...extra,
    };
    setStackConfig(values);
  };
  beforeEach(async () => {
    await context.emulator.client.reset();
    context.configure();
  });
  return context;
}
