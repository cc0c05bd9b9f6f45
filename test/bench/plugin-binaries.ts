/**
 * The plugin binaries the benches run, and the timing of a process's start: the release
 * archive of this platform built and unpacked, a wrapper that counts the plugin processes the
 * engine starts (and can profile them), and spawn-to-first-line timing.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { packageVersion } from "../../provider/schema/package-schema";
import {
  buildPluginArchives,
  hostPlatform,
  PLUGIN_NAME,
  type ArchiveKind,
} from "../../provider/release/plugin-archive";
import { since } from "./stats";

/** Milliseconds from spawn to the first line of stdout, or to exit when it prints nothing. */
export function timeToFirstLine([file, ...args]: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file!, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let elapsed: number | undefined;
    child.stdout.once("data", () => {
      elapsed = since(started);
      child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", () => resolve(elapsed ?? since(started)));
  });
}

/** Builds this platform's archive of one kind into `dir`; returns the .tar.gz. */
export async function hostArchive(kind: ArchiveKind, dir: string): Promise<string> {
  const [archive] = await buildPluginArchives({
    outDir: dir,
    version: packageVersion(),
    platforms: [hostPlatform()],
    sea: kind === "sea",
  });
  return archive!.file;
}

/** Builds this platform's archive of one kind into `dir` and unpacks it; returns its executable. */
export async function unpackedArchive(kind: ArchiveKind, dir: string): Promise<string> {
  execFileSync("tar", ["-xzf", await hostArchive(kind, dir), "-C", dir]);
  return join(dir, PLUGIN_NAME);
}

export interface PluginWrapper {
  /** The folder to put first on PATH: it holds `pulumi-resource-voiceplatform`. */
  readonly dir: string;
  /** How many plugin processes started through the wrapper so far. */
  starts(): Promise<number>;
}

/**
 * A `pulumi-resource-voiceplatform` in `dir` that notes each start and runs `real`; with
 * `cpuProfileDir`, a node script `real` runs under `node --cpu-prof` (a single executable `real`,
 * with `singleExecutable`, under the same flags in NODE_OPTIONS) and writes a V8 CPU profile
 * there when it exits or is signalled (the plugin alone, not the engine's other node processes).
 */
export async function wrapPlugin(
  dir: string,
  real: string,
  options: { cpuProfileDir?: string; singleExecutable?: boolean } = {},
): Promise<PluginWrapper> {
  await mkdir(dir, { recursive: true });
  const log = join(dir, "starts.log");
  await writeFile(log, "");
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: a node `real` is run by node with the flags.
  // The engine ends a plugin with a signal, and node writes the profile only on a normal exit.
  const exitOnSignal = join(dir, "exit-on-signal.js");
  await writeFile(
    exitOnSignal,
    'for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));\n',
  );
  // A single executable (Node 22) takes the flags from NODE_OPTIONS.
  const nodeOptions = `--cpu-prof --cpu-prof-dir=${options.cpuProfileDir} --require ${exitOnSignal}`;
  const run =
    options.cpuProfileDir === undefined
      ? JSON.stringify(real)
      : options.singleExecutable
        ? `env NODE_OPTIONS=${JSON.stringify(nodeOptions)} ${JSON.stringify(real)}`
        : [
            process.execPath,
            "--cpu-prof",
            `--cpu-prof-dir=${options.cpuProfileDir}`,
            "--require",
            exitOnSignal,
            real,
          ]
            .map((arg) => JSON.stringify(arg))
            .join(" ");
  const script = join(dir, PLUGIN_NAME);
  await writeFile(script, `#!/bin/sh\necho "$$" >> ${JSON.stringify(log)}\nexec ${run} "$@"\n`);
  await chmod(script, 0o755);
  return {
    dir,
    starts: async () => (await readFile(log, "utf8")).split("\n").filter(Boolean).length,
  };
}
