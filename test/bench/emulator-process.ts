/**
 * The emulator in its own process, so serving requests never takes the event loop (or the core)
 * of the client being measured. Controlled through its `/__emulator/` surface.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { EmulatorClient } from "../../provider/emulator/client";
import { track } from "./children";

export interface EmulatorProcess {
  readonly baseUrl: string;
  readonly campaignsBaseUrl: string;
  readonly apiKey: string;
  readonly client: EmulatorClient;
  readonly pid: number;
  close(): Promise<void>;
}

export interface EmulatorProcessOptions {
  latencyMs?: number;
  rateLimit?: number;
}

const API_KEY = "bench-key-0123456789";
const CLI = resolve(__dirname, "..", "..", "provider", "emulator", "command.ts");

export async function startEmulatorProcess(
  options: EmulatorProcessOptions = {},
): Promise<EmulatorProcess> {
  const args = ["--import", "tsx", CLI, "--port", "0", "--api-key", API_KEY, "--seed", "1"];
  if (options.latencyMs !== undefined) args.push("--latency-ms", String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push("--rate-limit", String(options.rateLimit));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const untrack = track(child.pid!);
  child.once("exit", untrack);
  const [baseUrl, campaignsBaseUrl] = await firstLines(child, 2);
  return {
    baseUrl: baseUrl!,
    campaignsBaseUrl: campaignsBaseUrl!,
    apiKey: API_KEY,
    client: new EmulatorClient(baseUrl!),
    pid: child.pid!,
    close: () => stopChild(child),
  };
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
