/**
 * `npm run release -- --dry-run --tag v<version>` as a release manager runs it: every artifact is
 * built and listed with its size and sha256. (The SDKs installed by name from registry stand-ins,
 * each program fetching the plugin from the pluginDownloadURL the release was given, `${VERSION}`
 * in it filled in by the engine: installed-by-name.test.ts.) The tag's version (not
 * package.json's) is read back from every artifact. The npm packages install from their tarballs
 * as npm installs them: the plugin package's bin runs this platform's native package, or says why
 * not; the package of the dynamic resources names no native package and holds no plugin.
 *
 * And the release is safe for the machine and the user: a python planted where earlier releases
 * kept their tools (a fixed folder under the temporary folder) never runs; no archive carries a
 * source map or a path of this machine; a second release with the same inputs (another output
 * folder, another temporary folder, an untracked file in the checkout) gives the same bytes; the
 * install command it prints for each archive installs it after checking its sha256, and refuses a
 * changed archive; the archives check against plugin/SHA256SUMS in the folder they are
 * downloaded to.
 *
 * @slow about 4 minutes: two whole releases, npm installs
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, type Stats } from "node:fs";
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { extract, list } from "tar";
import { cli, describeE2E } from "../e2e/harness";
import { packageVersion } from "../../provider/schema/package-schema";
import {
  archiveName,
  hostPlatform,
  PLUGIN_NAME,
  releasePlatforms,
} from "../../provider/release/plugin-archive";
import { checkedFormat, type ExecutableFacts } from "../../provider/release/executable-format";
import { nodeBinaries } from "../../provider/release/node-binaries";
import { hasSharedServer, SHARED_SERVER_NAME } from "../../provider/release/shared-launcher";
import { defaultToolsFolder } from "../../provider/release/tools-folder";
import { PUBLIC_ADDRESS } from "../../provider/release/public-address";
import { nativePackageName, nativePlatforms } from "../../provider/plugin/native-packages";
import { installFromTarballs } from "../support/npm-route";
import { packPackage, REPO_ROOT } from "../support/packed-package";
import { startProviderProcess } from "../support/provider-process";
import { installedPlugin, pathWithoutPlugin, prepareProgram } from "./one-carrier";
import { servePluginFolder, type PluginServer } from "./plugin-server";

const run = promisify(execFile);

/** A whole release: 3-4 minutes on a quiet 2-core machine, over 10 on a busy one. */
const RELEASE_TIMEOUT_MS = 1_800_000;

/** Not the committed module path: the release sets it. */
const GO_MODULE_PATH = "example.com/voiceplatform/sdk/go";

/** The release's tag: a version package.json does not have, so every artifact shows where its came from. */
const TAG = "v0.1.1-rc.7";
const VERSION = "0.1.1-rc.7";
/** The same version as PEP 440 spells it, as the Python package carries it. */
const PYTHON_VERSION = "0.1.1rc7";

/** What the launcher of darwin-arm64 (no single executable) is. */
const expectedLauncher: Record<string, { format: string; architecture: string }> = {
  "darwin-arm64": { format: "Mach-O", architecture: "arm64" },
};

/** A file of the working tree's build, which a release must leave as it is. */
const DIST_FILE = join(REPO_ROOT, "dist", "provider", "index.js");

/** What each single executable is, as the format check reads it. */
const expectedFacts: Record<string, ExecutableFacts> = {
  "linux-amd64": { format: "ELF", architecture: "x86-64", fuse: true },
  "linux-arm64": { format: "ELF", architecture: "AArch64", fuse: true },
  "darwin-amd64": {
    format: "Mach-O",
    architecture: "x86_64",
    fuse: true,
    signedAs: PLUGIN_NAME,
  },
  "windows-amd64": { format: "PE", architecture: "AMD64", fuse: true, authenticode: false },
};

/**
 * Runs `npm run release -- --dry-run --tag TAG` into `out` with TMPDIR `temporary`; returns what it
 * printed.
 */
