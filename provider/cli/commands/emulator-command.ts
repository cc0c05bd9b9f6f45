/**
 * `pulumi-voice-platform emulator`: the platform emulator (provider/emulator) as a command. It
 * prints the two base URLs as environment lines on stdout once it listens (and writes them, with
 * its PID, to --ready-file), serves until SIGINT or SIGTERM or until its parent process ends, then
 * closes both origins, removes the ready file and exits 0.
 */
import { rename, rm, writeFile } from "node:fs/promises";
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
  "ready-file": { type: "string" },
  "outlive-parent": { type: "boolean" },
} as const;

/** How often the emulator looks whether its parent process is still there. */
const PARENT_POLL_MS = 200;

/** The emulator's options as its command line gives them: fault profiles by name only. */
type CommandOptions = StartEmulatorOptions & {
  faults?: FaultProfileName[];
  /** Where to write the URLs and the PID once it serves. */
  readyFile?: string;
  /** Keep serving when the parent process ends (a service started by a step that ends). */
  outliveParent?: boolean;
};

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
    readyFile: readyFileFlag(values["ready-file"]),
    outliveParent: values["outlive-parent"] ?? false,
  };
}

function readyFileFlag(value: string | undefined): string | undefined {
  if (value === "") throw new UsageError("emulator: --ready-file is empty; give a file path");
  return value;
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
  const signal = new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    if (!startOptions.outliveParent) whenParentEnds(() => resolve("its parent process ended"));
  });
  let emulator;
  try {
    emulator = await startEmulator(startOptions);
  } catch (error) {
    process.stderr.write(`pulumi-voice-platform emulator: ${startFailure(error, startOptions)}\n`);
    return EXIT.refused;
  }
  process.stderr.write(`${readyLine(startOptions, emulator.baseUrl)}\n`);
  const urls =
    `VOICEPLATFORM_BASE_URL=${emulator.baseUrl}\n` +
    `VOICEPLATFORM_CAMPAIGNS_BASE_URL=${emulator.campaignsBaseUrl}\n`;
  if (startOptions.readyFile !== undefined) {
    await writeReadyFile(
      startOptions.readyFile,
      `${urls}VOICEPLATFORM_EMULATOR_PID=${process.pid}\n`,
    );
  }
  // Last: a script waiting for these lines finds the emulator listening.
  process.stdout.write(urls);
  const stoppedBy = await signal;
  await emulator.stop();
  if (startOptions.readyFile !== undefined) await rm(startOptions.readyFile, { force: true });
  process.stderr.write(`pulumi-voice-platform emulator: stopped (${stoppedBy})\n`);
  return EXIT.clean;
}

/**
 * Written whole or not at all (a temporary file renamed), so a script that polls for the file
 * never reads half of it.
 */
async function writeReadyFile(path: string, text: string): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, path);
}

/**
 * Calls `ended` once the process that started this one is gone (the parent PID changes when the
 * process is re-parented). `npx` and `npm exec` run the command under a shell that does not
 * pass SIGTERM on: killing npm ends that shell, and so, by this, the emulator.
 */
function whenParentEnds(ended: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    ended();
  }, PARENT_POLL_MS);
  timer.unref();
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
