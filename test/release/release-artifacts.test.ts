/**
 * `npm run release -- --dry-run` as a release manager runs it: every artifact is built, listed
 * with its size and sha256, and installs into a fresh project outside the repository: the wheel
 * into a virtualenv, the Node.js SDK tarball with npm, the Go module through a local module path.
 * Each runs a one-carrier program against the emulator, fetching the plugin from a local server
 * that the release named as pluginDownloadURL, with a Go module path given at release time.
 *
 * And the release is safe for the machine and the user: a python planted where earlier releases
 * kept their tools (a fixed folder under the temporary folder) never runs; no archive carries a
 * source map or a path of this machine; a second release with the same inputs (another output
 * folder, another temporary folder) gives the same bytes; the install command it prints for each
 * archive installs it after checking its sha256, and refuses a changed archive.
 *
 * @slow about 3 minutes: two whole releases, and a program per language installed and run
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
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { extract, list } from "tar";
import { startEmulator, type RunningEmulator } from "../emulator";
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
import { packPackage, REPO_ROOT } from "../support/packed-package";
import {
  API_KEY,
  installedPlugin,
  pathWithoutPlugin,
  prepareProgram,
  runOneCarrier,
  type ReleaseLanguage,
} from "./one-carrier";
import { servePluginFolder, type PluginServer } from "./plugin-server";

const run = promisify(execFile);

/** Not the committed module path: the release sets it. */
const GO_MODULE_PATH = "example.com/voiceplatform/sdk/go";

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

/** Runs `npm run release -- --dry-run` into `out` with TMPDIR `temporary`; returns what it printed. */
async function release(out: string, url: string, temporary: string): Promise<string> {
  const args = ["--dry-run", "--out", out, "--plugin-download-url", url];
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

/** Every file of a plugin archive, unpacked, by name. */
async function unpacked(archive: string, into: string): Promise<Map<string, Buffer>> {
  await mkdir(into, { recursive: true });
  await extract({ file: archive, cwd: into });
  const files = new Map<string, Buffer>();
  for (const name of await readdir(into)) files.set(name, await readFile(join(into, name)));
  return files;
}

describeE2E("npm run release -- --dry-run", () => {
  const version = packageVersion();
  let root: string;
  let out: string;
  let printed: string;
  let plantedProof: string;
  let server: PluginServer;
  let emulator: RunningEmulator;
  let repoTarball: string;
  let distBefore: Stats;
  let distAfter: Stats;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-release-"));
    out = join(root, "release");
    plantedProof = join(root, "planted-python-ran");
    server = await servePluginFolder(join(out, "plugin"));
    emulator = await startEmulator({ apiKey: API_KEY });
    repoTarball = await packedInRepository(join(root, "repository-pack"));
    distBefore = await stat(DIST_FILE);
    printed = await release(out, server.url, await plantOldToolsFolder(root, plantedProof));
    distAfter = await stat(DIST_FILE);
  });

  afterAll(async () => {
    await server?.close();
    await emulator?.close();
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
        `python/pulumi_voiceplatform-${version}-py3-none-any.whl`,
        `python/pulumi_voiceplatform-${version}.tar.gz`,
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

  test("the package is built in a copy: the working tree's dist/ is untouched, the tarball is what `npm pack` makes there", async () => {
    // Tests and examples beside a release load dist/; `npm pack` in the repository rebuilds it.
    expect({ ino: distAfter.ino, mtimeMs: distAfter.mtimeMs }).toEqual({
      ino: distBefore.ino,
      mtimeMs: distBefore.mtimeMs,
    });
    const sha256Of = async (file: string) =>
      createHash("sha256")
        .update(await readFile(file))
        .digest("hex");
    expect(await sha256Of(join(out, "npm", `pulumi-voice-platform-${version}.tgz`))).toBe(
      await sha256Of(repoTarball),
    );
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

  test("a second release from the same inputs, elsewhere, gives the same bytes", async () => {
    const again = join(root, "again");
    const otherTemporary = join(root, "tmp-again");
    await mkdir(otherTemporary);
    await release(again, server.url, otherTemporary);
    const first = await readFile(join(out, "SHA256SUMS"), "utf8");
    const second = await readFile(join(again, "SHA256SUMS"), "utf8");
    expect(second.split("\n")).toEqual(first.split("\n"));
    expect(first.trim().split("\n")).toHaveLength(releasePlatforms.length + 5);
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

  const installs: Record<ReleaseLanguage, () => string> = {
    python: () => join(out, "python", `pulumi_voiceplatform-${version}-py3-none-any.whl`),
    nodejs: () => join(out, "npm", `pulumi-voice-platform-sdk-${version}.tgz`),
    go: () => join(out, "go"),
  };

  for (const language of ["python", "nodejs", "go"] as const) {
    test(`${language}: the released SDK installs outside the repository; the engine fetches the plugin; up creates once`, async () => {
      const requestsBefore = server.requests.length;
      const program = join(root, `program-${language}`);
      await prepareProgram(language, program, {
        artifact: installs[language](),
        goModulePath: GO_MODULE_PATH,
      });
      const { pulumiHome } = await runOneCarrier(program, join(root, `run-${language}`), emulator);
      expect(server.requests.slice(requestsBefore)).toContain(
        `GET /${archiveName(version, hostPlatform())} 200`,
      );
      expect(existsSync(installedPlugin(pulumiHome, version))).toBe(true);
    });
  }
});
