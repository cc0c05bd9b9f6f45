import { parseArgs } from "node:util";
import { startEmulator, type StartEmulatorOptions } from "./index";

const USAGE = `Usage: npm run emulator -- [--port 4010] [--campaigns-port 4011] [--api-key KEY]
  [--sub-org ID]... [--state FILE] [--latency-ms N] [--rate-limit N] [--seed N]
--port 0 picks free ports (for both origins unless --campaigns-port is given).`;

function integerOption(name: string, value: string | undefined, minimum: number) {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^-?\d+$/.test(value) || parsed < minimum) {
    throw new Error(`--${name} must be an integer >= ${minimum}; got "${value}"`);
  }
  return parsed;
}

function optionsFromArgs(args: string[]): StartEmulatorOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: "string", default: "4010" },
      "campaigns-port": { type: "string" },
      "api-key": { type: "string", default: "emulator-key" },
      "sub-org": { type: "string", multiple: true, default: [] },
      state: { type: "string" },
      "latency-ms": { type: "string" },
      "rate-limit": { type: "string" },
      seed: { type: "string" },
    },
  });
  const port = integerOption("port", values.port, 0) ?? 4010;
  const defaultCampaignsPort = port === 0 ? 0 : 4011;
  return {
    port,
    campaignsPort:
      integerOption("campaigns-port", values["campaigns-port"], 0) ?? defaultCampaignsPort,
    apiKey: values["api-key"],
    subOrganizationIds: values["sub-org"],
    stateFile: values.state,
    latencyMs: integerOption("latency-ms", values["latency-ms"], 0),
    rateLimit: integerOption("rate-limit", values["rate-limit"], 1),
    seed: integerOption("seed", values.seed, Number.MIN_SAFE_INTEGER),
  };
}

async function main(): Promise<void> {
  let options: StartEmulatorOptions;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const emulator = await startEmulator(options);
  process.stdout.write(`${emulator.baseUrl}\n${emulator.campaignsBaseUrl}\n`);
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
