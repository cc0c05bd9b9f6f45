/**
 * The release's native npm package per platform, and the release's fields in the package's own
 * package.json. Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { extract } from "tar";
import {
  NATIVE_BIN_FOLDER,
  nativePackageName,
  nativePlatforms,
  NPM_PACKAGE_NAME,
  type NativePlatform,
} from "../plugin/native-packages";
import type { PublicAddresses } from "./public-address";
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
      `${NPM_PACKAGE_NAME} as an optional dependency.`,
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

/** What the release writes over the package's own package.json. */
export function mainManifestFields(
  version: string,
  platforms: readonly string[],
  addresses: PublicAddresses,
): Record<string, unknown> {
  const optional = platforms.map((platform) => [
    nativePackageName(nativePlatformOf(platform)),
    version,
  ]);
  return {
    version,
    ...addressFields(addresses),
    optionalDependencies: Object.fromEntries(optional.sort(([a], [b]) => (a! < b! ? -1 : 1))),
  };
}

function nativeReadme(platform: NativePlatform, addresses: PublicAddresses): string {
  return (
    `# ${nativePackageName(platform)}\n\n` +
    `The voiceplatform Pulumi provider plugin for ${platform.os}-${platform.cpu}: the files of its ` +
    `release archive under \`${NATIVE_BIN_FOLDER}/\`. Install \`${NPM_PACKAGE_NAME}\`, not this: ` +
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
