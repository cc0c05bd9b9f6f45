/**
 * `npm run release`: every artifact of one version, built into one folder and described for
 * publishing. Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { generateSdks } from "../codegen/generate-sdks";
import { CHECKSUMS_FILE, writeChecksums, type Artifact } from "./checksums";
import { checkDownloadUrl } from "./download-url";
import {
  mainManifestFields,
  packNativePackages,
  packPluginPackage,
  type NpmPackage,
  type RepoManifest,
} from "./npm-packages";
import { packThisPackage } from "./package-tarball";
import { buildPluginArchives, releasePlatforms, type PluginArchive } from "./plugin-archive";
import {
  checkPublicAddress,
  goModulePath,
  goModuleTag,
  PUBLIC_ADDRESS,
  publicAddresses,
  refusePlaceholder,
  type PublicAddresses,
} from "./public-address";
import { prepareReleaseFolder, protectedFoldersHere } from "./release-folder";
import { releaseManifest, writeReleaseManifest, type ReleaseManifest } from "./release-manifest";
import { versionFromTag } from "./release-version";
import { sourceDateEpoch } from "./reproducible-archive";
import { buildPythonPackages, packGoModule, packNodeSdk } from "./sdk-packages";
import { defaultToolsFolder, privateToolsFolder } from "./tools-folder";
import { verifiedInstallCommand } from "./verified-install";
import { ReleaseInputError } from "./errors";

export type { Artifact } from "./checksums";

const REPO_ROOT = resolve(__dirname, "..", "..");

export interface ReleaseOptions {
  out: string;
  /** `v<semver>`; default `v` and the version in package.json. */
  tag?: string;
  /** Default PUBLIC_ADDRESS. */
  publicAddress?: string;
  /** Default the public address's (the GitHub release of the tag). */
  pluginDownloadURL?: string;
  /** Default the public address's. */
  goModulePath?: string;
  sea: boolean;
  platforms: readonly string[];
  /** Whether the placeholder public address is allowed (a build not meant to be published). */
  dryRun: boolean;
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
  /** What release.json says. */
  manifest: ReleaseManifest;
}

async function repoManifest(): Promise<RepoManifest & { version: string }> {
  return JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as RepoManifest & {
    version: string;
  };
}

async function packageVersionOfRepo(): Promise<string> {
  return (await repoManifest()).version;
}

function checkPlatforms(platforms: readonly string[]): void {
  const known: readonly string[] = releasePlatforms;
  const unknown = platforms.filter((p) => !known.includes(p));
  if (platforms.length === 0 || unknown.length > 0) {
    throw new ReleaseInputError(
      "--platforms",
      `--platforms ${JSON.stringify(platforms.join(","))} names ${unknown.length > 0 ? `unknown platforms (${unknown.join(", ")})` : "no platform"}: ` +
        `give a comma-separated list of ${releasePlatforms.join(", ")}.`,
    );
  }
}

/** The version, the addresses and the URLs of a release, every option checked. */
export interface ReleaseIdentity {
  version: string;
  addresses: PublicAddresses;
  pluginDownloadURL: string;
  goModulePath: string;
}

/** Checks the options that name the release and derives the rest; throws before anything runs. */
export async function releaseIdentity(options: ReleaseOptions): Promise<ReleaseIdentity> {
  const version =
    options.tag === undefined ? await packageVersionOfRepo() : versionFromTag(options.tag);
  if (options.publicAddress !== undefined) {
    checkPublicAddress(options.publicAddress, "--public-address");
  }
  const addresses = publicAddresses(options.publicAddress ?? PUBLIC_ADDRESS);
  if (!options.dryRun) refusePlaceholder(addresses, "a release to publish (no --dry-run)");
  // As typed: the engine fills in ${VERSION}.
  const pluginDownloadURL = checkDownloadUrl(
    options.pluginDownloadURL ?? addresses.pluginDownloadURL,
  );
  return {
    version,
    addresses,
    pluginDownloadURL,
    goModulePath: options.goModulePath ?? goModulePath(addresses.address, version),
  };
}

