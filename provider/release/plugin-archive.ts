/**
 * The plugin archive of each platform: a single executable or the bundle with a Node.js launcher.
 * Measured behaviour: docs/development.md#plugin-archives
 */
import { execFile, spawn } from "node:child_process";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { unsign } from "macho-unsign";
import { signatureSet } from "portable-executable-signature";
import { checkSingleExecutable, SEA_FUSE, type ExecutableFacts } from "./executable-format";
import { machoSignTool, signAdHoc } from "./macho-sign";
import { nodeBinaries, nodeBinary, NODE_VERSION } from "./node-binaries";
import { bundlePlugin, type BundleEntry } from "./plugin-bundle";
import { sourceDateEpoch, writeReproducibleTarGz } from "./reproducible-archive";
import { buildLauncher, hasSharedServer, SHARED_SERVER_NAME } from "./shared-launcher";
import { defaultToolsFolder, privateToolsFolder } from "./tools-folder";
import { ReleaseInputError, ReleaseToolError } from "./errors";

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
    throw new ReleaseToolError(
      "node",
      `no Pulumi platform name for ${process.platform}-${process.arch}`,
    );
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

/** The kind of archive `platform` gets: a single executable where a pinned Node.js exists. */
export function archiveKind(platform: string, sea: boolean): ArchiveKind {
  return sea && nodeBinaries[platform] !== undefined ? "sea" : "node";
}

/** Whether `platform`'s single executable carries a startup snapshot: made here, by its binary. */
export function hasSnapshot(platform: string): boolean {
  return platform === hostPlatform();
}

/** Node.js's own signature, which the injected blob breaks, removed. */
function unsigned(binary: Buffer, platform: string): Buffer {
  if (platform.startsWith("darwin-")) {
    const stripped = unsign(binary);
    return stripped === null ? binary : Buffer.from(stripped);
  }
  if (platform.startsWith("windows-")) return Buffer.from(signatureSet(binary, null, true, true));
  return binary;
}

export interface SingleExecutable extends ExecutableFacts {
  readonly snapshot: boolean;
  readonly node: string;
}

/**
 * Makes the single executable for `platform` in `dir` from the bundle there (`main`, the plain
 * script, or `snapshot`, the snapshot entry), the same bytes from the same inputs: the blob names
 * its script by the relative path given here, and V8 builds the snapshot with a fixed random seed
 * (its hash seed, and the heap's layout, follow from it; V8 does not keep the flag at run time).
 */
async function singleExecutable(
  dir: string,
  platform: string,
  toolsFolder: string,
): Promise<SingleExecutable> {
  const snapshot = hasSnapshot(platform);
  const bundle = `${PLUGIN_NAME}.js`;
  // Node names a snapshot's script by its absolute path (this machine's, a temporary folder),
  // except a script called by the name Node gives a script without a file.
  const script = snapshot ? "__node_anonymous_main" : bundle;
  if (snapshot) await rename(join(dir, bundle), join(dir, script));
  const blob = "sea.blob";
  const config = "sea-config.json";
  const executable = join(dir, nodeBinaries[platform]!.executable);
  const target = await nodeBinary(platform, toolsFolder);
  // The blob is made by the same Node.js release; for a snapshot, by the very binary.
  const builder = snapshot ? target : await builderNode(toolsFolder);
  await writeFile(
    join(dir, config),
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: snapshot,
      useCodeCache: false,
    }),
  );
  try {
    // argv[0] "node": a snapshot keeps it (process.argv0), and the builder's path is this machine's.
    // No warnings: a snapshot keeps the text of the warnings printed, with the builder's pid.
    await runAsNode(
      builder,
      ["--no-warnings", "--random-seed=1", "--experimental-sea-config", config],
      dir,
    );
    await writeFile(executable, unsigned(await readFile(target), platform), { mode: 0o755 });
    const postject = require.resolve("postject/dist/cli.js");
    await run(process.execPath, [
      postject,
      executable,
      "NODE_SEA_BLOB",
      join(dir, blob),
      "--sentinel-fuse",
      SEA_FUSE,
      ...(platform.startsWith("darwin-") ? ["--macho-segment-name", "NODE_SEA"] : []),
    ]);
    if (platform.startsWith("darwin-")) {
      await signAdHoc(await machoSignTool(toolsFolder), executable, PLUGIN_NAME);
    }
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new ReleaseToolError(
      "single executable",
      `building the single executable for ${platform} (Node.js ${NODE_VERSION}) failed: ` +
        `${stderr || String(error)}\nBuild the Node-launcher archives instead (--no-sea).`,
    );
  }
  const facts = checkSingleExecutable(
    await readFile(executable),
    platform,
    await readFile(join(dir, blob)),
  );
  // The executable holds the bundle.
  for (const file of [blob, config, script]) await rm(join(dir, file));
  return { ...facts, snapshot, node: NODE_VERSION };
}

