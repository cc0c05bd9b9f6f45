/**
 * `npm run bench:emulator-start`: how long the emulator takes to be ready as a team starts it,
 * with the package installed from its packed tarball into a project outside the repository:
 *
 * - the command, from spawn to its URL lines (printed once both origins listen):
 *   `node_modules/.bin/pulumi-voice-platform emulator --port 0`, and the same through `npx`;
 *   beside a bare `node -e ""`, the floor of any Node.js command;
 * - the Node API in a fresh process: `require("pulumi-voice-platform/emulator")`, then
 *   `startEmulator()` until it resolves; and `startEmulator()` again in that process, as a test
 *   file that starts one per suite pays it.
 *
 * Interleaved rounds, medians and p90: these machines are shared and noisy. Prints figures and
 * asserts nothing.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { median, p90, round, since } from "./stats";

const run = promisify(execFile);
const { values } = parseArgs({ options: { rounds: { type: "string", default: "15" } } });
const ROUNDS = Number(values.rounds);

/** In a fresh node: the module's load, a first start and a second, each in milliseconds. */
const API_PROBE = `
const started = performance.now();
const { startEmulator } = require("pulumi-voice-platform/emulator");
const loaded = performance.now();
(async () => {
  const first = await startEmulator();
  const firstReady = performance.now();
  await first.stop();
  const again = performance.now();
  const second = await startEmulator();
  const secondReady = performance.now();
  await second.stop();
  console.log(JSON.stringify({
    load: loaded - started,
    start: firstReady - loaded,
    restart: secondReady - again,
  }));
})();`;

/**
 * Milliseconds from spawn to the command's first output (or its exit). It runs in a process
 * group of its own, ended whole: npx's child would outlive npx.
 */
function timeToReady([file, ...args]: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file!, args, { cwd, detached: true, stdio: ["ignore", "pipe", "ignore"] });
    let elapsed: number | undefined;
    child.stdout.once("data", () => {
      elapsed = since(started);
      process.kill(-child.pid!, "SIGTERM");
    });
    child.on("error", reject);
    child.on("exit", () => resolve(elapsed ?? since(started)));
  });
}

async function apiRound(project: string): Promise<Record<"load" | "start" | "restart", number>> {
  const { stdout } = await run(process.execPath, ["-e", API_PROBE], { cwd: project });
  return JSON.parse(stdout) as Record<"load" | "start" | "restart", number>;
}

async function main(): Promise<void> {
  const project = await createFixtureProject({ name: "emulator-start-bench" });
  try {
    const bin = join(project, "node_modules", ".bin", "pulumi-voice-platform");
    const commands: Record<string, string[]> = {
      'node -e ""': [process.execPath, "-e", ""],
      "pulumi-voice-platform emulator (node_modules/.bin)": [bin, "emulator", "--port", "0"],
      "npx pulumi-voice-platform emulator": [
        "npx",
        "--no-install",
        "pulumi-voice-platform",
        "emulator",
        "--port",
        "0",
      ],
    };
    const samples: Record<string, number[]> = {};
    const add = (name: string, ms: number) => (samples[name] ??= []).push(ms);
    // One warm-up of each, not counted: the first run reads everything from disk.
    for (const command of Object.values(commands)) await timeToReady(command, project);
    await apiRound(project);
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
      for (const [name, command] of Object.entries(commands)) {
        add(`${name}: spawn to ready`, await timeToReady(command, project));
      }
      const api = await apiRound(project);
      add("Node API, fresh process: require the module", api.load);
      add("Node API, fresh process: startEmulator() until it resolves", api.start);
      add("Node API, a second startEmulator() in that process", api.restart);
    }
    process.stdout.write(`Emulator start, ${ROUNDS} interleaved rounds (ms):\n`);
    for (const [name, values] of Object.entries(samples)) {
      process.stdout.write(
        `  ${name.padEnd(68)} median ${String(round(median(values), 1)).padStart(7)}  ` +
          `p90 ${String(round(p90(values), 1)).padStart(7)}\n`,
      );
    }
  } finally {
    await removeFixtureProject(project);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exitCode = 1;
});
