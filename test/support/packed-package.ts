/**
 * The package as users get it: built, packed with `npm pack` and installed with `npm install`
 * into a throwaway project. Installing the tarball proves its files list, `exports` and
 * dependencies, which tests against the source tree cannot.
 *
 * Everything slow is cached on disk and shared by jest workers and test runs, keyed by content:
 * the build is skipped while the sources and dist/ match the last build, the tarball is reused
 * while what it packs is unchanged, and one installed template project per tarball and
 * @pulumi/pulumi version is copied (hard-linked by default) into each new fixture project.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import {
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { withFileLock } from "./file-lock";

const run = promisify(execFile);

export const REPO_ROOT = resolve(__dirname, "..", "..");

/** Shared by every process on the machine; override with VOICEPLATFORM_FIXTURE_CACHE. */
export const FIXTURE_CACHE_ROOT =
  process.env.VOICEPLATFORM_FIXTURE_CACHE ?? join(tmpdir(), "pulumi-voice-platform-fixtures");

/**
 * Templates unused for this long are removed when a new one is installed: each is ~100 MB, and
 * every change to the sources makes a new one.
 */
const TEMPLATE_MAX_IDLE_MS = 60 * 60 * 1000;

/** What the last calls in this process cost, for test logs and benchmark reports. */
export const fixtureTimings: {
  buildMs?: number;
  packMs?: number;
  installMs?: number;
  copyMs?: number;
} = {};

export interface FixtureOptions {
  /** The project's package.json name (default "voice-platform-fixture"). */
  name?: string;
  /**
   * @pulumi/pulumi version to install (default: `E2E_PULUMI_VERSION` when set, as by
   * `npm run test:node22` and `npm run test:compat`, else the one in the repo's node_modules).
   */
  pulumiVersion?: string;
  /** Extra files written into the project, by relative path: Pulumi.yaml, index.js, samples. */
  files?: Record<string, string | Uint8Array>;
  /**
   * How the project gets the template's node_modules. "hardlink" (the default, ~0.3 s) shares
   * file contents with the template: installing or removing packages in the project is safe (npm
   * writes new files), editing a file under node_modules in place is not. "copy" (2-9 s on a
   * busy 2-core machine) is for tests that patch installed files.
   */
  nodeModules?: "hardlink" | "copy";
  /**
   * Install the state backends' clients too (the optional peers @aws-sdk/client-s3,
   * @azure/storage-blob and postgres, at the repo's versions), as a team on those backends does.
   * Without it the project has none of them, as `npm install pulumi-voice-platform` leaves it.
   */
  backendClients?: boolean;
}

/** The optional peers a team on an S3, Azure Blob or PostgreSQL backend installs. */
export const BACKEND_CLIENT_PACKAGES = ["@aws-sdk/client-s3", "@azure/storage-blob", "postgres"];

let packed: Promise<string> | undefined;

/**
 * Builds the package (unless dist/ is already the build of the current sources) and packs it.
 * Returns the path of the .tgz, which stays in place for other processes to reuse.
 * VOICEPLATFORM_FIXTURE_TARBALL=<path> skips both and uses that tarball (a release candidate,
 * or a known-good build while the working tree does not compile).
 */
export function packPackage(): Promise<string> {
  const given = process.env.VOICEPLATFORM_FIXTURE_TARBALL;
  if (given !== undefined && given !== "") return Promise.resolve(resolve(given));
  packed ??= withFileLock(join(FIXTURE_CACHE_ROOT, `pack-${repoKey()}.lock`), async () => {
    await buildIfStale();
    return packIfChanged();
  });
  packed.catch(() => (packed = undefined));
  return packed;
}

/**
 * A new project directory with pulumi-voice-platform installed from the packed tarball and
 * @pulumi/pulumi beside it, as a user's project would have. The caller owns the directory; remove
 * it with `removeFixtureProject`.
 */