async function release(out: string, url: string, temporary: string): Promise<string> {
  const args = ["--dry-run", "--tag", TAG, "--out", out, "--plugin-download-url", url];
  const { stdout } = await run(
    "npm",
    ["run", "--silent", "release", "--", ...args, "--go-module-path", GO_MODULE_PATH],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        // gen-sdk needs the CLI and its language hosts first on PATH.
        PATH: `${pathWithoutPlugin()}${delimiter}${process.env.PATH}`,
        TMPDIR: temporary,
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`npm run release failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  return stdout;
}

/**
 * The working tree packed in place as `npm pack` packs it, its build first made current (the
 * tests' build, which rebuilds dist/ only when it is not the build of the sources).
 */
async function packedInRepository(destination: string): Promise<string> {
  await packPackage();
  await mkdir(destination);
  const { stdout } = await run(
    "npm",
    ["pack", "--ignore-scripts", "--pack-destination", destination, "--json", "--loglevel=error"],
    { cwd: REPO_ROOT },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(destination, filename);
}

/**
 * Plants, where releases before 0.1.0 kept their Python tools (trusted when `.ready` existed), a
 * python that leaves `proof` behind. Returns the temporary folder to run the release with.
 */
async function plantOldToolsFolder(root: string, proof: string): Promise<string> {
  const temporary = join(root, "tmp");
  const venv = join(temporary, "pulumi-voice-platform-release-tools", "python-build");
  await mkdir(join(venv, "bin"), { recursive: true });
  await writeFile(join(venv, ".ready"), "");
  await writeFile(join(venv, "bin", "python"), `#!/bin/sh\ntouch '${proof}'\nexit 1\n`);
  await chmod(join(venv, "bin", "python"), 0o755);
  return temporary;
}

/** This machine's native package. */
function hostNative() {
  return nativePlatforms.find((p) => p.platform === hostPlatform())!;
}

/** Every file of a .tgz, by its path in it. */
async function tarballFiles(file: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  await list({
    file,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => files.set(entry.path, Buffer.concat(chunks)));
    },
  });
  return files;
}

/** Every file of a plugin archive, unpacked, by name. */
async function unpacked(archive: string, into: string): Promise<Map<string, Buffer>> {
  await mkdir(into, { recursive: true });
  await extract({ file: archive, cwd: into });
  const files = new Map<string, Buffer>();
  for (const name of await readdir(into)) files.set(name, await readFile(join(into, name)));
  return files;
}

