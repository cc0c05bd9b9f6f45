import { startEmulator, type RunningEmulator, type StartEmulatorOptions } from "../emulator";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";

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
    rememberEngineConfig({ get: (key) => values[key.replace(/^voiceplatform:/, "")] });
  };
  beforeEach(async () => {
    await context.emulator.client.reset();
    context.configure();
  });
  return context;
}