export async function createFixtureProject(options: FixtureOptions = {}): Promise<string> {
  const tarball = await packPackage();
  const pulumiVersion =
    options.pulumiVersion ?? (process.env.E2E_PULUMI_VERSION || repoPulumiVersion());
  const template = await installedTemplate(tarball, pulumiVersion, options.backendClients === true);
  const project = await mkdtemp(join(tmpdir(), `voice-platform-fixture-`));
  const started = Date.now();
  await copyDirectory(template, project, options.nodeModules ?? "hardlink");
  fixtureTimings.copyMs = Date.now() - started;
  if (options.name !== undefined) {
    const manifestPath = join(project, "package.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
    await writeFile(manifestPath, JSON.stringify({ ...manifest, name: options.name }, null, 2));
  }
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await writeFixtureFile(project, path, content);
  }
  return project;
}

/** Writes a file into a fixture project, creating its directories; returns the absolute path. */
export async function writeFixtureFile(
  projectDir: string,
  relativePath: string,
  content: string | Uint8Array,
): Promise<string> {
  const path = resolve(projectDir, relativePath);
  if (relative(projectDir, path).startsWith("..")) {
    throw new Error(`${relativePath} is outside the fixture project`);
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

export async function removeFixtureProject(projectDir: string): Promise<void> {
  await rm(projectDir, { recursive: true, force: true });
}

/** The @pulumi/pulumi version the repo develops against. */
export function repoPulumiVersion(): string {
  const manifest = require(join(REPO_ROOT, "node_modules/@pulumi/pulumi/package.json")) as {
    version: string;
  };
  return manifest.version;
}

/** The backend clients at the versions the repo develops against (its devDependencies). */
function repoBackendClients(): Record<string, string> {
  const manifest = require(join(REPO_ROOT, "package.json")) as {
    devDependencies: Record<string, string>;
  };
  return Object.fromEntries(
    BACKEND_CLIENT_PACKAGES.map((name) => [name, manifest.devDependencies[name]!]),
  );
}

// Build and pack.

function repoKey(): string {
  return sha256(REPO_ROOT).slice(0, 12);
}

async function buildIfStale(): Promise<void> {
  const stampPath = join(FIXTURE_CACHE_ROOT, `build-${repoKey()}.json`);
  const sources = await hashPaths(REPO_ROOT, [
    "provider",
    "tsconfig.json",
    "tsconfig.build.json",
    "package.json",
  ]);
  const stamp = await readJson<{ sources: string; dist: string }>(stampPath);
  if (stamp?.sources === sources && stamp.dist === (await hashPaths(REPO_ROOT, ["dist"]))) return;
  const started = Date.now();
  await npm(["run", "build"], REPO_ROOT);
  fixtureTimings.buildMs = Date.now() - started;
  const dist = await hashPaths(REPO_ROOT, ["dist"]);
  await writeFile(stampPath, JSON.stringify({ sources, dist }));
}

/** Packs into a directory named after the hash of what npm would pack, unless it is there. */
async function packIfChanged(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as {
    files?: string[];
  };
  const packedPaths = ["package.json", ...(manifest.files ?? ["."]), "LICENSE"];
  const key = (await hashPaths(REPO_ROOT, packedPaths)).slice(0, 16);
  const destination = join(FIXTURE_CACHE_ROOT, "packages", key);
  const existing = await findTarball(destination);
  if (existing !== undefined) return existing;
  const staging = `${destination}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const started = Date.now();
  try {
    // Built just before by buildIfStale: `prepare` would build a second time.
    await npm(
      ["pack", "--ignore-scripts", "--pack-destination", staging, "--loglevel=error"],
      REPO_ROOT,
    );
    await rename(staging, destination);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  fixtureTimings.packMs = Date.now() - started;
  const tarball = await findTarball(destination);
  if (tarball === undefined) throw new Error(`npm pack left no .tgz in ${destination}`);
  return tarball;
}

async function findTarball(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const name = (await readdir(dir)).find((entry) => entry.endsWith(".tgz"));
  return name === undefined ? undefined : join(dir, name);
}

// Install.

async function installedTemplate(
  tarball: string,
  pulumiVersion: string,
  backendClients: boolean,
): Promise<string> {
  const key = sha256(
    `${tarball}\n${pulumiVersion}${backendClients ? "\nbackend clients" : ""}`,
  ).slice(0, 16);
  const root = join(FIXTURE_CACHE_ROOT, "templates", key);
  const project = join(root, "project");
  const ready = join(root, "ready");
  await withFileLock(`${root}.lock`, async () => {
    if (existsSync(ready)) return;
    await rm(root, { recursive: true, force: true });
    await mkdir(project, { recursive: true });
    const manifest = {
      name: "voice-platform-fixture",
      version: "0.0.0",
      private: true,
      dependencies: {
        "@pulumi/pulumi": pulumiVersion,
        "pulumi-voice-platform": `file:${tarball}`,
        ...(backendClients ? repoBackendClients() : {}),
      },
    };
    await writeFile(join(project, "package.json"), JSON.stringify(manifest, null, 2));
    const started = Date.now();
    // --prefer-offline: packages already in the npm cache (the repo's install put them there)
    // are used without asking the registry; only missing ones are downloaded.
    await npm(
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      project,
    );
    fixtureTimings.installMs = Date.now() - started;
    await writeFile(ready, new Date().toISOString());
    await pruneIdleTemplates(root);
  });
  // The mtime of `ready` records the last use, for pruning.
  const now = new Date();
  await utimes(ready, now, now);
  return project;
}

async function pruneIdleTemplates(keep: string): Promise<void> {
  const templates = join(FIXTURE_CACHE_ROOT, "templates");
  for (const entry of await readdir(templates)) {
    const root = join(templates, entry);
    if (root === keep || entry.endsWith(".lock")) continue;
    const lastUse = await stat(join(root, "ready")).then(
      (info) => info.mtimeMs,
      () => 0,
    );
    if (Date.now() - lastUse < TEMPLATE_MAX_IDLE_MS) continue;
    await withFileLock(`${root}.lock`, () => rm(root, { recursive: true, force: true }), {
      timeoutMs: 1000,
    }).catch(() => undefined);
  }
}

async function copyDirectory(from: string, to: string, mode: "hardlink" | "copy"): Promise<void> {
  if (process.platform === "win32") {
    await cp(from, to, { recursive: true, verbatimSymlinks: true });
    return;
  }
  if (mode === "hardlink") {
    // Fails across file systems (a cache root elsewhere); a real copy then does the job.
    const linked = await run("cp", ["-al", `${from}/.`, to]).then(
      () => true,
      () => false,
    );
    if (linked) {
      await unshareWrittenFiles(from, to);
      return;
    }
    await rm(to, { recursive: true, force: true });
    await mkdir(to);
  }
  // `cp -a` is ~6x faster than fs.cp on a 100 MB node_modules.
  await run("cp", ["-a", `${from}/.`, to]);
}

/**
 * Gives the project its own copy of the files npm and tests rewrite in place (`writeFile` keeps
 * the inode, so a hard-linked one would change the template too): the top-level files and npm's
 * hidden lockfile.
 */
async function unshareWrittenFiles(template: string, project: string): Promise<void> {
  const topLevel = await readdir(template, { withFileTypes: true });
  const files = topLevel.filter((entry) => entry.isFile()).map((entry) => entry.name);
  for (const path of [...files, join("node_modules", ".package-lock.json")]) {
    if (!existsSync(join(template, path))) continue;
    await rm(join(project, path), { force: true });
    await copyFile(join(template, path), join(project, path));
  }
}

// Helpers.

async function npm(args: string[], cwd: string): Promise<void> {
  try {
    await run("npm", args, { cwd, env: npmEnv(), maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `npm ${args.join(" ")} in ${cwd} failed: ${(error as Error).message}\n${stdout ?? ""}${stderr ?? ""}`,
    );
  }
}

/**
 * The environment without what an enclosing `npm test` exports: npm reads `npm_config_*` back
 * as config, and a prefix from the repo would install into the repo instead of the fixture.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** Hash of the names and contents of every file under the given paths (missing ones skipped). */
async function hashPaths(root: string, paths: string[]): Promise<string> {
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const path of paths) files.push(...(await listFiles(join(root, path))));
  for (const file of files.sort()) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(await readFile(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

async function listFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return [];
  if (!info.isDirectory()) return [path];
  const entries = await readdir(path);
  const nested = await Promise.all(entries.map((entry) => listFiles(join(path, entry))));
  return nested.flat();
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
