/**
 * The emulator in its own process, so serving requests never takes the event loop (or the core)
 * of the client being measured: the package's `emulator` command, controlled through its
 * `/__emulator/` surface.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { EmulatorClient, type EmulatorControl } from "../../provider/emulator";
import { track } from "./children";

export interface EmulatorProcess extends EmulatorControl {
  readonly baseUrl: string;
  readonly campaignsBaseUrl: string;
  readonly apiKey: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export interface EmulatorProcessOptions {
  latencyMs?: number;
  rateLimit?: number;
}

const API_KEY = "bench-key-0123456789";
const CLI = resolve(__dirname, "..", "..", "provider", "cli", "main.ts");

export async function startEmulatorProcess(
  options: EmulatorProcessOptions = {},
): Promise<EmulatorProcess> {
  const args = ["--import", "tsx", CLI, "emulator", "--port", "0", "--api-key", API_KEY];
  args.push("--seed", "1");
  if (options.latencyMs !== undefined) args.push("--latency-ms", String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push("--rate-limit", String(options.rateLimit));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const untrack = track(child.pid!);
  child.once("exit", untrack);
  const [baseUrl, campaignsBaseUrl] = (await firstLines(child, 2)).map(valueOfEnvLine);
  return Object.assign(new EmulatorClient(baseUrl!), {
    campaignsBaseUrl: campaignsBaseUrl!,
    apiKey: API_KEY,
    pid: child.pid!,
    stop: () => stopChild(child),
  });
}

/** `NAME=value`, as the emulator command prints its URLs: the value. */
export function valueOfEnvLine(line: string): string {
  return line.slice(line.indexOf("=") + 1);
}

/** Resolves with the first `count` lines the child prints, or fails if it exits before. */
export function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolveLines, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const lines = text.split("\n");
      if (lines.length > count) {
        child.stdout?.off("data", onData);
        child.off("exit", onExit);
        resolveLines(lines.slice(0, count));
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`${child.spawnfile} exited with ${code} before printing its address`));
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}
