/**
 * `npm run release`: every artifact of a release, built into one folder (default .release/,
 * ignored by git) with SHA256SUMS:
 *
 * - plugin/: pulumi-resource-voiceplatform-v<version>-<os>-<arch>.tar.gz per platform
 *   (plugin-archive.ts), what the engine downloads from the schema's pluginDownloadURL;
 * - sdk/: the schema and SDKs generated with the release's pluginDownloadURL and Go module path;
 * - python/: the wheel and sdist of pulumi_voiceplatform;
 * - npm/: the Node.js SDK's tarball and this package's own (`npm pack`);
 * - go/: the Go module folder, and its tarball.
 *
 * Options: `--plugin-download-url URL` (or VOICEPLATFORM_PLUGIN_DOWNLOAD_URL; https, or http on
 * loopback only), `--go-module-path` (default the committed one), `--out DIR` (only a new, empty
 * or earlier release's folder: release-folder.ts), `--no-sea` (the Node-launcher archive for every
 * platform), `--platforms linux-amd64,...`. `--dry-run` builds everything and publishes
 * nothing; without it the URL is required, since SDKs without one leave users to install the
 * plugin by hand. Publishing itself is not automated: the script prints what to upload where, and
 * for each plugin archive the command that checks its sha256 and installs it.
 *
 * The same inputs (sources, lock file, node, SOURCE_DATE_EPOCH or the last commit) give the same
 * bytes: reproducible-archive.ts. Every check runs before anything is removed.
 * Needs the Pulumi CLI with its nodejs, python and go language hosts on PATH (gen-sdk).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_GO_MODULE_PATH } from "../schema/package-schema";
import { generateSdks } from "../codegen/generate-sdks";
import { checkDownloadUrl } from "./download-url";
import { packThisPackage } from "./package-tarball";
import { buildPluginArchives, releasePlatforms, type PluginArchive } from "./plugin-archive";
import { prepareReleaseFolder, protectedFoldersHere } from "./release-folder";
import { sourceDateEpoch } from "./reproducible-archive";
import { buildPythonPackages, packGoModule, packNodeSdk } from "./sdk-packages";
import { defaultToolsFolder, privateToolsFolder } from "./tools-folder";
import { verifiedInstallCommand } from "./verified-install";

const REPO_ROOT = resolve(__dirname, "..", "..");

export interface ReleaseOptions {
  out: string;
  pluginDownloadURL?: string;
  goModulePath: string;
  sea: boolean;
  platforms: readonly string[];
}

export interface Artifact {
  /** Path relative to the release folder. */
  name: string;
  size: number;
  sha256: string;
}

export interface Release {
  version: string;
  out: string;
  artifacts: Artifact[];
  /** The Go module folder, for `go mod edit -replace`. */
  goModuleDir: string;
  /** The time every archived file carries. */
  epochSeconds: number;
  /** What each plugin archive holds, as checked. */
  pluginArchives: PluginArchive[];
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function packageVersionOfRepo(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

function checkPlatforms(platforms: readonly string[]): void {
  const known: readonly string[] = releasePlatforms;
  const unknown = platforms.filter((p) => !known.includes(p));
  if (platforms.length === 0 || unknown.length > 0) {
    throw new Error(
      `--platforms ${JSON.stringify(platforms.join(","))} names ${unknown.length > 0 ? `unknown platforms (${unknown.join(", ")})` : "no platform"}: ` +
        `give a comma-separated list of ${releasePlatforms.join(", ")}.`,
    );
  }
}

export async function buildRelease(options: ReleaseOptions): Promise<Release> {
  const version = await packageVersionOfRepo();
  const out = resolve(options.out);
  // Every check first: a refused release removes nothing.
  if (options.pluginDownloadURL !== undefined) checkDownloadUrl(options.pluginDownloadURL);
  checkPlatforms(options.platforms);
  const epochSeconds = await sourceDateEpoch(REPO_ROOT);
  const toolsFolder = await privateToolsFolder(defaultToolsFolder());
  await prepareReleaseFolder(out, protectedFoldersHere(REPO_ROOT, homedir(), tmpdir()));

  const archives = await buildPluginArchives({
    outDir: join(out, "plugin"),
    version,
    platforms: options.platforms,
    sea: options.sea,
    epochSeconds,
  });
  const sdk = join(out, "sdk");
  await generateSdks({
    out: sdk,
    release: {
      ...(options.pluginDownloadURL === undefined
        ? {}
        : { pluginDownloadURL: options.pluginDownloadURL }),
      goModulePath: options.goModulePath,
    },
  });
  const python = await buildPythonPackages(join(sdk, "python"), join(out, "python"), {
    epochSeconds,
    toolsFolder,
  });
  const npm = await packNpmPackages(join(sdk, "nodejs"), join(out, "npm"));
  const go = await packGoModule(join(sdk, "go"), out, version, epochSeconds);
  const files = [...archives.map((a) => a.file), ...python, ...npm, go.tarball];
  const artifacts = await writeChecksums(out, files);
  return { version, out, artifacts, goModuleDir: go.dir, epochSeconds, pluginArchives: archives };
}

/** The Node.js SDK's tarball and this package's own, packed into `outDir`. */
async function packNpmPackages(nodeSdk: string, outDir: string): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), "voiceplatform-release-npm-"));
  let sdkTarball: string;
  try {
    sdkTarball = await packNodeSdk(nodeSdk, work, outDir);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return [sdkTarball, await packThisPackage(REPO_ROOT, outDir)];
}

