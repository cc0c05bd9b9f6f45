/**
 * Where the release keeps the build tools it reuses, checked private before anything in it runs.
 * Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { lstat, mkdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ReleaseInputError } from "./errors";

/** The per-user folder for the release's build tools (not created here). */
export function defaultToolsFolder(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "pulumi-voice-platform", "release-tools");
}

export function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/** A folder above another folder that another user could change, and how. */
export interface UnsafeAncestor {
  readonly dir: string;
  /** What lets another user change it, said right after the folder: ", owned by uid 1001". */
  readonly problem: string;
  /** What the user can do about it, a sentence without its full stop. */
  readonly fix: string;
}

/**
 * The first folder above `folder` (a real path) that a user other than `uid` could rename or
 * replace things in: one another user owns (root aside), or one others may write without the
 * sticky bit (the system's temporary folder has it). Undefined when there is none. Folders not
 * made yet are skipped: whoever makes them owns them.
 */
export async function unsafeAncestor(
  folder: string,
  uid: number,
): Promise<UnsafeAncestor | undefined> {
  for (let dir = dirname(folder), last = ""; dir !== last; last = dir, dir = dirname(dir)) {
    const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (info === undefined) continue;
    if (info.uid !== uid && info.uid !== 0) {
      return { dir, problem: `, owned by uid ${info.uid}`, fix: "Use a folder of your own" };
    }
    const sticky = (info.mode & 0o1000) !== 0;
    if ((info.mode & 0o022) !== 0 && !sticky) {
      return {
        dir,
        problem: ` (mode ${octal(info.mode)}), writable by others`,
        fix: `Remove group and other write access (chmod go-w ${dir})`,
      };
    }
  }
  return undefined;
}

/** Throws, saying what is wrong and what to do, unless every folder above `folder` is safe. */
async function checkAncestors(folder: string, uid: number): Promise<void> {
  const unsafe = await unsafeAncestor(folder, uid);
  if (unsafe === undefined) return;
  throw new ReleaseInputError(
    "XDG_CACHE_HOME",
    `the release tools folder ${folder} lies in ${unsafe.dir}${unsafe.problem}: another ` +
      `user could replace the tools in it. ${unsafe.fix} ` +
      `or set XDG_CACHE_HOME to a folder of your own.`,
  );
}

/**
 * Creates `folder` (mode 0700) when missing and checks it is private as the module comment says;
 * throws naming the folder, the problem and the fix otherwise. Returns its real path.
 */
export async function privateToolsFolder(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const info = await lstat(folder);
  const fix = `remove it (rm -rf ${folder}) and run the release again, which makes it anew`;
  if (info.isSymbolicLink()) {
    throw new ReleaseInputError(
      "XDG_CACHE_HOME",
      `the release tools folder ${folder} is a symbolic link: ${fix}.`,
    );
  }
  if (!info.isDirectory())
    throw new ReleaseInputError(
      "XDG_CACHE_HOME",
      `the release tools folder ${folder} is not a folder: ${fix}.`,
    );
  // Windows has no uid or mode bits here: the folder lies in the user's own profile.
  if (process.getuid === undefined) return folder;
  const uid = process.getuid();
  if (info.uid !== uid) {
    throw new ReleaseInputError(
      "XDG_CACHE_HOME",
      `the release tools folder ${folder} is owned by uid ${info.uid}, not by you (uid ${uid}): ` +
        `its programs are not yours to run; ${fix}.`,
    );
  }
  if ((info.mode & 0o077) !== 0) {
    throw new ReleaseInputError(
      "XDG_CACHE_HOME",
      `the release tools folder ${folder} has mode ${octal(info.mode)}: others could have ` +
        `changed the tools in it, so they are not run. It must be 0700; ${fix}.`,
    );
  }
  const real = await realpath(folder);
  await checkAncestors(real, uid);
  return real;
}
