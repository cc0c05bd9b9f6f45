/**
 * Installed by name: a release built with `npm run release`, published with
 * `npm run release:publish` into local stand-ins of each registry (verdaccio for npm, pypiserver
 * for PyPI with twine, a GOPROXY folder, a loopback server at pluginDownloadURL), then six
 * programs outside the repository that install it by name only (by-name-programs.ts), with a fresh
 * PULUMI_HOME, a PATH without the clone (the CLI and its language hosts, node, python3 and go, as a
 * user has them) and npm, pip and go pointed at the stand-ins. Each, with the emulator as the
 * platform: `pulumi preview` sends nothing, `pulumi up --yes` (with its preview) creates each
 * object once, a second `pulumi preview` shows no changes and sends nothing.
 *
 * The publish itself: every artifact lands, no credential is printed, a second run leaves
 * everything as it is, and a release with this placeholder address is refused for a registry
 * that is not a loopback stand-in.
 *
 * @slow about 6 minutes: a release (one platform), five installs from the stand-ins, six programs
 * (Go's first build of a Pulumi program alone is ~100 s with a cold build cache)
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, readFile, mkdtemp, rm, readdir, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator, type RequestLogEntry } from "../../provider/emulator";
import { cli, describeE2E } from "../e2e/harness";
import { packageVersion } from "../../provider/schema/package-schema";
import { archiveName, hostPlatform } from "../../provider/release/plugin-archive";
import { nativePlatformOf } from "../../provider/release/npm-packages";
import { nativePackageName, nativePlatforms } from "../../provider/plugin/native-packages";
import { REPO_ROOT } from "../support/packed-package";
import { locateTool, toolMissing } from "../support/test-tools";
import { pulumiVersion } from "../languages/toolchains";
import { installedPlugin, pathWithoutPlugin } from "./one-carrier";
import { servePluginFolder, type PluginServer } from "./plugin-server";
import {
  goProxyChain,
  startPypiserver,
  startVerdaccio,
  type RunningStandIn,
} from "./registry-stand-ins";
import { byNamePrograms, writeProgram, type ByNameProgram, type Command } from "./by-name-programs";

const run = promisify(execFile);

/** A module path the GOPROXY folder serves; on a reserved domain, so a placeholder address. */
const GO_MODULE_PATH = "example.com/voiceplatform/sdk/go";
const API_KEY = "by-name-api-key-7d21";
const PASSPHRASE = "by-name-passphrase";
/** The stand-ins' accounts: what publish must never print. */
const NPM_ACCOUNT = { user: "publisher", secret: "npm-account-Secret-4711" };
const PYPI_ACCOUNT = { user: "uploader", secret: "pypi-Upload-Secret-0815" };

/** What a command printed, and how it ended. */
interface Ran {
  code: number | null;
  output: string;
}

function runCommand(command: Command, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function succeeded(command: Command, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const ran = await runCommand(command, cwd, env);
  if (ran.code !== 0) {
    throw new Error(`${command.join(" ")} (in ${cwd}) exited with ${ran.code}:\n${ran.output}`);
  }
  return ran.output;
}

/** process.env without anything that would point a tool elsewhere than this test says. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      /^(npm_|VOICEPLATFORM_|PULUMI_|PIP_|GO|NODE_AUTH_TOKEN$|TWINE_|NODE_OPTIONS$)/i.test(name)
    ) {
      continue;
    }
    env[name] = value;
  }
  return env;
}

const requestLine = (r: RequestLogEntry) => `${r.method} ${r.path}`;

/** Where npm says it got a package from: the `resolved` URL in a lock file. */
async function resolvedFrom(lockFile: string, name: string): Promise<string | undefined> {
  const lock = JSON.parse(await readFile(lockFile, "utf8")) as {
    packages: Record<string, { resolved?: string }>;
  };
  return lock.packages[`node_modules/${name}`]?.resolved;
}

/** The most the dynamic route may add to node_modules beyond @pulumi/pulumi alone (issue 47). */
const DYNAMIC_ROUTE_MAX_EXTRA_BYTES = 10_000_000;

/** The bytes of every file under `dir`, links not followed (as `du -sb` counts them). */
async function treeBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await treeBytes(path);
    else if (entry.isFile()) bytes += (await lstat(path)).size;
  }
  return bytes;
}

