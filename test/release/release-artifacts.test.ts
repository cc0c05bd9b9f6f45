/**
 * `npm run release -- --dry-run` as a release manager runs it: every artifact is built, listed
 * with its size and sha256, and installs into a fresh project outside the repository: the wheel
 * into a virtualenv, the Node.js SDK tarball with npm, the Go module through a local module path.
 * Each runs a one-carrier program against the emulator, fetching the plugin from a local server
 * that the release named as pluginDownloadURL, with a Go module path given at release time.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { describeE2E } from "../e2e/harness";
import { packageVersion } from "../../provider/plugin/schema";
import {
  archiveName,
  hostPlatform,
  PLUGIN_NAME,
  releasePlatforms,
} from "../../provider/release/plugin-archive";
import { REPO_ROOT } from "../support/packed-package";
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

describeE2E("npm run release -- --dry-run", () => {
  const version = packageVersion();
  let root: string;
  let out: string;
  let printed: string;
  let server: PluginServer;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-release-"));
    out = join(root, "release");
    server = await servePluginFolder(join(out, "plugin"));
    emulator = await startEmulator({ apiKey: API_KEY });
    const args = ["--dry-run", "--out", out, "--plugin-download-url", server.url];
    const { stdout } = await run(
      "npm",
      ["run", "--silent", "release", "--", ...args, "--go-module-path", GO_MODULE_PATH],
      {
        cwd: REPO_ROOT,
        // gen-sdk needs the CLI and its language hosts first on PATH.
        env: { ...process.env, PATH: `${pathWithoutPlugin()}${delimiter}${process.env.PATH}` },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`npm run release failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    });
    printed = stdout;
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

  test("each plugin archive has the executable at its root; the host's is a single executable", async () => {
    for (const platform of releasePlatforms) {
      const archive = join(out, "plugin", archiveName(version, platform));
      const { stdout } = await run("tar", ["-tzvf", archive]);
      const entries = stdout.trim().split("\n");
      const executable = entries.find((line) => line.endsWith(` ${PLUGIN_NAME}`));
      expect([platform, executable?.slice(0, 10)]).toEqual([platform, "-rwxr-xr-x"]);
      const bundled = entries.some((line) => line.endsWith(` ${PLUGIN_NAME}.js`));
      // The host's archive holds the bundle inside the executable; the others run it with node.
      expect([platform, bundled]).toEqual([platform, platform !== hostPlatform()]);
      expect(entries.some((line) => line.endsWith(`${PLUGIN_NAME}.cmd`))).toBe(
        platform.startsWith("windows-"),
      );
    }
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
