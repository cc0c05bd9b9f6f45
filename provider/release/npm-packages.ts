/**
 * The release's native npm package per platform, and the release's fields in the package's own
 * package.json. Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { execFile } from "node:child_process";
import { cp, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { extract } from "tar";
import {
  NATIVE_BIN_FOLDER,
  nativePackageName,
  nativePlatforms,
  NPM_PACKAGE_NAME,
  PLUGIN_PACKAGE_NAME,
  type NativePlatform,
} from "../plugin/native-packages";
import type { PublicAddresses } from "./public-address";
import { PLUGIN_NAME } from "./plugin-archive";
import { BUNDLE_SETTINGS, bundlePlugin } from "./plugin-bundle";
import { ReleaseInputError, ReleaseToolError } from "./errors";

const run = promisify(execFile);

export interface NpmPackage {
  readonly name: string;
  readonly version: string;
  /** The packed tarball. */
  readonly file: string;
}

/** The native package of Pulumi platform `platform`; throws for one without. */
export function nativePlatformOf(platform: string): NativePlatform {
  const found = nativePlatforms.find((p) => p.platform === platform);
  if (found === undefined)
    throw new ReleaseInputError("--platforms", `no native npm package is made for ${platform}`);
  return found;
}

/** package.json's `repository`, `homepage` and `bugs`, from the public address. */
function addressFields(addresses: PublicAddresses): Record<string, unknown> {
  return {
    repository: { type: "git", url: addresses.gitUrl },
    homepage: addresses.homepage,
    bugs: { url: addresses.issues },
  };
}

/** The package.json of the native package for `platform`. */
export function nativeManifest(
  platform: NativePlatform,
  version: string,
  addresses: PublicAddresses,
): Record<string, unknown> {
  return {
    name: nativePackageName(platform),
    version,
    description:
      `The voiceplatform Pulumi provider plugin for ${platform.os}-${platform.cpu}, installed by ` +
      `${PLUGIN_PACKAGE_NAME} as an optional dependency.`,
    license: "Apache-2.0",
    ...addressFields(addresses),
    os: [platform.os],
    cpu: [platform.cpu],
    // Node.js's Linux executables need glibc: elsewhere (musl) npm leaves the package out.
    ...(platform.os === "linux" ? { libc: ["glibc"] } : {}),
    files: [NATIVE_BIN_FOLDER],
    preferUnplugged: true,
  };
}

/** The repository's package.json fields the release's manifests are derived from. */
export interface RepoManifest {
  readonly bin: Record<string, string>;
  readonly exports: Record<string, unknown>;
  readonly files: readonly string[];
  readonly engines: Record<string, string>;
}

/** The plugin's files in the repository's package: they go into the plugin package instead. */
const PLUGIN_FILES = ["provider/plugin/bin", "provider/plugin/pulumi-plugin"];

/**
 * What the release writes over the package's own package.json: the package of the dynamic
 * resources, the CLI and the testing entry points, without the plugin. No native package (npm
 * downloads an optional dependency for the platform, and nothing here starts the plugin), no
 * plugin bin, bundle or `./plugin` export (those are the plugin package's, pluginManifest), and
 * no source map (each points at a TypeScript file the package does not ship).
 */
export function mainManifestFields(
  version: string,
  addresses: PublicAddresses,
  repo: RepoManifest,
): Record<string, unknown> {
  const { [PLUGIN_NAME]: _plugin, ...bin } = repo.bin;
  const { "./plugin": _export, ...exports } = repo.exports;
  return {
    version,
    ...addressFields(addresses),
    bin,
    exports,
    files: [
      ...repo.files.filter((file) => !PLUGIN_FILES.includes(file)),
      `!dist/provider/plugin/${PLUGIN_NAME}.js`,
      `!dist/provider/plugin/${PLUGIN_NAME}.js.LEGAL.txt`,
      "!dist/**/*.map",
    ],
  };
}

/**
 * The package.json of the plugin package: `pulumi-resource-voiceplatform` as its bin, the bundle
 * for the Node.js fallback, and the native package of each of `platforms` as an optional
 * dependency, sorted.
 */
export function pluginManifest(
  version: string,
  platforms: readonly string[],
  addresses: PublicAddresses,
  repo: RepoManifest,
): Record<string, unknown> {
  const optional = platforms.map((platform) => [
    nativePackageName(nativePlatformOf(platform)),
    version,
  ]);
  return {
    name: PLUGIN_PACKAGE_NAME,
    version,
    description:
      `The voiceplatform Pulumi provider plugin, ${PLUGIN_NAME}, on PATH with npm install -g: ` +
      `the native executable of the platform, or the bundled plugin on Node.js.`,
    license: "Apache-2.0",
    ...addressFields(addresses),
    bin: { [PLUGIN_NAME]: repo.bin[PLUGIN_NAME] },
    exports: { "./plugin": repo.exports["./plugin"], "./package.json": "./package.json" },
    files: ["dist/provider/plugin", ...PLUGIN_FILES],
    engines: repo.engines,
    optionalDependencies: Object.fromEntries(optional.sort(([a], [b]) => (a! < b! ? -1 : 1))),
  };
}