/** Each file's name, size and sha256, also written to the release's SHA256SUMS. */
async function writeChecksums(out: string, files: readonly string[]): Promise<Artifact[]> {
  const artifacts: Artifact[] = [];
  for (const file of files) {
    artifacts.push({
      name: relative(out, file),
      size: (await stat(file)).size,
      sha256: await sha256(file),
    });
  }
  await writeFile(
    join(out, "SHA256SUMS"),
    artifacts.map((a) => `${a.sha256}  ${a.name}\n`).join(""),
  );
  return artifacts;
}

/** For each plugin archive, the command that checks its sha256 and installs it. */
export function verifiedInstallCommands(release: Release): string[] {
  return release.artifacts
    .filter((a) => a.name.startsWith("plugin/"))
    .map((a) => verifiedInstallCommand(release.version, basename(a.name), a.sha256));
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${(bytes / 1024).toFixed(1)} kB`;
}

/** One line on what an archive holds and what was checked of it. */
export function describeArchive(archive: PluginArchive): string {
  const shared = archive.launcher;
  const server = describeServer(archive);
  if (shared === undefined) return server;
  const signed = shared.signedAs === undefined ? "" : `, ad-hoc signed as ${shared.signedAs}`;
  return `native launcher (${shared.format} ${shared.architecture}${signed}) sharing one server per engine run: ${server}`;
}

function describeServer(archive: PluginArchive): string {
  const executable = archive.executable;
  if (executable === undefined) return "the bundle and a Node.js launcher (needs Node.js on PATH)";
  return [
    `single executable, Node.js ${executable.node}`,
    `${executable.format} ${executable.architecture}`,
    executable.snapshot ? "startup snapshot" : "no snapshot",
    executable.signedAs === undefined
      ? executable.format === "PE"
        ? "unsigned (Node's Authenticode signature removed)"
        : "unsigned"
      : `ad-hoc signed as ${executable.signedAs}, every page verified`,
  ].join(", ");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      "dry-run": { type: "boolean", default: false },
      "plugin-download-url": { type: "string" },
      "go-module-path": { type: "string", default: DEFAULT_GO_MODULE_PATH },
      out: { type: "string", default: join(REPO_ROOT, ".release") },
      "no-sea": { type: "boolean", default: false },
      platforms: { type: "string", default: releasePlatforms.join(",") },
    },
  });
  const given = values["plugin-download-url"] ?? process.env.VOICEPLATFORM_PLUGIN_DOWNLOAD_URL;
  const url = given === "" ? undefined : given;
  if (!values["dry-run"] && url === undefined) {
    throw new Error(
      "a release needs --plugin-download-url <url> (or VOICEPLATFORM_PLUGIN_DOWNLOAD_URL): the " +
        "SDKs tell the engine where to fetch the plugin. Add --dry-run to build without one.",
    );
  }
  const started = Date.now();
  const release = await buildRelease({
    // Relative to the folder `npm run` was started from, not to the repository it runs in.
    out: resolve(process.env.INIT_CWD ?? process.cwd(), values.out),
    ...(url === undefined ? {} : { pluginDownloadURL: url }),
    goModulePath: values["go-module-path"],
    sea: !values["no-sea"],
    platforms: values.platforms.split(",").filter((p) => p !== ""),
  });
  const width = Math.max(...release.artifacts.map((a) => a.name.length));
  process.stdout.write(
    `release ${release.version} in ${release.out} (${Math.round((Date.now() - started) / 1000)} s)\n`,
  );
  process.stdout.write(`  pluginDownloadURL: ${url ?? "(none: the SDKs name no server)"}\n`);
  process.stdout.write(`  Go module path:    ${values["go-module-path"]}\n`);
  for (const a of release.artifacts) {
    process.stdout.write(
      `  ${a.name.padEnd(width)}  ${formatSize(a.size).padStart(9)}  ${a.sha256}\n`,
    );
  }
  process.stdout.write("plugin archives, each executable checked:\n");
  for (const archive of release.pluginArchives) {
    process.stdout.write(`  ${archive.platform.padEnd(14)} ${describeArchive(archive)}\n`);
  }
  process.stdout.write(
    `  SHA256SUMS written; Go module folder ${relative(release.out, release.goModuleDir)}/; ` +
      `files dated ${new Date(release.epochSeconds * 1000).toISOString()}\n`,
  );
  process.stdout.write(
    "install a plugin archive by hand, its sha256 checked first (in the archive's folder):\n",
  );
  for (const command of verifiedInstallCommands(release)) process.stdout.write(`  ${command}\n`);
  if (values["dry-run"]) {
    process.stdout.write("dry run: nothing published.\n");
  } else {
    process.stdout.write(
      `to publish: upload plugin/* to ${url}, python/* with twine, npm/*.tgz with npm publish, ` +
        `and push the go/ folder as ${values["go-module-path"]} tagged v${release.version}.\n`,
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `release failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
