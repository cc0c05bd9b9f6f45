/**
 * The package as `npm publish` and `npm install <git url>` make it: packed from a checkout that
 * has never been built (only the files git knows, no dist/), then installed into an empty project
 * where both entry points load. `prepare` must build the code, or users get an empty package.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT, repoPulumiVersion } from "../support/packed-package";

const run = promisify(execFile);

jest.setTimeout(600_000);

/** npm's environment without what an enclosing `npm test` exports about this repository. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) env[name] = value;
  }
  return env;
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: npmEnv(), maxBuffer: 64 << 20 });
  return stdout;
}

/** The working tree as a fresh clone has it: tracked and new files, nothing git ignores. */
async function cleanCheckout(into: string): Promise<void> {
  const { stdout } = await run(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: REPO_ROOT, maxBuffer: 64 << 20 },
  );
  for (const file of stdout.split("\0").filter(Boolean)) {
    await mkdir(dirname(join(into, file)), { recursive: true });
    await cp(join(REPO_ROOT, file), join(into, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error; // deleted in the working tree, not yet in git
    });
  }
  // What `npm ci` would install: the same dependencies, without the time.
  await symlink(join(REPO_ROOT, "node_modules"), join(into, "node_modules"), "dir");
}

let scratch: string;
let checkout: string;
let packed: { filename: string; files: { path: string }[] };
let entriesBeforePack: string[];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "npm-pack-"));
  checkout = join(scratch, "checkout");
  await cleanCheckout(checkout);
  entriesBeforePack = await readdir(checkout);
  const output = await npm(["pack", "--json", "--pack-destination", scratch], checkout);
  // npm prints the lifecycle scripts' output before the JSON.
  packed = (JSON.parse(output.slice(output.indexOf("["))) as (typeof packed)[])[0]!;
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test("the clean checkout had no build of its own before npm pack, and has one after", async () => {
  expect(entriesBeforePack).toContain("package.json");
  expect(entriesBeforePack).not.toContain("dist");
  expect(await readdir(checkout)).toContain("dist");
});

test("npm pack ships the built entry points, their types, and no sources or tests", () => {
  const files = packed.files.map((file) => file.path);
  for (const entry of ["index", "runtime", "emulator/index", "testing/index", "policy/index"]) {
    expect(files).toContain(`dist/provider/${entry}.js`);
    expect(files).toContain(`dist/provider/${entry}.d.ts`);
  }
  // Every bin of package.json (`npx pulumi-voice-platform preflight`, ...) is in the tarball.
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  expect(Object.keys(manifest.bin)).toContain("pulumi-voice-platform");
  for (const target of Object.values(manifest.bin)) expect(files).toContain(target);
  expect(files).toContain("package.json");
  expect(files).toContain("README.md");
  // Of provider/, only the plugin's launcher and its PulumiPlugin.yaml folder, which are not built.
  expect(files.filter((file) => /^(test|examples)\//.test(file))).toEqual([]);
  expect(
    files
      .filter((file) => file.startsWith("provider/"))
      .every((file) => /^provider\/plugin\/(bin|pulumi-plugin)\//.test(file)),
  ).toBe(true);
  expect(files).toContain("provider/plugin/pulumi-plugin/PulumiPlugin.yaml");
  // The policy pack's folder, which the build writes with the package's version.
  for (const file of ["PulumiPolicy.yaml", "index.js", "package.json"]) {
    expect(files).toContain(`dist/provider/policy/pack/${file}`);
  }
  expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
  // The maintainers' tools (the release, the generators) run from the repository: none ships.
  expect(files.filter((file) => /^dist\/provider\/(release|codegen)\//.test(file))).toEqual([]);
});

let project: string;

test("an empty project installs the tarball and loads both entry points", async () => {
  project = join(scratch, "project");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "empty-project", private: true }),
  );
  await npm(
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      join(scratch, packed.filename),
      `@pulumi/pulumi@${repoPulumiVersion()}`,
    ],
    project,
  );
  const probe = `
    const main = require("pulumi-voice-platform");
    const undiciWithMain = Object.keys(require.cache).some((file) => file.includes("/node_modules/undici/"));
    const runtime = require("pulumi-voice-platform/runtime");
    import("pulumi-voice-platform/runtime").then((esm) => {
      console.log(JSON.stringify({
        main: Object.keys(main).sort(),
        runtime: Object.keys(runtime).sort(),
        voiceHandlers: Object.keys(runtime.Voice).sort(),
        esmRuntime: typeof esm.default.configure,
        undiciWithMain,
      }));
    });`;
  const { stdout } = await run(process.execPath, ["-e", probe], { cwd: project });
  const loaded = JSON.parse(stdout) as Record<string, unknown>;
  expect(loaded.main).toEqual(
    expect.arrayContaining(["Voice", "SipCarrier", "CampaignWebhook", "ApiError"]),
  );
  expect(loaded.runtime).toEqual(
    expect.arrayContaining(["configure", "Voice", "SipCarrier", "CampaignWebhook"]),
  );
  expect(loaded.voiceHandlers).toEqual(["check", "create", "delete", "diff", "read", "update"]);
  expect(loaded.esmRuntime).toBe("function");
  // A program (and a preview) sends no request: the HTTP client loads with the first call.
  expect(loaded.undiciWithMain).toBe(false);
});

test("the empty project got none of the state backends' clients, optional peers (issue 47)", async () => {
  const modules = join(project, "node_modules");
  const scopes = await readdir(modules);
  // The clients' own scopes and packages: @azure/identity too is an optional peer.
  expect(
    scopes.filter((name) => /^(@aws-sdk|@smithy|@azure|@typespec|postgres)$/.test(name)),
  ).toEqual([]);
});

test("the installed package's emulator: its Node API serves a clone, and the command prints its URLs and stops on SIGTERM", async () => {
  // The clone's multipart body needs busboy: a dependency of the package, not of this repository.
  const probe = `
    const { startEmulator } = require("pulumi-voice-platform/emulator");
    (async () => {
      const emulator = await startEmulator({ apiKey: "packed-key" });
      const form = new FormData();
      form.append("name", "Packed");
      form.append("files", new Blob(["RIFF"]), "a.wav");
      const answer = await fetch(emulator.baseUrl + "/voices/voice-clone", {
        method: "POST", headers: { authorization: "packed-key" }, body: form,
      });
      const requests = await emulator.requests({ method: "POST", path: "/voices/voice-clone" });
      await emulator.stop();
      console.log(JSON.stringify({ status: answer.status, logged: requests.map((r) => r.status) }));
    })();`;
  const { stdout } = await run(process.execPath, ["-e", probe], { cwd: project });
  expect(JSON.parse(stdout)).toEqual({ status: 200, logged: [200] });

  // What `npx pulumi-voice-platform emulator` runs: the package's bin, as npm linked it.
  const bin = join(project, "node_modules", ".bin", "pulumi-voice-platform");
  const command = spawn(bin, ["emulator", "--port", "0"], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = await new Promise<string>((resolvePrinted, reject) => {
    let text = "";
    command.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.split("\n").length > 2) resolvePrinted(text);
    });
    command.once("exit", (code) => reject(new Error(`the emulator command exited with ${code}`)));
  });
  expect(printed).toMatch(
    /^VOICEPLATFORM_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nVOICEPLATFORM_CAMPAIGNS_BASE_URL=http:\/\/127\.0\.0\.1:\d+\n$/,
  );
  const exit = new Promise<number | null>((resolveExit) => command.once("exit", resolveExit));
  command.kill("SIGTERM");
  expect(await exit).toBe(0);
});
