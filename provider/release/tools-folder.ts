/**
 * Where the release keeps the build tools it reuses between runs (the Python virtualenv with PyPA
 * `build`): a per-user cache folder, `${XDG_CACHE_HOME:-~/.cache}/pulumi-voice-platform/release-tools`,
 * beside the Pulumi CLI's toolchain cache. The release runs programs from it, so before anything
 * in it runs it must be private: a real folder (not a symbolic link), owned by the current user,
 * with no access for group or others (0700), on a path no other user can swap (every folder above
 * it owned by root or the current user, and writable by others only when sticky, as the system's
 * temporary folder is).
 */
import { lstat, mkdir, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The per-user folder for the release's build tools (not created here). */
export function defaultToolsFolder(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "pulumi-voice-platform", "release-tools");
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/** Throws, saying what is wrong and what to do, unless every folder above `folder` is safe. */
async function checkAncestors(folder: string, uid: number): Promise<void> {
  for (let dir = dirname(folder); ; dir = dirname(dir)) {
    const info = await stat(dir);
    if (info.uid !== uid && info.uid !== 0) {
      throw new Error(
        `the release tools folder ${folder} lies in ${dir}, owned by uid ${info.uid}: another ` +
          `user could replace the tools in it. Set XDG_CACHE_HOME to a folder of your own.`,
      );
    }
    const sticky = (info.mode & 0o1000) !== 0;
    if ((info.mode & 0o022) !== 0 && !sticky) {
      throw new Error(
        `the release tools folder ${folder} lies in ${dir} (mode ${octal(info.mode)}), writable by ` +
          `others: they could replace the tools in it. Remove group and other write access ` +
          `(chmod go-w ${dir}) or set XDG_CACHE_HOME to a folder of your own.`,
      );
    }
    if (dirname(dir) === dir) return;
  }
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
    throw new Error(`the release tools folder ${folder} is a symbolic link: ${fix}.`);
  }
  if (!info.isDirectory())
    throw new Error(`the release tools folder ${folder} is not a folder: ${fix}.`);
  // Windows has no uid or mode bits here: the folder lies in the user's own profile.
  if (process.getuid === undefined) return folder;
  const uid = process.getuid();
  if (info.uid !== uid) {
    throw new Error(
      `the release tools folder ${folder} is owned by uid ${info.uid}, not by you (uid ${uid}): ` +
        `its programs are not yours to run; ${fix}.`,
    );
  }
  if ((info.mode & 0o077) !== 0) {
    throw new Error(
      `the release tools folder ${folder} has mode ${octal(info.mode)}: others could have ` +
        `changed the tools in it, so they are not run. It must be 0700; ${fix}.`,
    );
  }
  const real = await realpath(folder);
  await checkAncestors(real, uid);
  return real;
}
