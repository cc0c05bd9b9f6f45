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

const run = promisify(execFile);

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

/** Makes `<dir>/pulumi-resource-voiceplatform` a single executable from the bundle in `dir`. */
async function singleExecutable(dir: string): Promise<void> {
  const bundle = join(dir, `${PLUGIN_NAME}.js`);
  const blob = join(dir, "sea.blob");
  const config = join(dir, "sea-config.json");
  const executable = join(dir, PLUGIN_NAME);
  await writeFile(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8's code cache in the blob: the plugin starts without compiling the bundle.
      useCodeCache: true,
    }),
  );
  try {
    await run(process.execPath, ["--experimental-sea-config", config]);
    await copyFile(process.execPath, executable);
    await chmod(executable, 0o755);
    const postject = require.resolve("postject/dist/cli.js");
    await run(process.execPath, [
      postject,
      executable,
      "NODE_SEA_BLOB",
      blob,
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
  // The executable holds the bundle; the map stays for stack traces (found beside the bundle's
  // name only when running the JS, so it is kept for debugging the same build).
  await rm(blob);
  await rm(config);
  await rm(bundle);
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
}): Promise<PluginArchive[]> {
  const host = hostPlatform();
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
      // Sorted names, no owner and a fixed time: the same inputs give the same archive.
      await run("tar", [
        "-czf",
        file,
        "-C",
        dir,
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        "--mtime=1970-01-01",
        ...(await readdir(dir)).sort(),
      ]);
      archives.push({ platform, kind, file });
    }
    return archives;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
