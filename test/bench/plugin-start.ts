/**
 * `npm run bench:plugin-start`: how long the plugin process takes from spawn to the port line
 * the engine waits for, beside a bare `node -e ""` and a process that only loads
 * `@pulumi/pulumi` (what the plugin paid before it stopped loading the program runtime).
 * Interleaved rounds, medians and ratios from one run: these machines are shared and noisy.
 * Needs `npm run build` (the plugin runs from dist/). `--compare <main.js>` adds another build of
 * the plugin (an older checkout's dist/provider/plugin/main.js) to the same rounds.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../support/packed-package";
import { median, round, since } from "./stats";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "7" }, compare: { type: "string" } },
});
const ROUNDS = Number(values.rounds);
const plugin = join(REPO_ROOT, "dist", "provider", "plugin", "main.js");

/** Milliseconds from spawn to the first line of stdout, or to exit when it prints nothing. */
function timeToFirstLine(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let elapsed: number | undefined;
    child.stdout.once("data", () => {
      elapsed = since(started);
      child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", () => resolve(elapsed ?? since(started)));
  });
}

const subjects: Record<string, string[]> = {
  'node -e ""': ["-e", ""],
  "require @pulumi/pulumi": ["-e", 'require("@pulumi/pulumi"); console.log("loaded")'],
  "the plugin, to its port line": [plugin, "127.0.0.1:1"],
  ...(values.compare === undefined ? {} : { "--compare plugin": [values.compare, "127.0.0.1:1"] }),
};

async function main(): Promise<void> {
  if (!existsSync(plugin)) throw new Error("no dist/provider/plugin/main.js: run `npm run build`");
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(subjects).map((name) => [name, []]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(subjects)) {
      samples[name]!.push(await timeToFirstLine(args));
    }
  }
  const bare = median(samples['node -e ""']!);
  process.stdout.write(`plugin start, median of ${ROUNDS} interleaved rounds\n`);
  for (const [name, values] of Object.entries(samples)) {
    const ms = median(values);
    process.stdout.write(
      `  ${name.padEnd(30)} ${String(round(ms, 0)).padStart(6)} ms   ${round(ms / bare, 1)} x bare node\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
