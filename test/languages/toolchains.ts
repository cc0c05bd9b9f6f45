/**
 * The toolchains the generated SDKs are checked and used with, each prepared once per content and
 * cached under the fixture cache (test/support/packed-package.ts), shared by jest workers:
 *
 * - Node.js: the generated SDK compiled with the repo's tsc and packed as a tarball.
 * - Python: a virtualenv with `pulumi` from PyPI at the CLI's version and the generated SDK
 *   installed with pip.
 * - Go: the module cache of `go env GOMODCACHE`; programs build against the generated module
 *   through a `replace` directive.
 *
 * `timings` records what each step cost in this process, for the CI notes.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { packNodeSdk } from "../../provider/release/sdk-packages";
import { lockedPulumiVersion } from "../pulumi-cli/locate";
import { withFileLock } from "../support/file-lock";
import { FIXTURE_CACHE_ROOT, REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

export const SDK_DIR = join(REPO_ROOT, "provider", "sdk");

export const timings: Record<string, number> = {};

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[name] = Date.now() - started;
  }
}

/** Runs a command, failing with its output (the compilers' messages) when it exits non-zero. */
export async function runTool(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  try {
    const { stdout } = await run(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(" ")} (in ${options.cwd}) failed:\n${stdout ?? ""}${stderr ?? ""}`,
    );
  }
}

/** sha256 of every file under the given directories (paths and contents). */
export async function hashTree(...dirs: string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const dir of dirs) {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) {
      hash
        .update(file.slice(dir.length))
        .update("\0")
        .update(await readFile(file));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/** A directory built once per key by `build` (atomically: a half-built one is never used). */
async function cachedDir(
  kind: string,
  key: string,
  build: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = join(FIXTURE_CACHE_ROOT, kind, key);
  const ready = join(dir, ".ready");
  if (existsSync(ready)) return dir;
  await withFileLock(
    `${dir}.lock`,
    async () => {
      if (existsSync(ready)) return;
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await build(dir);
      await writeFile(ready, new Date().toISOString());
    },
    { timeoutMs: 900_000, staleMs: 900_000 },
  );
  return dir;
}

/** The @pulumi/pulumi version of the lock file: the pin of the Python and Go SDKs too (the CLI has its own, `testedCliVersion()`). */
export function pulumiVersion(): string {
  const version = lockedPulumiVersion();
  if (version === undefined) throw new Error("package-lock.json names no @pulumi/pulumi version");
  return version;
}

// Node.js

export interface NodeSdkBuild {
  /** The compiled package directory: bin/ holds what is packed. */
  dir: string;
  /** `npm pack` of it, for `npm install` into a program. */
  tarball: string;
}

/**
 * Compiles provider/sdk/nodejs with the repo's TypeScript and @pulumi/pulumi (its own tsconfig,
 * the `tsc` of its build script) and packs it. A type error fails with tsc's messages.
 */
export async function nodeSdk(): Promise<NodeSdkBuild> {
  const source = join(SDK_DIR, "nodejs");
  const key = await hashTree(source);
  const dir = await cachedDir("nodejs-sdk", key, (root) =>
    timed("nodejs sdk: tsc + pack", async () => void (await packNodeSdk(source, root, root))),
  );
  const tarball = (await readdir(dir)).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`no tarball in ${dir}`);
  return { dir: join(dir, "package"), tarball: join(dir, tarball) };
}

// Python

function python3(): string {
  return process.env.PYTHON ?? "python3";
}

/**
 * A virtualenv with `pulumi==<CLI version>` from PyPI and the generated SDK installed with pip
 * (a non-editable install, as users get it). Returns the venv directory; its bin/python runs
 * programs (Pulumi.yaml's `virtualenv` option can point at it).
 */
export async function pythonVenv(): Promise<string> {
  const source = join(SDK_DIR, "python");
  const version = pulumiVersion();
  const key = `${version}-${await hashTree(source)}`;
  return cachedDir("python-venv", key, (venv) =>
    timed("python: venv + pip install", async () => {
      await runTool(python3(), ["-m", "venv", venv], { cwd: REPO_ROOT });
      // From a copy: setuptools writes build/ and *.egg-info beside the sources it builds.
      const copy = join(venv, "sdk-source");
      await cp(source, copy, { recursive: true });
      const pip = join(venv, "bin", "pip");
      await runTool(pip, ["install", "--quiet", `pulumi==${version}`, copy], {
        cwd: venv,
        env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
      });
      await rm(copy, { recursive: true, force: true });
    }),
  );
}

// Go

/** go's environment: modules from the proxy even when a go.sum lacks an entry. */
export function goEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
}

/**
 * Points a Go program's module at the generated SDK in this checkout (`go mod edit -replace`),
 * for programs copied out of the repository.
 */
export async function replaceGoSdk(programDir: string): Promise<void> {
  await runTool(
    "go",
    ["mod", "edit", `-replace=pulumi-voice-platform/sdk/go=${join(SDK_DIR, "go")}`],
    { cwd: programDir, env: goEnv() },
  );
}