function pluginReadme(addresses: PublicAddresses): string {
  return (
    `# ${PLUGIN_PACKAGE_NAME}\n\n` +
    `The voiceplatform Pulumi provider plugin for a YAML program: \`npm install -g ` +
    `${PLUGIN_PACKAGE_NAME}\` puts \`${PLUGIN_NAME}\` on \`PATH\`. It runs the native package of ` +
    `the platform (\`${NPM_PACKAGE_NAME}-<os>-<cpu>\`, an optional dependency), else the bundled ` +
    `plugin on Node.js, saying why. A TypeScript program installs \`${NPM_PACKAGE_NAME}\` (the ` +
    `dynamic resources) or \`${NPM_PACKAGE_NAME}-sdk\` instead. See ${addresses.homepage}.\n`
  );
}

/**
 * Packs the plugin package into `outDir`: the bundle built at `version`, the bin and the plugin
 * folder from `repoRoot`, and package-bin.ts bundled into one file for the bin to load.
 */
export async function packPluginPackage(options: {
  repoRoot: string;
  version: string;
  platforms: readonly string[];
  addresses: PublicAddresses;
  repo: RepoManifest;
  outDir: string;
}): Promise<NpmPackage> {
  const stage = await mkdtemp(join(tmpdir(), "voiceplatform-plugin-package-"));
  try {
    const pluginDist = join(stage, "dist", "provider", "plugin");
    await bundlePlugin(pluginDist, PLUGIN_NAME, options.version);
    await build({
      ...BUNDLE_SETTINGS,
      entryPoints: [join(options.repoRoot, "provider", "plugin", "package-bin.ts")],
      outfile: join(pluginDist, "package-bin.js"),
      logLevel: "error",
    });
    for (const folder of PLUGIN_FILES) {
      await cp(join(options.repoRoot, folder), join(stage, folder), { recursive: true });
    }
    const manifest = pluginManifest(
      options.version,
      options.platforms,
      options.addresses,
      options.repo,
    );
    await writeFile(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(stage, "README.md"), pluginReadme(options.addresses));
    await copyFile(join(options.repoRoot, "LICENSE"), join(stage, "LICENSE"));
    await mkdir(options.outDir, { recursive: true });
    return {
      name: PLUGIN_PACKAGE_NAME,
      version: options.version,
      file: await npmPack(stage, options.outDir),
    };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

function nativeReadme(platform: NativePlatform, addresses: PublicAddresses): string {
  return (
    `# ${nativePackageName(platform)}\n\n` +
    `The voiceplatform Pulumi provider plugin for ${platform.os}-${platform.cpu}: the files of its ` +
    `release archive under \`${NATIVE_BIN_FOLDER}/\`. Install \`${PLUGIN_PACKAGE_NAME}\`, not this: ` +
    `it installs the package of your platform as an optional dependency, and its ` +
    `\`pulumi-resource-voiceplatform\` runs it. See ${addresses.homepage}.\n`
  );
}

/** Runs `npm pack` in `dir` into `outDir`; returns the tarball's path. */
async function npmPack(dir: string, outDir: string): Promise<string> {
  const { stdout } = await run(
    "npm",
    ["pack", "--pack-destination", outDir, "--json", "--loglevel=error", "--ignore-scripts"],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stderr?: string }) => {
    throw new ReleaseToolError("npm pack", `npm pack in ${dir} failed: ${error.stderr}`);
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(outDir, filename);
}

/**
 * Packs the native package of each archive (`archives`: Pulumi platform and .tar.gz) into
 * `outDir`, with `license` (the repository's LICENSE) beside its files.
 */
export async function packNativePackages(options: {
  archives: readonly { platform: string; file: string }[];
  version: string;
  addresses: PublicAddresses;
  license: string;
  outDir: string;
}): Promise<NpmPackage[]> {
  const stage = await mkdtemp(join(tmpdir(), "voiceplatform-native-packages-"));
  try {
    await mkdir(options.outDir, { recursive: true });
    const packed: NpmPackage[] = [];
    for (const archive of options.archives) {
      const platform = nativePlatformOf(archive.platform);
      const dir = join(stage, platform.platform);
      await mkdir(join(dir, NATIVE_BIN_FOLDER), { recursive: true });
      await extract({ file: archive.file, cwd: join(dir, NATIVE_BIN_FOLDER) });
      const manifest = nativeManifest(platform, options.version, options.addresses);
      await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      await writeFile(join(dir, "README.md"), nativeReadme(platform, options.addresses));
      await copyFile(options.license, join(dir, "LICENSE"));
      packed.push({
        name: nativePackageName(platform),
        version: options.version,
        file: await npmPack(dir, options.outDir),
      });
    }
    return packed;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
