/**
 * The plugin archives the engine downloads from a `pluginDownloadURL` and
 * `pulumi plugin install resource voiceplatform <version> --file <archive>` unpacks:
 * `pulumi-resource-voiceplatform-v<version>-<os>-<arch>.tar.gz`, with the executable
 * `pulumi-resource-voiceplatform` at its root (the engine runs it from the unpacked folder).
 *
 * Two kinds. "sea": a Node.js single-executable application (the running node with the bundle
 * injected), which needs no Node; built only for the platform this runs on, since it copies this
 * machine's node. "node": the bundle with a launcher (`#!/usr/bin/env node`, and a .cmd on
 * Windows), which needs Node >= 20.19 on PATH; built for every platform.
 */
import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bundlePlugin } from "./plugin-bundle";
import { sourceDateEpoch, writeReproducibleTarGz } from "./reproducible-archive";

const run = promisify(execFile);

const REPO_ROOT = join(__dirname, "..", "..");

export const PLUGIN_NAME = "pulumi-resource-voiceplatform";

/** Platforms as Pulumi names them in plugin archive names. */
export const releasePlatforms = [
  "linux-amd64",
  "linux-arm64",
  "darwin-amd64",
  "darwin-arm64",
  "windows-amd64",
] as const;
export type ReleasePlatform = (typeof releasePlatforms)[number];

export type ArchiveKind = "sea" | "node";

/** This machine's platform in Pulumi's names, e.g. linux-amd64. */
export function hostPlatform(): string {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  if (os === undefined || arch === undefined) {
    throw new Error(`no Pulumi platform name for ${process.platform}-${process.arch}`);
  }
  return `${os}-${arch}`;
}

export function archiveName(version: string, platform: string): string {
  return `${PLUGIN_NAME}-v${version}-${platform}.tar.gz`;
}

/** The oldest Node.js the bundle runs on (package.json engines). */
const MIN_NODE = [20, 19] as const;

/** Runs the bundle beside it, after checking the Node.js it was started with. */
const launcher = `#!/usr/bin/env node
// The voiceplatform plugin: the bundle beside this file, on the node found on PATH.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < ${MIN_NODE[0]} || (major === ${MIN_NODE[0]} && minor < ${MIN_NODE[1]})) {
  console.error(
    "pulumi-resource-voiceplatform needs Node.js >= ${MIN_NODE.join(".")} on PATH, found " +
      process.version + ": install a newer Node.js, or use the archive for this platform that holds a single executable.",
  );
  process.exit(1);
}
require("./${PLUGIN_NAME}.js");
`;

/** What Windows runs for the plugin (Pulumi looks for .exe, then .cmd). */
const windowsLauncher = `@echo off\r\nnode "%~dp0${PLUGIN_NAME}" %*\r\n`;

/** The fuse postject flips in a Node.js binary to make it run its injected blob. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * Makes `<dir>/pulumi-resource-voiceplatform` a single executable from the bundle in `dir`, the
 * same bytes from the same bundle and node: the blob names its script by the relative path given
 * here (an absolute one would carry this machine's temporary folder), and V8 builds the code cache
 * with a fixed random seed (its string hash seed follows from it, and the cache's layout from
 * that). V8 leaves --random-seed out of the flags a code cache must match, so the executable,
 * started without flags, still uses the cache.
 */
async function singleExecutable(dir: string): Promise<void> {
  const bundle = `${PLUGIN_NAME}.js`;
  const blob = "sea.blob";
  const config = "sea-config.json";
  const executable = join(dir, PLUGIN_NAME);
  await writeFile(
    join(dir, config),
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8's code cache in the blob: the plugin starts without compiling the bundle.
      useCodeCache: true,
    }),
  );
  try {
    await run(process.execPath, ["--random-seed=1", "--experimental-sea-config", config], {
      cwd: dir,
    });
    await copyFile(process.execPath, executable);
    await chmod(executable, 0o755);
    const postject = require.resolve("postject/dist/cli.js");
    await run(process.execPath, [
      postject,
      executable,
      "NODE_SEA_BLOB",
      join(dir, blob),
      "--sentinel-fuse",
      SEA_FUSE,
    ]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(
      `building the single executable with ${process.execPath} (Node ${process.version}) failed: ` +
        `${stderr || String(error)}\nBuild the Node-launcher archive instead (--no-sea).`,
    );
  }
  // The executable holds the bundle.
  for (const file of [blob, config, bundle]) await rm(join(dir, file));
}

export interface PluginArchive {
  platform: string;
  kind: ArchiveKind;
  file: string;
}

/**
 * Builds one archive per platform into `outDir`; the host platform gets the single executable
 * when `sea` is set (and is left out of `platforms` or not, it is built either way).
 */
export async function buildPluginArchives(options: {
  outDir: string;
  version: string;
  platforms?: readonly string[];
  sea: boolean;
  /** The time every archived file carries; default sourceDateEpoch(). */
  epochSeconds?: number;
}): Promise<PluginArchive[]> {
  const host = hostPlatform();
  const epochSeconds = options.epochSeconds ?? (await sourceDateEpoch(REPO_ROOT));
  const platforms = [...new Set(options.platforms ?? releasePlatforms)];
  const stage = await mkdtemp(join(tmpdir(), "voiceplatform-plugin-archive-"));
  try {
    const bundled = join(stage, "bundle");
    await mkdir(bundled);
    await bundlePlugin(bundled, PLUGIN_NAME, options.version);
    await mkdir(options.outDir, { recursive: true });
    const archives: PluginArchive[] = [];
    for (const platform of platforms) {
      const kind: ArchiveKind = options.sea && platform === host ? "sea" : "node";
      const dir = join(stage, platform);
      await mkdir(dir);
      for (const file of await readdir(bundled))
        await copyFile(join(bundled, file), join(dir, file));
      if (kind === "sea") {
        await singleExecutable(dir);
      } else {
        await writeFile(join(dir, PLUGIN_NAME), launcher, { mode: 0o755 });
        if (platform.startsWith("windows-")) {
          await writeFile(join(dir, `${PLUGIN_NAME}.cmd`), windowsLauncher);
        }
      }
      const file = join(options.outDir, archiveName(options.version, platform));
      await writeReproducibleTarGz({ dir, file, epochSeconds });
      archives.push({ platform, kind, file });
    }
    return archives;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
