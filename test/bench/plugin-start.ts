/**
 * `npm run bench:plugin-start`: how long the plugin process takes from spawn to the port line
 * the engine waits for, beside a bare `node -e ""` (this machine's node, which runs the package's
 * bin, and the pinned Node.js the single executables are made of), the floor of any Node.js gRPC
 * server (that node listening with node:http2 and nothing else), and the Go floor (a do-nothing
 * provider on Pulumi's provider.Main, go-floor.ts). Interleaved rounds, medians and ratios from
 * one run: these machines are shared and noisy. Needs `npm run build` (the bin runs dist/'s bundle;
 * its first start writes V8's code cache, which the rounds then use, as every start after a
 * user's first does).
 *
 * The release archives (provider/release/plugin-archive.ts) are built for this platform and
 * unpacked first: the single executable (with its startup snapshot) run alone as the plugin, the
 * esbuild bundle run by its node launcher, and the native launcher in front of the shared server
 * (shared-server.ts), both for a run's first provider, which starts the server, and for the
 * providers after it, which the running server answers. `--compare <main.js>` adds an older
 * build's plugin JS (run by this node), `--compare-sea <executable>` an older single executable.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { nodeBinary, NODE_VERSION } from "../../provider/release/node-binaries";
import { hostPlatform, type ArchiveKind } from "../../provider/release/plugin-archive";
import { SHARED_SERVER_NAME } from "../../provider/release/shared-launcher";
import { defaultToolsFolder, privateToolsFolder } from "../../provider/release/tools-folder";
import { REPO_ROOT } from "../support/packed-package";
import { goFloorProvider } from "./go-floor";
import { timeToFirstLine, unpackedArchive } from "./plugin-binaries";
import { median, round } from "./stats";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "15" },
    compare: { type: "string" },
    "compare-sea": { type: "string" },
  },
});
const ROUNDS = Number(values.rounds);
const bundle = join(REPO_ROOT, "dist", "provider", "plugin", "pulumi-resource-voiceplatform.js");
/** The package's bin, as node_modules/.bin runs it: the bundle beside it, from V8's code cache. */
const bin = join(REPO_ROOT, "provider", "plugin", "bin", "pulumi-resource-voiceplatform");

const node = process.execPath;
const unpacked = mkdtempSync(join(tmpdir(), "voiceplatform-bench-archives-"));

/** Builds this platform's archive of one kind and unpacks it; returns its executable. */
const archived = (kind: ArchiveKind) => unpackedArchive(kind, join(unpacked, kind));

const beside = (executable: string, name: string) => join(dirname(executable), name);

/** The engine address of the run whose server stays up during the bench. */
const RUNNING_RUN = "127.0.0.1:19999";

/** A node that serves node:http2 on a free port and prints it: no gRPC, no provider. */
const http2Only =
  'const s = require("node:http2").createServer(); s.listen(0, "127.0.0.1", () => console.log(s.address().port));';

/** Runs a process for `ms` milliseconds, then ends it. */
function runFor([file, ...args]: string[], ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  if (!existsSync(bundle)) throw new Error(`no ${bundle}: run \`npm run build\``);
  const node22 = await nodeBinary(hostPlatform(), await privateToolsFolder(defaultToolsFolder()));
  const launcher = await archived("sea");
  const subjects: Record<string, string[] | ((round: number) => string[])> = {
    'node -e ""': [node, "-e", ""],
    [`node ${NODE_VERSION} -e ""`]: [node22, "-e", ""],
    [`node ${NODE_VERSION}: node:http2 server only`]: [node22, "-e", http2Only],
    "Go floor (provider.Main)": [await goFloorProvider(), "127.0.0.1:1"],
    "npm bin (bundle, code cache)": [node, bin, "127.0.0.1:1"],
    ...(values.compare === undefined
      ? {}
      : { "--compare plugin JS": [node, values.compare, "127.0.0.1:1"] }),
    ...(values["compare-sea"] === undefined
      ? {}
      : { "--compare-sea executable": [values["compare-sea"], "127.0.0.1:1"] }),
    "archive: bundle + node launcher (darwin-arm64's server)": [
      beside(await archived("node"), SHARED_SERVER_NAME),
      "127.0.0.1:1",
    ],
    "archive: single executable alone (a process per provider)": [
      beside(launcher, SHARED_SERVER_NAME),
      "127.0.0.1:1",
    ],
    // Another engine address each round: a new run, whose first provider starts the server.
    "archive: launcher, a run's first provider (starts its server)": (round) => [
      launcher,
      `127.0.0.1:${20_000 + round}`,
    ],
    // The run below keeps its server: every provider after its first.
    "archive: launcher, a later provider (server running)": [launcher, RUNNING_RUN],
  };
  // A user's first start writes the code cache a second in; every later start uses it.
  await runFor([node, bin, "127.0.0.1:1"], 2000);
  // A run's first provider, held for the whole bench, keeps that run's server up.
  const firstProvider = spawn(launcher, [RUNNING_RUN], { cwd: REPO_ROOT, stdio: "ignore" });
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(subjects).map((name) => [name, []]),
  );
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(subjects)) {
        const command = typeof args === "function" ? args(round) : args;
        samples[name]!.push(await timeToFirstLine(command, REPO_ROOT));
      }
    }
  } finally {
    firstProvider.kill("SIGKILL");
  }
  const medians = Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, median(list)]),
  );
  const bare = medians['node -e ""']!;
  const bare22 = medians[`node ${NODE_VERSION} -e ""`]!;
  const floor = medians["Go floor (provider.Main)"]!;
  process.stdout.write(
    `plugin start, spawn to port line, median of ${ROUNDS} interleaved rounds; node ${process.version}` +
      (process.env.NODE_EXTRA_CA_CERTS
        ? " (NODE_EXTRA_CA_CERTS set: node 20 reads it at start)"
        : "") +
      "\n| process | median | × node -e | × node 22 -e | × Go floor |\n| --- | --- | --- | --- | --- |\n",
  );
  for (const [name, ms] of Object.entries(medians)) {
    process.stdout.write(
      `| ${name} | ${round(ms, 0)} ms | ${round(ms / bare, 2)} | ${round(ms / bare22, 2)} | ${round(ms / floor, 2)} |\n`,
    );
  }
  const loadAverage = (await import("node:os")).loadavg().map((l) => round(l, 1));
  process.stdout.write(
    `${JSON.stringify({ rounds: ROUNDS, node: process.version, loadAverage, medians: Object.fromEntries(Object.entries(medians).map(([k, v]) => [k, round(v, 1)])) })}\n`,
  );
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(unpacked, { recursive: true, force: true }));