describeE2E("npm run release -- --dry-run", () => {
  /** A tarball of the release's npm/ folder. */
  const manifestNpmFile = (name: string) => join(out, "npm", name);
  const version = VERSION;
  let root: string;
  let out: string;
  let printed: string;
  let plantedProof: string;
  let server: PluginServer;
  let repoTarball: string;
  let distBefore: Stats;
  let distAfter: Stats;
  let downloadUrl: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-release-"));
    out = join(root, "release");
    plantedProof = join(root, "planted-python-ran");
    server = await servePluginFolder(join(out, "plugin"));
    repoTarball = await packedInRepository(join(root, "repository-pack"));
    distBefore = await stat(DIST_FILE);
    // ${VERSION} as the release manager types it, for the engine to fill in.
    downloadUrl = `${server.url}v\${VERSION}/`;
    printed = await release(out, downloadUrl, await plantOldToolsFolder(root, plantedProof));
    distAfter = await stat(DIST_FILE);
  }, RELEASE_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  test("every artifact is built, printed and summed", async () => {
    const sums = (await readFile(join(out, "SHA256SUMS"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => line.split(/\s+/) as [string, string]);
    const names = sums.map(([, name]) => name);
    expect(names.sort()).toEqual(
      [
        ...releasePlatforms.map((p) => `plugin/${archiveName(version, p)}`),
        ...nativePlatforms.map((p) => `npm/${nativePackageName(p)}-${version}.tgz`),
        `python/pulumi_voiceplatform-${PYTHON_VERSION}-py3-none-any.whl`,
        `python/pulumi_voiceplatform-${PYTHON_VERSION}.tar.gz`,
        `npm/pulumi-voice-platform-plugin-${version}.tgz`,
        `npm/pulumi-voice-platform-sdk-${version}.tgz`,
        `npm/pulumi-voice-platform-${version}.tgz`,
        `pulumi-voiceplatform-go-sdk-v${version}.tar.gz`,
      ].sort(),
    );
    for (const [sum, name] of sums) {
      const actual = createHash("sha256")
        .update(await readFile(join(out, name)))
        .digest("hex");
      expect(`${name} ${actual}`).toBe(`${name} ${sum}`);
      expect(printed).toContain(`${name} `);
      expect(printed).toContain(sum);
    }
  });

  test("the package is built in a copy: the working tree's dist/ is untouched, the tarball is what `npm pack` makes there but for the release's fields and without the plugin and source maps", async () => {
    // Tests and examples beside a release load dist/; `npm pack` in the repository rebuilds it.
    expect({ ino: distAfter.ino, mtimeMs: distAfter.mtimeMs }).toEqual({
      ino: distBefore.ino,
      mtimeMs: distBefore.mtimeMs,
    });
    const released = await tarballFiles(join(out, "npm", `pulumi-voice-platform-${version}.tgz`));
    const packed = await tarballFiles(repoTarball);
    // The plugin package's files, and the source maps (of TypeScript files not shipped), left out.
    const pluginOnly = (name: string) =>
      /^package\/(provider\/plugin\/(bin|pulumi-plugin)\/|dist\/provider\/plugin\/pulumi-resource-voiceplatform\.js)/.test(
        name,
      ) || name.endsWith(".map");
    expect([...released.keys()].sort()).toEqual(
      [...packed.keys()].filter((n) => !pluginOnly(n)).sort(),
    );
    expect([...packed.keys()].filter(pluginOnly).length).toBeGreaterThan(0);
    const policyPack = "package/dist/provider/policy/pack/package.json";
    const differing = [...released].filter(([name, bytes]) => !bytes.equals(packed.get(name)!));
    expect(differing.map(([name]) => name).sort()).toEqual([policyPack, "package/package.json"]);
    // The policy pack names the package at the release's version, and differs in nothing else.
    const packManifest = (files: Map<string, Buffer>) =>
      JSON.parse(files.get(policyPack)!.toString("utf8")) as {
        version: string;
        dependencies: Record<string, string>;
      };
    const releasedPack = packManifest(released);
    expect(releasedPack).toEqual({
      ...packManifest(packed),
      version,
      dependencies: { ...packManifest(packed).dependencies, "pulumi-voice-platform": version },
    });
    // The plugin package's bundle differs by the version it reports, and nothing else.
    const bundle = "package/dist/provider/plugin/pulumi-resource-voiceplatform.js";
    const pluginFiles = await tarballFiles(
      join(out, "npm", `pulumi-voice-platform-plugin-${version}.tgz`),
    );
    const releasedBundle = pluginFiles.get(bundle)!.toString("utf8");
    expect(
      releasedBundle.split(JSON.stringify(version)).join(JSON.stringify(packageVersion())),
    ).toBe(packed.get(bundle)!.toString("utf8"));
    // package.json: the release's fields written over the repository's, the rest as it is.
    const manifest = (name: Map<string, Buffer>) =>
      JSON.parse(name.get("package/package.json")!.toString("utf8")) as Record<string, unknown>;
    const {
      version: v,
      repository,
      homepage,
      bugs,
      bin,
      exports,
      files,
      ...rest
    } = manifest(released);
    const repo = manifest(packed);
    expect(rest).toEqual(
      Object.fromEntries(
        Object.entries(repo).filter(
          ([key]) => !["version", "bin", "exports", "files"].includes(key),
        ),
      ),
    );
    // No native package, not even optional: npm would download the one of the platform.
    expect(rest).not.toHaveProperty("optionalDependencies");
    expect({ v, bin, exports: Object.keys(exports as object) }).toEqual({
      v: version,
      bin: { "pulumi-voice-platform": "dist/provider/cli/main.js" },
      exports: Object.keys(repo.exports as object).filter((key) => key !== "./plugin"),
    });
    expect(files).toEqual(expect.arrayContaining(["!dist/**/*.map"]));
    const pluginManifest = JSON.parse(pluginFiles.get("package/package.json")!.toString("utf8"));
    expect(pluginManifest).toMatchObject({
      name: "pulumi-voice-platform-plugin",
      version,
      bin: { [PLUGIN_NAME]: `provider/plugin/bin/${PLUGIN_NAME}` },
      optionalDependencies: Object.fromEntries(
        nativePlatforms.map((p) => [nativePackageName(p), version]),
      ),
    });
    expect({ repository, homepage, bugs }).toEqual({
      repository: { type: "git", url: `git+https://${PUBLIC_ADDRESS}.git` },
      homepage: `https://${PUBLIC_ADDRESS}#readme`,
      bugs: { url: `https://${PUBLIC_ADDRESS}/issues` },
    });
  });

  test("each plugin archive: on Linux and macOS the native launcher before the server, a checked single executable where Node.js 22 is pinned", async () => {
    for (const platform of releasePlatforms) {
      const archive = join(out, "plugin", archiveName(version, platform));
      const { stdout } = await run("tar", ["-tzvf", archive]);
      const entries = stdout.trim().split("\n");
      const pin = nodeBinaries[platform];
      const shared = hasSharedServer(platform);
      const entry = (name: string) => entries.find((line) => line.endsWith(` ${name}`));
      // The engine runs `pulumi-resource-voiceplatform` (.exe on Windows); on Linux and macOS
      // that is the launcher, and the server is beside it.
      const executable = pin?.executable ?? PLUGIN_NAME;
      const server = shared ? SHARED_SERVER_NAME : executable;
      expect([platform, entry(executable)?.slice(0, 10)]).toEqual([platform, "-rwxr-xr-x"]);
      expect([platform, entry(server)?.slice(0, 10)]).toEqual([platform, "-rwxr-xr-x"]);
      const bundled = entries.some((line) => line.endsWith(` ${PLUGIN_NAME}.js`));
      // A single executable holds the bundle; darwin-arm64 runs it with the node on PATH.
      expect([platform, bundled]).toEqual([platform, pin === undefined]);
      expect(entries.some((line) => line.endsWith(`${PLUGIN_NAME}.cmd`))).toBe(
        platform === "windows-amd64" && pin === undefined,
      );
      const files = await unpacked(archive, join(root, "formats", platform));
      if (shared) {
        // The launcher: this platform's format and architecture, no Node.js in it.
        const launcher = files.get(PLUGIN_NAME)!;
        const facts = checkedFormat(launcher, platform);
        const expected = expectedFacts[platform] ?? expectedLauncher[platform]!;
        expect([platform, facts.format, facts.architecture, facts.fuse]).toEqual([
          platform,
          expected.format,
          expected.architecture,
          false,
        ]);
        expect(launcher.length).toBeLessThan(8 * 1024 * 1024);
      }
      if (pin === undefined) continue;
      // Format and architecture; the fuse set; darwin's ad-hoc signature verified page by page.
      expect([platform, checkedFormat(files.get(server)!, platform)]).toEqual([
        platform,
        expectedFacts[platform],
      ]);
    }
    // What the release says it built and checked, per platform.
    expect(printed).toMatch(
      /linux-amd64 +native launcher \(ELF x86-64\) sharing one server per engine run: single executable, Node\.js 22\.\d+\.\d+, ELF x86-64, startup snapshot, unsigned\n/,
    );
    expect(printed).toMatch(
      /darwin-amd64 +native launcher \(Mach-O x86_64, ad-hoc signed as pulumi-resource-voiceplatform\) sharing one server per engine run: single executable, Node\.js 22\.\d+\.\d+, Mach-O x86_64, no snapshot, ad-hoc signed as pulumi-resource-voiceplatform, every page verified\n/,
    );
    expect(printed).toMatch(/windows-amd64 +single executable, .*Authenticode signature removed/);
    expect(printed).toMatch(
      /darwin-arm64 +native launcher \(Mach-O arm64, ad-hoc signed as [^)]+\) sharing one server per engine run: the bundle and a Node\.js launcher/,
    );
  });

  test("a python planted in the old fixed tools folder under the temporary folder never ran", () => {
    expect(existsSync(plantedProof)).toBe(false);
  });

  test("no archive holds a source map or a path of the machine that built it", async () => {
    // Paths of this build: the repository, the release's own and temporary folders, the stage.
    const buildPaths = [REPO_ROOT, root, "voiceplatform-plugin-archive-", defaultToolsFolder()];
    for (const platform of releasePlatforms) {
      const archive = join(out, "plugin", archiveName(version, platform));
      const names: string[] = [];
      await list({ file: archive, onReadEntry: (entry) => void names.push(entry.path) });
      expect([platform, names.filter((name) => /\.map$/.test(name))]).toEqual([platform, []]);
      const files = await unpacked(archive, join(root, "unpacked", platform));
      for (const [name, content] of files) {
        const found = buildPaths.filter((path) => content.includes(path));
        expect([platform, name, found]).toEqual([platform, name, []]);
        // Only in the bundle: node itself (the single executable) mentions source maps.
        if (name.endsWith(".js")) {
          expect([platform, name, content.includes("sourceMappingURL")]).toEqual([
            platform,
            name,
            false,
          ]);
        }
      }
    }
  });

  test(
    "a second release from the same inputs, elsewhere, with an untracked file in the checkout, gives the same bytes",
    async () => {
      const again = join(root, "again");
      const otherTemporary = join(root, "tmp-again");
      await mkdir(otherTemporary);
      // What Go would stamp into the launcher: the checkout's state (issue 38).
      const untracked = join(REPO_ROOT, `untracked-by-release-test-${process.pid}.txt`);
      await writeFile(untracked, "not committed\n");
      try {
        const { stdout } = await run("git", ["status", "--porcelain", "--untracked-files=all"], {
          cwd: REPO_ROOT,
        });
        expect(stdout).toContain(`?? untracked-by-release-test-${process.pid}.txt`);
        await release(again, downloadUrl, otherTemporary);
      } finally {
        await rm(untracked, { force: true });
      }
      for (const sums of ["SHA256SUMS", join("plugin", "SHA256SUMS")]) {
        const first = await readFile(join(out, sums), "utf8");
        const second = await readFile(join(again, sums), "utf8");
        expect(second.split("\n")).toEqual(first.split("\n"));
      }
      const count = (await readFile(join(out, "SHA256SUMS"), "utf8")).trim().split("\n").length;
      // An archive and a native package per platform; the plugin package, the SDK, the package,
      // the wheel, the sdist and the Go module's tarball.
      expect(count).toBe(releasePlatforms.length * 2 + 6);
    },
    RELEASE_TIMEOUT_MS,
  );

  test("the archives check against plugin/SHA256SUMS in the folder they are downloaded to", async () => {
    const downloads = join(root, "downloads");
    await mkdir(downloads);
    const name = archiveName(version, hostPlatform());
    await copyFile(join(out, "plugin", name), join(downloads, name));
    await copyFile(join(out, "plugin", "SHA256SUMS"), join(downloads, "SHA256SUMS"));
    // As docs/installation-configuration.md says: the archives downloaded, and SHA256SUMS.
    const { stdout } = await run("sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"], {
      cwd: downloads,
    });
    expect(stdout).toBe(`${name}: OK\n`);
    const listed = (await readFile(join(downloads, "SHA256SUMS"), "utf8")).trim().split("\n");
    expect(listed.map((line) => line.split("  ")[1]).sort()).toEqual(
      releasePlatforms.map((p) => archiveName(version, p)).sort(),
    );
  });

  test("the printed install command checks the archive's sha256, installs it, refuses a changed one", async () => {
    const name = archiveName(version, hostPlatform());
    const command = printed
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.endsWith(`--file ${name}`));
    expect(command).toMatch(
      /^echo "[0-9a-f]{64} {2}\S+" \| sha256sum -c - && pulumi plugin install /,
    );
    const install = async (folder: string) => {
      await mkdir(folder, { recursive: true });
      const env = { ...process.env, PATH: `${cli!.binDir}${delimiter}${process.env.PATH}` };
      const pulumiHome = join(folder, "home");
      return run("bash", ["-c", command!], {
        cwd: folder,
        env: { ...env, PULUMI_HOME: pulumiHome, PULUMI_SKIP_UPDATE_CHECK: "true" },
      }).then(
        ({ stdout }) => ({ code: 0, output: stdout, pulumiHome }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
          pulumiHome,
        }),
      );
    };

    const good = join(root, "install-good");
    await mkdir(good);
    await copyFile(join(out, "plugin", name), join(good, name));
    const installed = await install(good);
    expect([installed.code, installed.output]).toEqual([0, expect.stringContaining(`${name}: OK`)]);
    expect(existsSync(installedPlugin(installed.pulumiHome, version))).toBe(true);

    const changed = join(root, "install-changed");
    await mkdir(changed);
    const bytes = await readFile(join(out, "plugin", name));
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 100) ^ 0xff, bytes.length - 100);
    await writeFile(join(changed, name), bytes);
    const refused = await install(changed);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`${name}: FAILED`);
    expect(existsSync(installedPlugin(refused.pulumiHome, version))).toBe(false);
  });

  test("one version everywhere: the tag's, read back from every artifact", async () => {
    expect(version).not.toBe(packageVersion());
    const manifest = JSON.parse(await readFile(join(out, "release.json"), "utf8")) as {
      version: string;
      tag: string;
      python: { version: string };
      go: { modulePath: string; version: string; tag: string };
      npm: { name: string; version: string; file: string }[];
      pluginDownloadURL: string;
    };
    expect(manifest).toMatchObject({
      version,
      tag: TAG,
      pluginDownloadURL: downloadUrl,
      python: { version: PYTHON_VERSION },
      go: { modulePath: GO_MODULE_PATH, version: TAG, tag: `provider/sdk/go/${TAG}` },
    });
    // Every npm package, native ones and the SDK included; the SDK names the plugin's version.
    expect(manifest.npm.map((p) => p.name)).toEqual([
      ...nativePlatforms.map(nativePackageName),
      "pulumi-voice-platform-plugin",
      "pulumi-voice-platform-sdk",
      "pulumi-voice-platform",
    ]);
    for (const pkg of manifest.npm) {
      const files = await tarballFiles(join(out, pkg.file));
      const packageJson = JSON.parse(files.get("package/package.json")!.toString("utf8")) as {
        name: string;
        version: string;
        pulumi?: { version?: string; server?: string };
      };
      expect([pkg.name, packageJson.name, packageJson.version]).toEqual([
        pkg.name,
        pkg.name,
        version,
      ]);
      if (pkg.name === "pulumi-voice-platform-sdk") {
        expect(packageJson.pulumi).toMatchObject({ version, server: downloadUrl });
      }
    }
    // The wheel's and the sdist's metadata, and the plugin version the Python SDK asks for.
    const fromWheel = async (member: string) =>
      (
        await run("python3", [
          "-c",
          "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
          join(out, "python", `pulumi_voiceplatform-${PYTHON_VERSION}-py3-none-any.whl`),
          member,
        ])
      ).stdout;
    expect(await fromWheel(`pulumi_voiceplatform-${PYTHON_VERSION}.dist-info/METADATA`)).toMatch(
      new RegExp(`^Version: ${PYTHON_VERSION.replace(/\./g, "\\.")}$`, "m"),
    );
    expect(JSON.parse(await fromWheel("pulumi_voiceplatform/pulumi-plugin.json"))).toMatchObject({
      name: "voiceplatform",
      version,
      server: downloadUrl,
    });
    const sdist = await tarballFiles(
      join(out, "python", `pulumi_voiceplatform-${PYTHON_VERSION}.tar.gz`),
    );
    const pkgInfo = [...sdist].find(([name]) => /^[^/]+\/PKG-INFO$/.test(name))![1].toString();
    expect(pkgInfo).toMatch(new RegExp(`^Version: ${PYTHON_VERSION.replace(/\./g, "\\.")}$`, "m"));
    // The Go module: its path and the plugin version it asks for.
    expect(await readFile(join(out, "go", "go.mod"), "utf8")).toMatch(
      new RegExp(`^module ${GO_MODULE_PATH.replace(/\./g, "\\.")}$`, "m"),
    );
    expect(
      JSON.parse(await readFile(join(out, "go", "voiceplatform", "pulumi-plugin.json"), "utf8")),
    ).toMatchObject({ version, server: downloadUrl });
    // Each archive: this platform's launcher and server say it; the others carry it.
    const host = join(root, "version-host");
    await unpacked(join(out, "plugin", archiveName(version, hostPlatform())), host);
    const said = (await run(join(host, PLUGIN_NAME), ["--version"])).stdout;
    expect(said).toMatch(
      new RegExp(
        `^pulumi-resource-voiceplatform ${version.replace(/\./g, "\\.")}: native launcher .*\npulumi-voiceplatform-server ${version.replace(/\./g, "\\.")}: a single executable of Node\.js 22\.`,
      ),
    );
    for (const platform of releasePlatforms.filter((p) => p !== hostPlatform())) {
      const files = await unpacked(
        join(out, "plugin", archiveName(version, platform)),
        join(root, "version", platform),
      );
      const holding = [...files].filter(([, bytes]) => bytes.includes(version)).map(([n]) => n);
      // The launcher (its -X main.version) and the single executable (the bundle in its blob);
      // where there is none (darwin-arm64), the bundle the Node.js script runs.
      const carriers = [
        ...(hasSharedServer(platform) ? [PLUGIN_NAME] : []),
        nodeBinaries[platform] === undefined
          ? `${PLUGIN_NAME}.js`
          : hasSharedServer(platform)
            ? SHARED_SERVER_NAME
            : nodeBinaries[platform]!.executable,
      ];
      expect([platform, carriers.filter((name) => !holding.includes(name))]).toEqual([
        platform,
        [],
      ]);
    }
  });

  test("pulumi plugin ls and pulumi about show the tag's version", async () => {
    const name = archiveName(version, hostPlatform());
    const home = join(root, "about-home");
    const env = {
      ...process.env,
      PATH: `${cli!.binDir}${delimiter}${process.env.PATH}`,
      PULUMI_HOME: home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_BACKEND_URL: `file://${root}`,
    };
    await run(
      cli!.pulumi,
      [
        "plugin",
        "install",
        "resource",
        "voiceplatform",
        version,
        "--file",
        join(out, "plugin", name),
      ],
      { env },
    );
    const listed = (await run(cli!.pulumi, ["plugin", "ls"], { env })).stdout;
    expect(listed).toMatch(
      new RegExp(`voiceplatform\\s+resource\\s+${version.replace(/\./g, "\\.")}\\s`),
    );
    // A TypeScript program with the released SDK: about lists the plugin it needs.
    const program = join(root, "about-program");
    await prepareProgram("nodejs", program, {
      artifact: join(out, "npm", `pulumi-voice-platform-sdk-${version}.tgz`),
    });
    const about = (
      await run(cli!.pulumi, ["about", "--json"], { cwd: program, env }).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout }),
      )
    ).stdout;
    const plugins = (
      JSON.parse(about.slice(about.indexOf("{"))) as {
        plugins: { name: string; kind: string; version: string }[];
      }
    ).plugins;
    expect(plugins).toContainEqual({ name: "voiceplatform", kind: "resource", version });
  });

  test("npm installs the plugin package with this platform's native package: its bin runs the native launcher, linked in place at the first start", async () => {
    const native = manifestNpmFile(`${nativePackageName(hostNative())}-${version}.tgz`);
    const main = manifestNpmFile(`pulumi-voice-platform-plugin-${version}.tgz`);
    const installed = await installFromTarballs(join(root, "npm-route"), [native, main]);
    const said = (await run(installed.bin, ["--version"])).stdout;
    expect(said).toContain(`pulumi-resource-voiceplatform ${version}: native launcher`);
    expect(said).toContain(`pulumi-voiceplatform-server ${version}: a single executable`);
    const own = join(
      installed.dir,
      "node_modules",
      "pulumi-voice-platform-plugin",
      "provider",
      "plugin",
      "bin",
      PLUGIN_NAME,
    );
    expect(await readlink(own)).toBe(
      `../../../../${nativePackageName(hostNative())}/bin/${PLUGIN_NAME}`,
    );
    const plugin = await startProviderProcess(installed.dir, {}, { executable: installed.bin });
    try {
      expect(await plugin.getPluginInfo()).toEqual({ version });
    } finally {
      await plugin.close();
    }
  });

  test("npm installs the plugin package without optional dependencies: its bin runs the bundle on Node.js and says why", async () => {
    const main = manifestNpmFile(`pulumi-voice-platform-plugin-${version}.tgz`);
    const installed = await installFromTarballs(join(root, "npm-route-node"), [main], {
      omitOptional: true,
    });
    const reason = `${nativePackageName(hostNative())} is not installed`;
    const versionLine = (await run(installed.bin, ["--version"])).stdout;
    // Starts as every --version line does: the name, then the version.
    const nameAndVersion = `pulumi-resource-voiceplatform ${version}: `;
    expect(versionLine.slice(0, nameAndVersion.length)).toBe(nameAndVersion);
    expect(versionLine).toContain(`the bundled plugin on Node.js ${process.version} `);
    expect(versionLine).toContain(`(no native executable: ${reason} `);
    expect(versionLine).toContain("--omit=optional or --no-optional leaves it out))\n");
    const plugin = await startProviderProcess(installed.dir, {}, { executable: installed.bin });
    try {
      expect(await plugin.getPluginInfo()).toEqual({ version });
    } finally {
      await plugin.close();
    }
    expect(plugin.stderr).toContain(
      `pulumi-resource-voiceplatform: running on Node.js ${process.version}: ${reason}`,
    );
  });
});
