/**
 * The "previous build" of the upgrade test: the package as packed at a fixed earlier commit.
 *
 * BASELINE_REF is 125a1c7, the first commit with a working demo on the real engine (`npm run
 * demo`): the oldest state a user can have written with this package. Its tarball is built once
 * per commit and cached beside the fixture templates (`<FIXTURE_CACHE_ROOT>/baseline/<sha>/`):
 * the commit's tree is extracted with `git archive`, gets the repo's node_modules by symlink when
 * its package-lock.json is the repo's (else `npm ci --prefer-offline`), then `npm run build` and
 * `npm pack`. Needs the git history back to that commit: a shallow clone has none, and
 * `baselineTarball` then throws BaselineUnavailableError, saying how to get it.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { withFileLock } from "../support/file-lock";
import { FIXTURE_CACHE_ROOT, REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

/** First commit with a working demo ("Demo on the real engine (npm run demo), examples/basic, …"). */
export const BASELINE_REF = "125a1c7";

/** Why the baseline cannot be had: no git, or history that does not reach BASELINE_REF. */
export class BaselineUnavailableError extends Error {
  override name = "BaselineUnavailableError";
}

/** The full commit id of BASELINE_REF (`git rev-parse`), or BaselineUnavailableError. */
export async function resolveBaseline(): Promise<string> {
  try {
    const { stdout } = await run("git", ["rev-parse", "--verify", `${BASELINE_REF}^{commit}`], {
      cwd: REPO_ROOT,
    });
    return stdout.trim();
  } catch {
    throw new BaselineUnavailableError(
      baselineUnavailableReason() ?? `git rev-parse ${BASELINE_REF} failed in ${REPO_ROOT}`,
    );
  }
}

/** Synchronous check for test files deciding to run or skip: undefined, or why not. */
export function baselineUnavailableReason(): string | undefined {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${BASELINE_REF}^{commit}`], {
      cwd: REPO_ROOT,
      stdio: "ignore",
    });
    return undefined;
  } catch {
    let shallow = false;
    try {
      shallow =
        execFileSync("git", ["rev-parse", "--is-shallow-repository"], {
          cwd: REPO_ROOT,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }).trim() === "true";
    } catch {
      // No git at all: said below.
    }
    return (
      `The upgrade test builds the package at commit ${BASELINE_REF} (test/e2e/baseline.ts), but ` +
      `\`git rev-parse ${BASELINE_REF}\` finds no such commit in ${REPO_ROOT}` +
      (shallow
        ? " because this is a shallow clone"
        : " (no git, or history that does not reach it)") +
      ". Fetch the full history (`git fetch --unshallow`) or clone without --depth."
    );
  }
}

/** Timings of the last baseline build in this process (undefined parts came from the cache). */
export const baselineTimings: { installMs?: number; buildMs?: number; packMs?: number } = {};

/** The baseline package's .tgz, built on first use and cached by commit. */
export async function baselineTarball(): Promise<string> {
  const commit = await resolveBaseline();
  const root = join(FIXTURE_CACHE_ROOT, "baseline", commit);
  return withFileLock(`${root}.lock`, async () => {
    const cached = await findTarball(join(root, "package"));
    if (cached !== undefined && existsSync(join(root, "ready"))) return cached;
    await rm(root, { recursive: true, force: true });
    const source = join(root, "source");
    await mkdir(source, { recursive: true });
    await run("git", ["archive", "--output", join(root, "source.tar"), commit], {
      cwd: REPO_ROOT,
    });
    await run("tar", ["-xf", join(root, "source.tar"), "-C", source]);
    await rm(join(root, "source.tar"));

    let started = Date.now();
    if (await sameLockFile(source)) {
      await symlink(join(REPO_ROOT, "node_modules"), join(source, "node_modules"), "dir");
    } else {
      await npm(["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], source);
      baselineTimings.installMs = Date.now() - started;
    }
    started = Date.now();
    await npm(["run", "build"], source);
    baselineTimings.buildMs = Date.now() - started;
    started = Date.now();
    await mkdir(join(root, "package"));
    await npm(["pack", "--pack-destination", join(root, "package"), "--loglevel=error"], source);
    baselineTimings.packMs = Date.now() - started;
    const tarball = await findTarball(join(root, "package"));
    if (tarball === undefined) throw new Error(`npm pack left no .tgz in ${root}/package`);
    await rm(source, { recursive: true, force: true });
    await writeFile(join(root, "ready"), `${commit}\n`);
    return tarball;
  });
}

/** Whether the baseline's dependency lock equals the repo's, so the repo's node_modules fit it. */
async function sameLockFile(source: string): Promise<boolean> {
  const read = (dir: string) =>
    readFile(join(dir, "package-lock.json"), "utf8").then(
      (text) => (JSON.parse(text) as { packages?: unknown }).packages,
      () => undefined,
    );
  const [theirs, ours] = await Promise.all([read(source), read(REPO_ROOT)]);
  return theirs !== undefined && JSON.stringify(theirs) === JSON.stringify(ours);
}

async function findTarball(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const name = (await readdir(dir)).find((entry) => entry.endsWith(".tgz"));
  return name === undefined ? undefined : join(dir, name);
}

async function npm(args: string[], cwd: string): Promise<void> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // What an enclosing `npm test` exports would point npm back at the repo.
    if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) continue;
    env[name] = value;
  }
  try {
    await run("npm", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `npm ${args.join(" ")} in ${cwd} failed: ${(error as Error).message}\n${stdout ?? ""}${stderr ?? ""}`,
    );
  }
}
