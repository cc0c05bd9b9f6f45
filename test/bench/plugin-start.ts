/**
 * `npm run bench:plugin-start`: how long the plugin process takes from spawn to the port line
 * the engine waits for, beside a bare `node -e ""` and a process that only loads
 * `@pulumi/pulumi` (what the plugin paid before it stopped loading the program runtime).
 * Interleaved rounds, medians and ratios from one run: these machines are shared and noisy.
 * Needs `npm run build` (the plugin runs from dist/). `--compare <main.js>` adds another build of
 * the plugin (an older checkout's dist/provider/plugin/main.js) to the same rounds.
 *
 * The release archives (provider/release/plugin-archive.ts) are built for this platform and
 * unpacked first: the single executable, and the esbuild bundle run by its node launcher, each
 * timed as the engine starts them (the archive's pulumi-resource-voiceplatform).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ArchiveKind } from "../../provider/release/plugin-archive";
import { REPO_ROOT } from "../support/packed-package";
import { timeToFirstLine, unpackedArchive } from "./plugin-binaries";
import { median, round } from "./stats";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "7" }, compare: { type: "string" } },
});
const ROUNDS = Number(values.rounds);
const plugin = join(REPO_ROOT, "dist", "provider", "plugin", "main.js");

const node = process.execPath;
const unpacked = mkdtempSync(join(tmpdir(), "voiceplatform-bench-archives-"));

/** Builds this platform's archive of one kind and unpacks it; returns its executable. */
const archived = (kind: ArchiveKind) => unpackedArchive(kind, join(unpacked, kind));

const subjects: Record<string, string[]> = {
  'node -e ""': [node, "-e", ""],
  "require @pulumi/pulumi": [node, "-e", 'require("@pulumi/pulumi"); console.log("loaded")'],
  "plugin JS from node_modules": [node, plugin, "127.0.0.1:1"],
  ...(values.compare === undefined
    ? {}
    : { "--compare plugin": [node, values.compare, "127.0.0.1:1"] }),
};

async function main(): Promise<void> {
  if (!existsSync(plugin)) throw new Error("no dist/provider/plugin/main.js: run `npm run build`");
  subjects["archive: bundle + node launcher"] = [await archived("node"), "127.0.0.1:1"];
  subjects["archive: single executable"] = [await archived("sea"), "127.0.0.1:1"];
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(subjects).map((name) => [name, []]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of Object.entries(subjects)) {
      samples[name]!.push(await timeToFirstLine(args, REPO_ROOT));
    }
  }
  const bare = median(samples['node -e ""']!);
  process.stdout.write(`plugin start, median of ${ROUNDS} interleaved rounds\n`);
  for (const [name, values] of Object.entries(samples)) {
    const ms = median(values);
    process.stdout.write(
      `  ${name.padEnd(32)} ${String(round(ms, 0)).padStart(6)} ms   ${round(ms / bare, 1)} x bare node\n`,
    );
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(unpacked, { recursive: true, force: true }));
