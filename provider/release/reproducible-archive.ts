/**
 * Archives that are the same bytes whenever their inputs are: node-tar in portable mode (no
 * owner, group, user name, device, atime or ctime; a gzip header with no time and the OS byte
 * 255), entries in sorted order, every file's time the release's fixed time, and modes set here
 * (0755 for folders and executables, 0644 for the rest) rather than taken from the umask.
 */
import { execFile } from "node:child_process";
import { chmod, lstat, readdir, utimes } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { create } from "tar";
import { ReleaseInputError, ReleaseToolError } from "./errors";

const run = promisify(execFile);

/** The earliest time a zip (the wheel's format) can hold: 1980-01-01. */
const ZIP_EPOCH = 315532800;

/**
 * The release's fixed time, in seconds: SOURCE_DATE_EPOCH when set (reproducible-builds.org),
 * else the time of the repository's last commit. Throws naming the fix when neither is there.
 */
export async function sourceDateEpoch(
  repository: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const given = env.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== "") {
    if (!/^\d+$/.test(given) || Number(given) < ZIP_EPOCH) {
      throw new ReleaseInputError(
        "SOURCE_DATE_EPOCH",
        `SOURCE_DATE_EPOCH=${JSON.stringify(given)} is not a time the archives can hold: give ` +
          `seconds since 1970 of 1980 or later (zip, the wheel's format, starts then), e.g. ` +
          `$(git log -1 --format=%ct).`,
      );
    }
    return Number(given);
  }
  try {
    const { stdout } = await run("git", ["-C", repository, "log", "-1", "--format=%ct"]);
    const seconds = Number(stdout.trim());
    if (Number.isInteger(seconds) && seconds >= ZIP_EPOCH) return seconds;
  } catch {
    // No git, or not a clone: said below.
  }
  throw new ReleaseInputError(
    "SOURCE_DATE_EPOCH",
    "the release stamps every archived file with one fixed time, the last commit's, and found " +
      "no commit (not a git clone, or git missing): set SOURCE_DATE_EPOCH to seconds since 1970.",
  );
}

/** Every path under `dir`, relative, folders before what they hold, names sorted bytewise. */
export async function sortedTree(dir: string, prefix = ""): Promise<string[]> {
  const names = (await readdir(join(dir, prefix))).sort((a, b) =>
    Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  const paths: string[] = [];
  for (const name of names) {
    const path = prefix === "" ? name : `${prefix}/${name}`;
    paths.push(path);
    if ((await lstat(join(dir, path))).isDirectory()) paths.push(...(await sortedTree(dir, path)));
  }
  return paths;
}

/** 0755 for folders and files anyone may execute, 0644 for the rest. */
async function normalizeModes(dir: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const info = await lstat(join(dir, path));
    if (info.isSymbolicLink()) {
      throw new ReleaseToolError(
        "reproducible archive",
        `${path} is a symbolic link: release archives hold files and folders only`,
      );
    }
    const executable = info.isDirectory() || (info.mode & 0o100) !== 0;
    await chmod(join(dir, path), executable ? 0o755 : 0o644);
  }
}

/** Gives every path under `dir` the time `epochSeconds` and the modes archives get. */
export async function stampTree(dir: string, epochSeconds: number): Promise<void> {
  const paths = await sortedTree(dir);
  await normalizeModes(dir, paths);
  for (const path of paths) await utimes(join(dir, path), epochSeconds, epochSeconds);
}

/**
 * Writes `file`, a .tar.gz of `paths` (relative to `dir`, in the order given; default the
 * whole tree, sorted) with every entry's time `epochSeconds`. Sets the modes of those paths.
 */
export async function writeReproducibleTarGz(options: {
  dir: string;
  file: string;
  epochSeconds: number;
  paths?: readonly string[];
}): Promise<void> {
  const paths = options.paths ?? (await sortedTree(options.dir));
  await normalizeModes(options.dir, paths);
  await create(
    {
      file: options.file,
      cwd: options.dir,
      gzip: true,
      portable: true,
      noDirRecurse: true,
      mtime: new Date(options.epochSeconds * 1000),
    },
    [...paths],
  );
}
