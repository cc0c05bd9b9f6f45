/**
 * `pulumi-voice-platform emulator`: the platform emulator (provider/emulator) as a command. It
 * prints the two base URLs as environment lines on stdout once it listens, serves until SIGINT or
 * SIGTERM, then closes both origins and exits 0.
 */
import { parseArgs } from "node:util";
import {
  DEFAULT_API_KEY,
  DEFAULT_ORGANIZATION_ID,
  faultProfileNames,
  startEmulator,
  type FaultProfileName,
  type StartEmulatorOptions,
} from "../../emulator";
import { UsageError } from "../errors";
import { EXIT } from "./command-result";

const DEFAULT_PORT = 4010;
const DEFAULT_CAMPAIGNS_PORT = 4011;

const options = {
  port: { type: "string" },
  "campaigns-port": { type: "string" },
  "api-key": { type: "string" },
  "sub-org": { type: "string", multiple: true },
  state: { type: "string" },
  faults: { type: "string" },
  answers: { type: "string" },
  "latency-ms": { type: "string" },
  "rate-limit": { type: "string" },
  seed: { type: "string" },
} as const;

/** The emulator's options as its command line gives them: fault profiles by name only. */
type CommandOptions = StartEmulatorOptions & { faults?: FaultProfileName[] };

/** The emulator's options from its command line; a UsageError names the flag and the fix. */
export function emulatorOptions(argv: readonly string[]): CommandOptions {
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }));
  } catch (error) {
    throw new UsageError(`emulator: ${(error as Error).message}`);
  }
  const port = integerFlag("port", values.port, 0, 65535) ?? DEFAULT_PORT;
  const apiKey = values["api-key"];
  if (apiKey !== undefined && !/^\S+$/.test(apiKey)) {
    throw new UsageError("emulator: --api-key is empty or holds a space; give the key alone");
  }
  return {
    port,
    campaignsPort:
      integerFlag("campaigns-port", values["campaigns-port"], 0, 65535) ??
      (port === 0 ? 0 : DEFAULT_CAMPAIGNS_PORT),
    apiKey,
    subOrganizationIds: values["sub-org"],
    stateFile: values.state,
    faults: profilesFlag(values.faults),
    answers: answersFlag(values.answers),
    latencyMs: integerFlag("latency-ms", values["latency-ms"], 0),
    rateLimit: integerFlag("rate-limit", values["rate-limit"], 1),
    seed: integerFlag("seed", values.seed, Number.MIN_SAFE_INTEGER),
  };
}

function integerFlag(
  name: string,
  value: string | undefined,
  minimum: number,
  maximum = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^-?\d+$/.test(value) || parsed < minimum || parsed > maximum) {
    throw new UsageError(
      `emulator: --${name} must be an integer from ${minimum} to ${maximum}; got "${value}"`,
    );
  }
  return parsed;
}

function profilesFlag(value: string | undefined): FaultProfileName[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((name) => {
    const known = faultProfileNames.find((profile) => profile === name.trim());
    if (known === undefined) {
      throw new UsageError(
        `emulator: --faults names no profile "${name}"; use one or more of ` +
          `${faultProfileNames.join(", ")}, separated by commas`,
      );
    }
    return known;
  });
}

function answersFlag(value: string | undefined): "spec" | "extended" | undefined {
  if (value === undefined || value === "spec" || value === "extended") return value;
  throw new UsageError(`emulator: --answers must be spec or extended; got "${value}"`);
}

/**
 * Starts the emulator and serves until a signal: resolves with the exit status once it stopped
 * (0), or could not start (1: a port in use, a state file it cannot read).
 */
export async function runEmulator(argv: readonly string[]): Promise<number> {
  const startOptions = emulatorOptions(argv);
  // Listened for before anything is printed: a script may signal as soon as it reads the URLs.
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  let emulator;
  try {
    emulator = await startEmulator(startOptions);
  } catch (error) {
    process.stderr.write(`pulumi-voice-platform emulator: ${startFailure(error, startOptions)}\n`);
    return EXIT.refused;
  }
  process.stderr.write(`${readyLine(startOptions, emulator.baseUrl)}\n`);
  // Last: a script waiting for these lines finds the emulator listening.
  process.stdout.write(
    `VOICEPLATFORM_BASE_URL=${emulator.baseUrl}\n` +
      `VOICEPLATFORM_CAMPAIGNS_BASE_URL=${emulator.campaignsBaseUrl}\n`,
  );
  const stoppedBy = await signal;
  await emulator.stop();
  process.stderr.write(`pulumi-voice-platform emulator: stopped (${stoppedBy})\n`);
  return EXIT.clean;
}

function readyLine(startOptions: CommandOptions, baseUrl: string): string {
  const key = startOptions.apiKey === undefined ? `key "${DEFAULT_API_KEY}"` : "the --api-key key";
  const faults = startOptions.faults?.join(", ") ?? "none";
  const state = startOptions.stateFile ?? "in memory";
  return (
    `pulumi-voice-platform emulator: ready. Organization ${DEFAULT_ORGANIZATION_ID} (${key}); ` +
    `faults: ${faults}; state: ${state}; control surface: ${baseUrl}/__emulator/. ` +
    "Ctrl-C stops it."
  );
}

function startFailure(error: unknown, startOptions: CommandOptions): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return (
      `port ${startOptions.port} or ${startOptions.campaignsPort} is in use: ` +
      "give others with --port and --campaigns-port, or --port 0 for free ones"
    );
  }
  return (error as Error).message;
}
