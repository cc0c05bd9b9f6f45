/**
 * The native npm packages: their manifests (one per platform, `os`/`cpu` as npm matches them,
 * optional dependencies of the plugin package at exactly its version, of the package of the
 * dynamic resources never), and how the package's bin picks
 * the one installed for this machine or says why it runs the plugin on Node.js instead. Fake
 * packages in a temporary node_modules stand in for installed ones.
 */
import { execFile } from "node:child_process";
import { lstat, mkdir, mkdtemp, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import {
  nativePackageName,
  nativePlatforms,
  nativePlugin,
} from "../../provider/plugin/native-packages";
import { fallbackVersionLine, linkInPlace } from "../../provider/plugin/package-bin";
import {
  mainManifestFields,
  nativeManifest,
  nativePlatformOf,
  pluginManifest,
} from "../../provider/release/npm-packages";
import { releasePlatforms } from "../../provider/release/plugin-archive";
import { publicAddresses } from "../../provider/release/public-address";

const run = promisify(execFile);
const addresses = publicAddresses("github.com/acme/pulumi-voice-platform");

describe("the native packages' manifests", () => {
  test("one per release platform, named and matched as npm names the platform", () => {
    expect(nativePlatforms.map((p) => p.platform).sort()).toEqual([...releasePlatforms].sort());
    expect(nativePlatforms.map(nativePackageName)).toEqual([
      "pulumi-voice-platform-linux-x64",
      "pulumi-voice-platform-linux-arm64",
      "pulumi-voice-platform-darwin-x64",
      "pulumi-voice-platform-darwin-arm64",
      "pulumi-voice-platform-win32-x64",
    ]);
    expect(nativeManifest(nativePlatformOf("linux-arm64"), "1.2.0", addresses)).toEqual({
      name: "pulumi-voice-platform-linux-arm64",
      version: "1.2.0",
      description:
        "The voiceplatform Pulumi provider plugin for linux-arm64, installed by " +
        "pulumi-voice-platform-plugin as an optional dependency.",
      license: "Apache-2.0",
      repository: { type: "git", url: "git+https://github.com/acme/pulumi-voice-platform.git" },
      homepage: "https://github.com/acme/pulumi-voice-platform#readme",
      bugs: { url: "https://github.com/acme/pulumi-voice-platform/issues" },
      os: ["linux"],
      cpu: ["arm64"],
      libc: ["glibc"],
      files: ["bin"],
      preferUnplugged: true,
    });
    expect(nativeManifest(nativePlatformOf("windows-amd64"), "1.2.0", addresses)).toMatchObject({
      os: ["win32"],
      cpu: ["x64"],
    });
    expect(nativeManifest(nativePlatformOf("darwin-arm64"), "1.2.0", addresses)).not.toHaveProperty(
      "libc",
    );
  });

  /** The repository's package.json fields the manifests are derived from. */
  const repo = {
    bin: {
      "pulumi-resource-voiceplatform": "provider/plugin/bin/pulumi-resource-voiceplatform",
      "pulumi-voice-platform": "dist/provider/cli/main.js",
    },
    exports: {
      ".": { default: "./dist/provider/index.js" },
      "./plugin": "./dist/provider/plugin/pulumi-resource-voiceplatform.js",
    },
    files: ["dist/provider", "provider/plugin/bin", "provider/plugin/pulumi-plugin", "docs"],
    engines: { node: ">=20.19" },
  };
  const addressFields = {
    repository: { type: "git", url: "git+https://github.com/acme/pulumi-voice-platform.git" },
    homepage: "https://github.com/acme/pulumi-voice-platform#readme",
    bugs: { url: "https://github.com/acme/pulumi-voice-platform/issues" },
  };

  test("the plugin package names the ones built as optional dependencies at exactly its version", () => {
    expect(pluginManifest("1.2.0", ["windows-amd64", "linux-amd64"], addresses, repo)).toEqual({
      name: "pulumi-voice-platform-plugin",
      version: "1.2.0",
      description: expect.stringContaining("pulumi-resource-voiceplatform, on PATH"),
      license: "Apache-2.0",
      ...addressFields,
      bin: { "pulumi-resource-voiceplatform": "provider/plugin/bin/pulumi-resource-voiceplatform" },
      exports: {
        "./plugin": "./dist/provider/plugin/pulumi-resource-voiceplatform.js",
        "./package.json": "./package.json",
      },
      files: ["dist/provider/plugin", "provider/plugin/bin", "provider/plugin/pulumi-plugin"],
      engines: { node: ">=20.19" },
      optionalDependencies: {
        "pulumi-voice-platform-linux-x64": "1.2.0",
        "pulumi-voice-platform-win32-x64": "1.2.0",
      },
    });
    expect(() => nativePlatformOf("freebsd-amd64")).toThrow("no native npm package");
  });

  test("the package of the dynamic resources names no native package and ships no plugin or source map", () => {
    expect(mainManifestFields("1.2.0", addresses, repo)).toEqual({
      version: "1.2.0",
      ...addressFields,
      bin: { "pulumi-voice-platform": "dist/provider/cli/main.js" },
      exports: { ".": { default: "./dist/provider/index.js" } },
      files: [
        "dist/provider",
        "docs",
        "!dist/provider/plugin/pulumi-resource-voiceplatform.js",
        "!dist/provider/plugin/pulumi-resource-voiceplatform.js.LEGAL.txt",
        "!dist/**/*.map",
      ],
    });
  });
});

describe("the package's bin picks the native package", () => {
  let root: string;
  let packageDir: string;

  /** A fake native package for linux-x64 at `version`, with an executable that says its name. */
  async function installNative(version: string, withExecutable = true): Promise<string> {
    const dir = join(root, "node_modules", "pulumi-voice-platform-linux-x64");
    await mkdir(join(dir, "bin"), { recursive: true });
    await writeFile(join(dir, "package.json"), JSON.stringify({ version }));
    const executable = join(dir, "bin", "pulumi-resource-voiceplatform");
    if (withExecutable)
      await writeFile(executable, '#!/bin/sh\necho native "$@"\n', { mode: 0o755 });
    return executable;
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-native-"));
    packageDir = join(root, "node_modules", "pulumi-voice-platform");
    await mkdir(packageDir, { recursive: true });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const linux = { os: "linux", cpu: "x64" };

  test("the installed package of this platform at the package's version", async () => {
    const executable = await installNative("1.2.0");
    expect(nativePlugin(packageDir, "1.2.0", linux)).toEqual({
      kind: "native",
      packageName: "pulumi-voice-platform-linux-x64",
      executable,
    });
  });

  test("none installed (npm left the optional dependency out): Node.js, saying so", () => {
    expect(nativePlugin(packageDir, "1.2.0", linux)).toEqual({
      kind: "node",
      reason:
        "pulumi-voice-platform-linux-x64 is not installed (npm installs it with the package as " +
        "an optional dependency; an install with --omit=optional or --no-optional leaves it out)",
    });
  });

  test("another version, or one without its executable: Node.js, saying which", async () => {
    await installNative("1.1.0");
    expect(nativePlugin(packageDir, "1.2.0", linux)).toEqual({
      kind: "node",
      reason:
        "pulumi-voice-platform-linux-x64 is 1.1.0, not 1.2.0 like the package: install both anew",
    });
    await rm(join(root, "node_modules", "pulumi-voice-platform-linux-x64"), { recursive: true });
    await installNative("1.2.0", false);
    expect(nativePlugin(packageDir, "1.2.0", linux)).toMatchObject({
      kind: "node",
      reason: "pulumi-voice-platform-linux-x64 has no bin/pulumi-resource-voiceplatform",
    });
  });

  test("a platform no package is built for: Node.js, naming those there are", () => {
    expect(nativePlugin(packageDir, "1.2.0", { os: "freebsd", cpu: "x64" })).toEqual({
      kind: "node",
      reason:
        "no native package is built for freebsd-x64 (only linux-x64, linux-arm64, darwin-x64, " +
        "darwin-arm64, win32-x64)",
    });
    const line = fallbackVersionLine("1.2.0", "no native package is built for freebsd-x64");
    // Starts as every --version line does: the name, then the version.
    expect(line).toMatch(/^pulumi-resource-voiceplatform 1\.2\.0: /);
    expect(line).toContain(`bundled plugin on Node.js ${process.version} `);
    expect(line).toContain("(no native executable: ");
    expect(line).toMatch(/ freebsd-x64\)\n$/);
  });

  test("the bin puts a link to the native executable in its own place; npm's link then runs it", async () => {
    const executable = await installNative("1.2.0");
    const script = join(packageDir, "provider", "plugin", "bin", "pulumi-resource-voiceplatform");
    await mkdir(dirname(script), { recursive: true });
    await writeFile(script, "#!/bin/sh\necho script\n", { mode: 0o755 });
    const npmLink = join(root, "node_modules", ".bin", "pulumi-resource-voiceplatform");
    await mkdir(dirname(npmLink));
    await symlink(
      "../pulumi-voice-platform/provider/plugin/bin/pulumi-resource-voiceplatform",
      npmLink,
    );
    expect((await run(npmLink, ["--version"])).stdout).toBe("script\n");

    expect(linkInPlace(script, executable)).toBeUndefined();
    expect((await lstat(script)).isSymbolicLink()).toBe(true);
    // Relative: the install can move as a whole.
    expect(await readlink(script)).toBe(
      "../../../../pulumi-voice-platform-linux-x64/bin/pulumi-resource-voiceplatform",
    );
    expect((await run(npmLink, ["--version"])).stdout).toBe("native --version\n");
  });

  test("where the link cannot be made, the bin says why and leaves its file as it was", async () => {
    const executable = await installNative("1.2.0");
    const script = join(root, "read-only", "pulumi-resource-voiceplatform");
    await mkdir(dirname(script));
    await writeFile(script, "#!/bin/sh\necho script\n", { mode: 0o755 });
    await rm(executable);
    expect(linkInPlace(script, executable)).toMatch(/ENOENT/);
    expect((await lstat(script)).isFile()).toBe(true);
  });
});
