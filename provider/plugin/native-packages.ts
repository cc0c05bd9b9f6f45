/**
 * The plugin's native npm packages, one per platform, as esbuild, Biome and Turborepo ship theirs:
 * `pulumi-voice-platform-<os>-<cpu>` (npm's names for the platform) with `os` and `cpu` fields,
 * each an optional dependency of the plugin's own package (PLUGIN_PACKAGE_NAME, what
 * `npm install -g` puts on PATH) at the same version, so npm installs only the one that fits. The
 * package of the dynamic resources names none of them: a program on those never starts the
 * plugin, so its install downloads no executable. Each holds its platform's plugin archive as it is (provider/release/plugin-archive.ts)
 * under bin/: on Linux and macOS the native launcher and the server it shares between providers,
 * on Windows the single executable.
 *
 * The plugin package's `pulumi-resource-voiceplatform` (bin/, a Node.js script) runs the one that
 * fits (nativePlugin below) and runs the plugin on Node.js itself only when none does, saying so.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const NPM_PACKAGE_NAME = "pulumi-voice-platform";
/** The plugin's npm package: its bin, its bundle, and the native packages as optional ones. */
export const PLUGIN_PACKAGE_NAME = `${NPM_PACKAGE_NAME}-plugin`;

export interface NativePlatform {
  /** Pulumi's name, as the archives carry it. */
  readonly platform: string;
  /** npm's `os` and `cpu` (Node.js's process.platform and process.arch). */
  readonly os: string;
  readonly cpu: string;
  /** The executable the engine runs, in the package's bin/. */
  readonly executable: string;
}

export const nativePlatforms: readonly NativePlatform[] = [
  { platform: "linux-amd64", os: "linux", cpu: "x64", executable: "pulumi-resource-voiceplatform" },
  {
    platform: "linux-arm64",
    os: "linux",
    cpu: "arm64",
    executable: "pulumi-resource-voiceplatform",
  },
  {
    platform: "darwin-amd64",
    os: "darwin",
    cpu: "x64",
    executable: "pulumi-resource-voiceplatform",
  },
  {
    platform: "darwin-arm64",
    os: "darwin",
    cpu: "arm64",
    executable: "pulumi-resource-voiceplatform",
  },
  {
    platform: "windows-amd64",
    os: "win32",
    cpu: "x64",
    executable: "pulumi-resource-voiceplatform.exe",
  },
];

/** The folder of a native package that holds the archive's files. */
export const NATIVE_BIN_FOLDER = "bin";

export function nativePackageName(platform: Pick<NativePlatform, "os" | "cpu">): string {
  return `${NPM_PACKAGE_NAME}-${platform.os}-${platform.cpu}`;
}

/** What the package's bin runs: a native package's executable, or the plugin on this Node.js. */
export type PluginChoice =
  | { readonly kind: "native"; readonly packageName: string; readonly executable: string }
  | { readonly kind: "node"; readonly reason: string };

export interface Host {
  readonly os: string;
  readonly cpu: string;
}

/**
 * The native executable for `host` installed beside the package in `packageDir` at `version`,
 * or why there is none.
 */
export function nativePlugin(
  packageDir: string,
  version: string,
  host: Host = { os: process.platform, cpu: process.arch },
): PluginChoice {
  const platform = nativePlatforms.find((p) => p.os === host.os && p.cpu === host.cpu);
  if (platform === undefined) {
    const built = nativePlatforms.map((p) => `${p.os}-${p.cpu}`).join(", ");
    return {
      kind: "node",
      reason: `no native package is built for ${host.os}-${host.cpu} (only ${built})`,
    };
  }
  const packageName = nativePackageName(platform);
  let manifest: string;
  try {
    manifest = require.resolve(`${packageName}/package.json`, { paths: [packageDir] });
  } catch {
    return {
      kind: "node",
      reason:
        `${packageName} is not installed (npm installs it with the package as an optional ` +
        `dependency; an install with --omit=optional or --no-optional leaves it out)`,
    };
  }
  const installed = (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
  if (installed !== version) {
    return {
      kind: "node",
      reason: `${packageName} is ${installed}, not ${version} like the package: install both anew`,
    };
  }
  const executable = join(dirname(manifest), NATIVE_BIN_FOLDER, platform.executable);
  if (!existsSync(executable)) {
    return {
      kind: "node",
      reason: `${packageName} has no ${NATIVE_BIN_FOLDER}/${platform.executable}`,
    };
  }
  return { kind: "native", packageName, executable };
}