/** Runs the Node.js binary `node` with argv[0] "node" in `cwd`; rejects with its stderr. */
function runAsNode(node: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      cwd,
      argv0: "node",
      // Nothing of the release manager's environment (keys, tokens) near what a snapshot keeps.
      env: Object.fromEntries(
        ["PATH", "SystemRoot", "TEMP", "TMP", "TMPDIR"]
          .filter((name) => process.env[name] !== undefined)
          .map((name) => [name, process.env[name]]),
      ),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(Object.assign(new ReleaseToolError(node, `exit ${code}`), { stderr })),
    );
  });
}

/** A pinned Node.js this machine runs, to make the blobs of the other platforms with. */
async function builderNode(toolsFolder: string): Promise<string> {
  const host = hostPlatform();
  if (nodeBinaries[host] === undefined) {
    throw new ReleaseInputError(
      "--no-sea",
      `no pinned Node.js ${NODE_VERSION} runs on ${host} to build the single executables: ` +
        `release from ${Object.keys(nodeBinaries).join(", ")}, or use --no-sea`,
    );
  }
  return nodeBinary(host, toolsFolder);
}

export interface PluginArchive {
  platform: string;
  kind: ArchiveKind;
  file: string;
  /** For a single executable: what was checked, and whether it carries a snapshot. */
  executable?: SingleExecutable;
  /** On Linux and macOS: the native launcher's checked format (its server is beside it). */
  launcher?: ExecutableFacts;
}

/**
 * Builds one archive per platform into `outDir`: single executables where archiveKind says so
 * when `sea` is set, the bundle and a launcher otherwise. `toolsFolder` (default the per-user
 * one) keeps the pinned Node.js binaries and the signer.
 */
export async function buildPluginArchives(options: {
  outDir: string;
  version: string;
  platforms?: readonly string[];
  sea: boolean;
  /** The time every archived file carries; default sourceDateEpoch(). */
  epochSeconds?: number;
  toolsFolder?: string;
}): Promise<PluginArchive[]> {
  const epochSeconds = options.epochSeconds ?? (await sourceDateEpoch(REPO_ROOT));
  const platforms = [...new Set(options.platforms ?? releasePlatforms)];
  const stage = await mkdtemp(join(tmpdir(), "voiceplatform-plugin-archive-"));
  try {
    const kinds = platforms.map((platform) => archiveKind(platform, options.sea));
    const tools =
      kinds.includes("sea") || platforms.some(hasSharedServer)
        ? await privateToolsFolder(options.toolsFolder ?? defaultToolsFolder())
        : "";
    const bundles: Partial<Record<BundleEntry, string>> = {};
    const bundled = async (entry: BundleEntry) => {
      if (bundles[entry] === undefined) {
        bundles[entry] = join(stage, `bundle-${entry}`);
        await mkdir(bundles[entry]);
        await bundlePlugin(bundles[entry], PLUGIN_NAME, options.version, entry);
      }
      return bundles[entry];
    };
    await mkdir(options.outDir, { recursive: true });
    const archives: PluginArchive[] = [];
    for (const [index, platform] of platforms.entries()) {
      const kind = kinds[index]!;
      const dir = join(stage, platform);
      await mkdir(dir);
      const from = await bundled(kind === "sea" && hasSnapshot(platform) ? "snapshot" : "main");
      for (const file of await readdir(from)) await copyFile(join(from, file), join(dir, file));
      let executable: SingleExecutable | undefined;
      if (kind === "sea") {
        executable = await singleExecutable(dir, platform, tools);
      } else {
        await writeFile(join(dir, PLUGIN_NAME), launcher, { mode: 0o755 });
        if (platform.startsWith("windows-")) {
          await writeFile(join(dir, `${PLUGIN_NAME}.cmd`), windowsLauncher);
        }
      }
      let sharedLauncher: ExecutableFacts | undefined;
      if (hasSharedServer(platform)) {
        // What the engine runs becomes the server the native launcher shares between providers.
        await rename(join(dir, PLUGIN_NAME), join(dir, SHARED_SERVER_NAME));
        sharedLauncher = await buildLauncher(
          platform,
          join(dir, PLUGIN_NAME),
          PLUGIN_NAME,
          tools,
          options.version,
        );
      }
      const file = join(options.outDir, archiveName(options.version, platform));
      await writeReproducibleTarGz({ dir, file, epochSeconds });
      archives.push({
        platform,
        kind,
        file,
        ...(executable === undefined ? {} : { executable }),
        ...(sharedLauncher === undefined ? {} : { launcher: sharedLauncher }),
      });
    }
    return archives;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