export async function buildRelease(options: ReleaseOptions): Promise<Release> {
  const out = resolve(options.out);
  // Every check first: a refused release removes nothing.
  const identity = await releaseIdentity(options);
  const { version, addresses } = identity;
  checkPlatforms(options.platforms);
  const platforms = [...new Set(options.platforms)];
  const epochSeconds = await sourceDateEpoch(REPO_ROOT);
  const toolsFolder = await privateToolsFolder(defaultToolsFolder());
  await prepareReleaseFolder(out, protectedFoldersHere(REPO_ROOT, homedir(), tmpdir()));

  const archives = await buildPluginArchives({
    outDir: join(out, "plugin"),
    version,
    platforms,
    sea: options.sea,
    epochSeconds,
  });
  const native = await packNativePackages({
    archives,
    version,
    addresses,
    license: join(REPO_ROOT, "LICENSE"),
    outDir: join(out, "npm"),
  });
  const sdk = join(out, "sdk");
  await generateSdks({
    out: sdk,
    release: {
      version,
      pluginDownloadURL: identity.pluginDownloadURL,
      goModulePath: identity.goModulePath,
      repository: addresses.repository,
      homepage: addresses.homepage,
    },
  });
  const python = await buildPythonPackages(join(sdk, "python"), join(out, "python"), {
    epochSeconds,
    toolsFolder,
  });
  const nodeSdk = await packNodeSdkInto(join(sdk, "nodejs"), join(out, "npm"), version);
  const repo = await repoManifest();
  const plugin = await packPluginPackage({
    repoRoot: REPO_ROOT,
    version,
    platforms,
    addresses,
    repo,
    outDir: join(out, "npm"),
  });
  const main: NpmPackage = {
    name: "pulumi-voice-platform",
    version,
    file: await packThisPackage(
      REPO_ROOT,
      join(out, "npm"),
      mainManifestFields(version, addresses, repo),
    ),
  };
  const go = await packGoModule(join(sdk, "go"), out, version, epochSeconds);
  const npm = [...native, plugin, nodeSdk, main];
  const files = [...archives.map((a) => a.file), ...npm.map((p) => p.file), ...python, go.tarball];
  const artifacts = await writeChecksums(out, files, ["plugin"]);
  const manifest = releaseManifest({
    out,
    version,
    addresses,
    pluginDownloadURL: identity.pluginDownloadURL,
    archives: archives.map((a) => a.file),
    checksums: join(out, "plugin", CHECKSUMS_FILE),
    npm,
    python,
    go: {
      dir: go.dir,
      modulePath: identity.goModulePath,
      tag: goModuleTag(version),
      tarball: go.tarball,
    },
  });
  await writeReleaseManifest(out, manifest);
  return {
    version,
    out,
    artifacts,
    goModuleDir: go.dir,
    epochSeconds,
    pluginArchives: archives,
    manifest,
  };
}

/** The Node.js SDK's tarball, packed into `outDir`. */
async function packNodeSdkInto(
  nodeSdk: string,
  outDir: string,
  version: string,
): Promise<NpmPackage> {
  const work = await mkdtemp(join(tmpdir(), "voiceplatform-release-npm-"));
  try {
    const file = await packNodeSdk(nodeSdk, work, outDir);
    return { name: "pulumi-voice-platform-sdk", version, file };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
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
      tag: { type: "string" },
      "public-address": { type: "string" },
      "plugin-download-url": { type: "string" },
      "go-module-path": { type: "string" },
      out: { type: "string", default: join(REPO_ROOT, ".release") },
      "no-sea": { type: "boolean", default: false },
      platforms: { type: "string", default: releasePlatforms.join(",") },
    },
  });
  const given = values["plugin-download-url"] ?? process.env.VOICEPLATFORM_PLUGIN_DOWNLOAD_URL;
  const started = Date.now();
  const release = await buildRelease({
    // Relative to the folder `npm run` was started from, not to the repository it runs in.
    out: resolve(process.env.INIT_CWD ?? process.cwd(), values.out),
    ...(values.tag === undefined ? {} : { tag: values.tag }),
    ...(values["public-address"] === undefined ? {} : { publicAddress: values["public-address"] }),
    ...(given === undefined || given === "" ? {} : { pluginDownloadURL: given }),
    ...(values["go-module-path"] === undefined ? {} : { goModulePath: values["go-module-path"] }),
    sea: !values["no-sea"],
    platforms: values.platforms.split(",").filter((p) => p !== ""),
    dryRun: values["dry-run"],
  });
  const { manifest } = release;
  const width = Math.max(...release.artifacts.map((a) => a.name.length));
  process.stdout.write(
    `release ${release.version} in ${release.out} (${Math.round((Date.now() - started) / 1000)} s)\n`,
  );
  process.stdout.write(
    `  public address:    ${manifest.publicAddress.address}` +
      `${manifest.publicAddress.placeholder ? " (the placeholder: not for publishing)" : ""}\n`,
  );
  process.stdout.write(`  pluginDownloadURL: ${manifest.pluginDownloadURL}\n`);
  process.stdout.write(`  Go module:         ${manifest.go.modulePath}, tag ${manifest.go.tag}\n`);
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
    `  ${CHECKSUMS_FILE} written here and in plugin/; release.json; Go module folder ` +
      `${relative(release.out, release.goModuleDir)}/; files dated ` +
      `${new Date(release.epochSeconds * 1000).toISOString()}\n`,
  );
  process.stdout.write(
    "install a plugin archive by hand, its sha256 checked first (in the archive's folder):\n",
  );
  for (const command of verifiedInstallCommands(release)) process.stdout.write(`  ${command}\n`);
  process.stdout.write(
    values["dry-run"]
      ? "dry run: nothing published.\n"
      : `to publish: push the tag ${manifest.tag} (.github/workflows/release.yml), or ` +
          `npm run release:publish -- --from ${release.out} (docs/development.md, Releasing).\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `release failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}