/** Every native package (`pulumi-voice-platform-<os>-<cpu>`) installed under `nodeModules`. */
async function nativePackagesUnder(nodeModules: string): Promise<string[]> {
  const names = new Set(nativePlatforms.map(nativePackageName));
  const found: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(nodeModules, entry.name);
    if (names.has(entry.name)) found.push(path);
    if (entry.name.startsWith("@")) found.push(...(await nativePackagesUnder(path)));
    if (existsSync(join(path, "node_modules"))) {
      found.push(...(await nativePackagesUnder(join(path, "node_modules"))));
    }
  }
  return found;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

const standIns = (["verdaccio", "pypiserver"] as const).map((tool) => ({
  available: locateTool(tool) !== undefined,
  missing: toolMissing(tool),
}));

describeE2E(
  "installed by name from the registries' stand-ins",
  () => {
    const version = packageVersion();
    let root: string;
    let release: string;
    let download: PluginServer;
    let verdaccio: RunningStandIn & { token: string };
    let pypi: RunningStandIn;
    let goProxy: string;
    let published: Ran;
    let publishArgs: Command;
    let publishEnv: NodeJS.ProcessEnv;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), "voiceplatform-by-name-"));
      release = join(root, "release");
      goProxy = join(root, "goproxy");
      download = await servePluginFolder(join(root, "download"));
      [verdaccio, pypi] = await Promise.all([
        startVerdaccio(join(root, "verdaccio"), NPM_ACCOUNT, [
          "pulumi-voice-platform",
          "pulumi-voice-platform-*",
        ]),
        startPypiserver(join(root, "pypiserver"), PYPI_ACCOUNT),
      ]);
      // The release as a release manager builds it, for this platform only (the test runs here).
      await succeeded(
        [
          "npm",
          "run",
          "--silent",
          "release",
          "--",
          // The placeholder public address, with the stand-ins' addresses in its place.
          "--dry-run",
          "--out",
          release,
          "--plugin-download-url",
          // ${VERSION} as the release manager types it, for the engine to fill in.
          `${download.url}v\${VERSION}/`,
          "--go-module-path",
          GO_MODULE_PATH,
          "--platforms",
          hostPlatform(),
        ],
        REPO_ROOT,
        // gen-sdk needs the CLI and its language hosts first on PATH.
        { ...baseEnv(), PATH: `${pathWithoutPlugin()}${delimiter}${process.env.PATH}` },
      );
      publishArgs = [
        "npm",
        "run",
        "--silent",
        "release:publish",
        "--",
        "--from",
        release,
        "--plugin-folder",
        join(root, "download"),
        "--go-proxy-folder",
        goProxy,
        "--python-repository",
        pypi.url,
        "--python-index",
        `${pypi.url}simple/`,
        "--npm-registry",
        verdaccio.url,
      ];
      publishEnv = {
        ...baseEnv(),
        PATH: `${pathWithoutPlugin()}${delimiter}${process.env.PATH}`,
        NODE_AUTH_TOKEN: verdaccio.token,
        TWINE_USERNAME: PYPI_ACCOUNT.user,
        TWINE_PASSWORD: PYPI_ACCOUNT.secret,
      };
      published = await runCommand(publishArgs, REPO_ROOT, publishEnv);
    });

    afterAll(async () => {
      await Promise.all([download?.close(), verdaccio?.close(), pypi?.close()]);
      if (root !== undefined) await rm(root, { recursive: true, force: true });
    });

    test("release:publish puts every artifact in its stand-in and prints no credential", async () => {
      expect([published.code, published.output]).toEqual([
        0,
        expect.stringContaining("published."),
      ]);
      for (const secret of [verdaccio.token, NPM_ACCOUNT.secret, PYPI_ACCOUNT.secret]) {
        expect(published.output.toLowerCase()).not.toContain(secret.toLowerCase());
      }
      expect(published.output).toContain(
        `npm: published pulumi-voice-platform@${version} (sha512-`,
      );
      expect(published.output).toContain(`npm: published pulumi-voice-platform-sdk@${version}`);
      expect(published.output).toContain(`python: uploaded pulumi_voiceplatform-${version}.tar.gz`);
      expect(published.output).toMatch(
        new RegExp(
          `go: ${GO_MODULE_PATH}@v${version} published, fetched and summed by go mod download`,
        ),
      );
      expect(await readdir(join(root, "download"))).toEqual(
        expect.arrayContaining([archiveName(version, hostPlatform()), "SHA256SUMS"]),
      );
      expect((await readdir(join(root, "pypiserver", "packages"))).sort()).toEqual([
        `pulumi_voiceplatform-${version}-py3-none-any.whl`,
        `pulumi_voiceplatform-${version}.tar.gz`,
      ]);
      expect(verdaccio.requests()).toEqual(
        expect.arrayContaining([
          `PUT /${nativePackageName(nativePlatformOf(hostPlatform()))}`,
          "PUT /pulumi-voice-platform",
          "PUT /pulumi-voice-platform-plugin",
          "PUT /pulumi-voice-platform-sdk",
        ]),
      );
      const sums = await readFile(join(root, "download", "SHA256SUMS"), "utf8");
      expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${archiveName(version, hostPlatform())}\n$`));
    });

    test("a second publish leaves every version as it is", async () => {
      const again = await runCommand(publishArgs, REPO_ROOT, publishEnv);
      expect([again.code, again.output]).toEqual([0, expect.stringContaining("published.")]);
      expect(again.output).toContain("plugin: 0 archive(s) published, 1 already there");
      expect(again.output).toContain(`go: ${GO_MODULE_PATH}@v${version} unchanged`);
      expect(again.output).toContain(`npm: pulumi-voice-platform@${version} is already there`);
      expect(again.output).toContain("with the same bytes");
      expect(again.output).toContain(
        `python: pulumi_voiceplatform-${version}-py3-none-any.whl is already on the index`,
      );
      expect(again.output).toContain("with the same sha256");
    });

    test("a dry run checks everything, prints the plan and publishes nothing", async () => {
      const writes = () => [
        ...verdaccio.requests().filter((r) => r.startsWith("PUT ")),
        ...pypi.requests().filter((r) => r.startsWith("POST ")),
      ];
      const before = writes().length;
      const goList = await readFile(
        join(goProxy, "example.com", "voiceplatform", "sdk", "go", "@v", "list"),
        "utf8",
      );
      const dry = await runCommand([...publishArgs, "--dry-run"], REPO_ROOT, publishEnv);
      expect([dry.code, dry.output]).toEqual([
        0,
        expect.stringContaining("dry run: every check passed; nothing published."),
      ]);
      expect(dry.output).toContain(`Go module -> GOPROXY folder ${goProxy}`);
      expect(writes()).toHaveLength(before);
      expect(
        await readFile(
          join(goProxy, "example.com", "voiceplatform", "sdk", "go", "@v", "list"),
          "utf8",
        ),
      ).toBe(goList);
    });

    test("this placeholder-address release is refused for a registry that is not a stand-in", async () => {
      const refused = await runCommand(
        ["npm", ...publishArgs.slice(1, 7), "--npm-registry", "https://registry.invalid/"],
        REPO_ROOT,
        publishEnv,
      );
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(
        /publish failed: this release has a placeholder address \(its public address placeholder\.invalid\/\S+ is the placeholder, .*\): users who install it from --npm-registry https:\/\/registry\.invalid/,
      );
    });

    describe("six programs install it by name and run", () => {
      /** The programs; the download server's address is known once beforeAll has run. */
      const programsAt = (pluginDownloadURL: string) =>
        byNamePrograms({
          pulumiVersion: pulumiVersion(),
          version,
          goModulePath: GO_MODULE_PATH,
          pluginDownloadURL,
        });

      /** The environment of a user's shell: the stand-ins as registries, a fresh PULUMI_HOME. */
      function userEnv(home: string): NodeJS.ProcessEnv {
        const npmGlobal = join(home, "npm-global");
        return {
          ...baseEnv(),
          PATH: [join(npmGlobal, "bin"), pathWithoutPlugin(), "/usr/bin", "/bin"].join(delimiter),
          npm_config_registry: verdaccio.url,
          npm_config_prefix: npmGlobal,
          npm_config_userconfig: join(home, "npmrc"),
          npm_config_audit: "false",
          npm_config_fund: "false",
          npm_config_update_notifier: "false",
          PIP_INDEX_URL: `${pypi.url}simple/`,
          PIP_DISABLE_PIP_VERSION_CHECK: "1",
          GOPROXY: goProxyChain(goProxy),
          GONOSUMDB: "example.com/voiceplatform",
          GOFLAGS: "-mod=mod -modcacherw",
          GOMODCACHE: join(home, "go-modules"),
          GOTOOLCHAIN: "local",
          PULUMI_HOME: join(home, "pulumi-home"),
          PULUMI_BACKEND_URL: `file://${join(home, "backend")}`,
          PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
          PULUMI_SKIP_UPDATE_CHECK: "true",
        };
      }

      async function preview(dir: string, env: NodeJS.ProcessEnv) {
        const output = await succeeded(
          [cli!.pulumi, "preview", "--json", "--non-interactive", "--stack", "dev"],
          dir,
          env,
        );
        return JSON.parse(output) as { changeSummary: Record<string, number> };
      }

      for (const { name } of programsAt("http://127.0.0.1/")) {
        test(`${name}: installed by name; preview sends nothing, up creates each object once, a second preview has no changes`, async () => {
          await runProgram(
            programsAt(`${download.url}v${version}/`).find((program) => program.name === name)!,
          );
        });
      }

      test("each npm route's node_modules beside @pulumi/pulumi alone: the dynamic route at most 10 MB more and no native package, the plugin route with its platform's", async () => {
        const home = join(root, "home-sizes");
        const env = userEnv(home);
        const pulumiPin = `@pulumi/pulumi@${pulumiVersion()}`;
        const routes: [string, Command][] = [
          ["@pulumi/pulumi alone", ["npm", "install", pulumiPin]],
          ["dynamic resources", ["npm", "install", "pulumi-voice-platform", pulumiPin]],
          ["plugin SDK", ["npm", "install", "pulumi-voice-platform-sdk", pulumiPin]],
        ];
        const sizes = new Map<string, { bytes: number; natives: string[] }>();
        for (const [route, command] of routes) {
          const dir = join(home, route.replace(/\W+/g, "-"));
          await succeeded(["mkdir", "-p", dir], root, env);
          await succeeded(["npm", "init", "-y"], dir, env);
          await succeeded(command, dir, env);
          const nodeModules = join(dir, "node_modules");
          sizes.set(route, {
            bytes: await treeBytes(nodeModules),
            natives: await nativePackagesUnder(nodeModules),
          });
        }
        // The YAML route: the plugin package installed globally.
        await succeeded(["mkdir", "-p", join(home, "npm-global")], root, env);
        await succeeded(["npm", "install", "-g", "pulumi-voice-platform-plugin"], root, env);
        const global = join(home, "npm-global", "lib", "node_modules");
        sizes.set("plugin on PATH (npm install -g)", {
          bytes: await treeBytes(global),
          natives: await nativePackagesUnder(global),
        });
        const alone = sizes.get("@pulumi/pulumi alone")!.bytes;
        process.stdout.write(
          "node_modules per npm route:\n" +
            [...sizes]
              .map(
                ([route, { bytes, natives }]) =>
                  `  ${route.padEnd(32)} ${megabytes(bytes).padStart(9)}` +
                  (route.includes("PATH") ? "" : ` (${megabytes(bytes - alone)} beyond alone)`) +
                  (natives.length > 0 ? `, native: ${natives.length}` : ""),
              )
              .join("\n") +
            "\n",
        );
        const dynamic = sizes.get("dynamic resources")!;
        expect(dynamic.natives).toEqual([]);
        expect(sizes.get("plugin SDK")!.natives).toEqual([]);
        expect(dynamic.bytes - alone).toBeLessThanOrEqual(DYNAMIC_ROUTE_MAX_EXTRA_BYTES);
        const host = nativePackageName(nativePlatformOf(hostPlatform()));
        expect(
          sizes
            .get("plugin on PATH (npm install -g)")!
            .natives.map((path) => path.split("/").pop()),
        ).toEqual([host]);
      });

      async function runProgram(program: ByNameProgram): Promise<void> {
        const home = join(root, `home-${program.name}`);
        const dir = join(root, `program-${program.name}`);
        const env = userEnv(home);
        await writeProgram(program, dir);
        await succeeded(["mkdir", "-p", join(home, "backend"), join(home, "npm-global")], dir, env);
        const requestsBefore = verdaccio.requests().length;
        for (const command of program.install) await succeeded(command, dir, env);
        await expectInstalledFromStandIns(program, dir, home, requestsBefore);

        const emulator: RunningEmulator = await startEmulator({ apiKey: API_KEY });
        try {
          const pulumi = (...args: string[]) => succeeded([cli!.pulumi, ...args], dir, env);
          await pulumi("stack", "init", "dev", "--non-interactive");
          await pulumi("config", "set", "voiceplatform:baseUrl", emulator.baseUrl);
          await pulumi(
            "config",
            "set",
            "voiceplatform:campaignsBaseUrl",
            emulator.campaignsBaseUrl,
          );
          await pulumi("config", "set", "--secret", "voiceplatform:apiKey", API_KEY);
          await emulator.newRequests();

          const first = await preview(dir, env);
          expect(first.changeSummary).toEqual({ create: program.creates.length + 1 });
          expect((await emulator.newRequests()).map(requestLine)).toEqual([]);

          const up = await pulumi("up", "--yes", "--non-interactive");
          expect(up).toMatch(new RegExp(`\\+ ${program.creates.length + 1} created`));
          const calls = (await emulator.newRequests()).map(requestLine);
          expect(calls.sort()).toEqual([...program.creates].sort());
          // Pulumi warns of a plugin taken from PATH, once per load (README, "Install").
          expect(up.includes("using pulumi-resource-voiceplatform from $PATH")).toBe(
            program.plugin === "path",
          );
          if (program.plugin === "engine") {
            // No plugin on PATH: the engine fetched it from the SDK's pluginDownloadURL.
            // The engine filled in the URL's ${VERSION}.
            expect(download.requests).toContain(
              `GET /v${version}/${archiveName(version, hostPlatform())} 200`,
            );
            expect(existsSync(installedPlugin(env.PULUMI_HOME!, version))).toBe(true);
          }
          if (program.name === "yaml-engine") {
            // The program names the version: the plugin cache and `pulumi about` show it.
            expect(await pulumi("plugin", "ls")).toMatch(
              new RegExp(`voiceplatform\\s+resource\\s+${version.replace(/\./g, "\\.")}\\s`),
            );
            expect(await pulumi("about")).toMatch(
              new RegExp(`resource\\s+voiceplatform\\s+${version.replace(/\./g, "\\.")}\\s`),
            );
          }

          const second = await preview(dir, env);
          expect(second.changeSummary).toEqual({ same: program.creates.length + 1 });
          expect((await emulator.newRequests()).map(requestLine)).toEqual([]);
        } finally {
          await emulator.stop();
        }
      }

      /** Where each install came from: the stand-ins, never the clone. */
      async function expectInstalledFromStandIns(
        program: ByNameProgram,
        dir: string,
        home: string,
        requestsBefore: number,
      ): Promise<void> {
        switch (program.name) {
          case "typescript-dynamic":
          case "typescript-plugin": {
            const name =
              program.name === "typescript-dynamic"
                ? "pulumi-voice-platform"
                : "pulumi-voice-platform-sdk";
            expect(await resolvedFrom(join(dir, "package-lock.json"), name)).toBe(
              `${verdaccio.url}${name}/-/${name}-${version}.tgz`,
            );
            break;
          }
          case "yaml-engine": {
            // Nothing installed: no plugin on PATH for the engine to prefer to the download.
            await expect(
              run("sh", ["-c", "command -v pulumi-resource-voiceplatform"], { env: userEnv(home) }),
            ).rejects.toMatchObject({ stdout: "" });
            break;
          }
          case "yaml": {
            const bin = join(home, "npm-global", "bin", "pulumi-resource-voiceplatform");
            const { stdout } = await run("sh", ["-c", `command -v pulumi-resource-voiceplatform`], {
              env: userEnv(home),
            });
            expect(stdout.trim()).toBe(bin);
            // A global install keeps no lock file: the package lies in the global folder, and
            // npm asked verdaccio for it (its metadata; the bytes may come from npm's cache).
            const installed = join(
              home,
              "npm-global",
              "lib",
              "node_modules",
              "pulumi-voice-platform-plugin",
            );
            expect((await realpath(bin)).startsWith(`${await realpath(installed)}/`)).toBe(true);
            // Its native package for this platform, an optional dependency, came with it.
            const native = nativePackageName(nativePlatformOf(hostPlatform()));
            expect(existsSync(join(installed, "node_modules", native, "package.json"))).toBe(true);
            expect(verdaccio.requests().slice(requestsBefore)).toContain(
              "GET /pulumi-voice-platform-plugin",
            );
            break;
          }
          case "python": {
            const report = JSON.parse(await readFile(join(dir, "pip-report.json"), "utf8")) as {
              install: { metadata: { name: string }; download_info: { url: string } }[];
            };
            const ours = report.install.find(
              (i) =>
                i.metadata.name.replace(/[-_.]+/g, "-").toLowerCase() === "pulumi-voiceplatform",
            );
            expect(ours?.download_info.url).toBe(
              `${pypi.url}packages/pulumi_voiceplatform-${version}-py3-none-any.whl`,
            );
            break;
          }
          case "go": {
            const goMod = await readFile(join(dir, "go.mod"), "utf8");
            expect(goMod).toContain(`${GO_MODULE_PATH} v${version}`);
            expect(goMod).not.toMatch(/^replace/m);
            break;
          }
        }
      }
    });
  },
  standIns,
);
