/**
 * The folder `npm run release -- --out DIR` writes to, refused unless a release made it and it is
 * the user's alone. Measured behaviour: docs/development.md#what-npm-run-release-builds
 */
import { lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { octal, unsafeAncestor } from "./tools-folder";
import { ReleaseInputError } from "./errors";

export const RELEASE_MARKER = ".pulumi-voice-platform-release";

const MARKER_TEXT =
  "This folder was made by `npm run release` of pulumi-voice-platform.\n" +
  "The next release into it empties it first; delete this file to keep that from happening.\n";

/** Folders a release must never empty, nor any folder that holds one of them. */
export interface ProtectedFolders {
  repository: string;
  home: string;
  /** The current folder, and the one `npm run` was started from (INIT_CWD) when it differs. */
  current: readonly string[];
  temporary: string;
}

/** `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await realPathOf(parent), relative(parent, path));
  }
}

async function markerIsOurs(folder: string): Promise<boolean> {
  const marker = join(folder, RELEASE_MARKER);
  try {
    const info = await lstat(marker);
    return info.isFile() && (await readFile(marker, "utf8")) === MARKER_TEXT;
  } catch {
    return false;
  }
}

const refusalFix =
  "Give --out a new folder, an empty one, or one an earlier release made (the default is " +
  ".release in the repository).";

/** Why `out` (resolved) is or holds a protected folder, or undefined. */
async function protectedFolderRefusal(
  out: string,
  given: string,
  protectedFolders: ProtectedFolders,
): Promise<string | undefined> {
  const named: [string, string][] = [
    [protectedFolders.repository, "the repository"],
    [protectedFolders.home, "your home folder"],
    [protectedFolders.temporary, "the temporary folder"],
    ...protectedFolders.current.map((folder): [string, string] => [folder, "the current folder"]),
  ];
  const candidates = [...new Set([out, await realPathOf(out), await realPathOf(given)])];
  for (const [folder, what] of named) {
    const real = await realPathOf(folder);
    for (const candidate of candidates) {
      for (const guarded of new Set([folder, real])) {
        if (within(guarded, candidate)) {
          const is = guarded === candidate ? "is" : "holds";
          return `--out ${out} ${is} ${what} (${folder}): a release empties its folder first. ${refusalFix}`;
        }
      }
    }
  }
  return undefined;
}

/**
 * Why `out` (resolved from `given`) is reached through a symbolic link, or undefined: the folder
 * itself is one (`resolve` drops the `/` or `/.` that would make lstat follow it), or `given`
 * climbs out of one (`link/../x`, which the system reads from the link's target).
 */
async function linkRefusal(out: string, given: string): Promise<string | undefined> {
  const info = await lstat(out).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    return `--out ${out} is a symbolic link: a release writes only into a real folder. ${refusalFix}`;
  }
  const [asGiven, asResolved] = [await realPathOf(given), await realPathOf(out)];
  if (asGiven !== asResolved) {
    return (
      `--out ${given} goes through a symbolic link and then "..", so it names ${asGiven}, not ` +
      `${out}: give the folder's own path. ${refusalFix}`
    );
  }
  return undefined;
}

/**
 * Why another user could change what a release writes into `out` (resolved), or undefined: the
 * folder is another user's or others may write in it, or a folder above it lets another user
 * rename things. A folder that does not exist yet is judged by the folders above it.
 */
async function ownershipRefusal(out: string): Promise<string | undefined> {
  // Windows has no uid or mode bits here.
  if (process.getuid === undefined) return undefined;
  const uid = process.getuid();
  const info = await lstat(out).catch(() => undefined);
  if (info !== undefined && info.uid !== uid) {
    return (
      `--out ${out} is owned by uid ${info.uid}, not by you (uid ${uid}): what a release ` +
      `writes is what users install, so its folder must be yours. ${refusalFix}`
    );
  }
  if (info !== undefined && (info.mode & 0o022) !== 0) {
    return (
      `--out ${out} has mode ${octal(info.mode)}: others may write in it, and could change ` +
      `what the release writes before it is published. Remove their write access ` +
      `(chmod go-w ${out}) or give --out a new folder.`
    );
  }
  const unsafe = await unsafeAncestor(await realPathOf(out), uid);
  if (unsafe === undefined) return undefined;
  return (
    `--out ${out} lies in ${unsafe.dir}${unsafe.problem}: another user could rename the ` +
    `release folder and put their own in its place. ${unsafe.fix}, or give --out a folder ` +
    `elsewhere.`
  );
}

/**
 * Why `given` may not be a release folder, or undefined when it may. Reads only: nothing is
 * created or removed.
 */
export async function releaseFolderRefusal(
  given: string,
  protectedFolders: ProtectedFolders,
): Promise<string | undefined> {
  const out = resolve(given);
  const refusal =
    (await protectedFolderRefusal(out, given, protectedFolders)) ??
    (await linkRefusal(out, given)) ??
    (await ownershipRefusal(out));
  if (refusal !== undefined) return refusal;
  const info = await lstat(out).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isDirectory()) return `--out ${out} is a file, not a folder. ${refusalFix}`;
  const entries = await readdir(out);
  if (entries.length === 0 || (await markerIsOurs(out))) return undefined;
  const shown = entries.sort().slice(0, 3).join(", ") + (entries.length > 3 ? ", …" : "");
  return (
    `--out ${out} holds ${entries.length} entr${entries.length === 1 ? "y" : "ies"} (${shown}) ` +
    `and no ${RELEASE_MARKER} marker, so no release made it: a release empties its folder ` +
    `first and never touches what it did not make. ${refusalFix}`
  );
}

/** The folders of this process a release must not empty. */
export function protectedFoldersHere(
  repository: string,
  home: string,
  temporary: string,
): ProtectedFolders {
  const current = [process.cwd(), process.env.INIT_CWD].filter(
    (folder): folder is string => folder !== undefined && folder !== "",
  );
  return { repository, home, temporary, current: [...new Set(current.map((f) => resolve(f)))] };
}

/**
 * Makes `out` an empty release folder: refuses (throws, removing nothing) what
 * releaseFolderRefusal refuses; empties a folder an earlier release made, keeping its marker;
 * creates and marks a new one.
 */
export async function prepareReleaseFolder(
  given: string,
  protectedFolders: ProtectedFolders,
): Promise<void> {
  const refusal = await releaseFolderRefusal(given, protectedFolders);
  if (refusal !== undefined) throw new ReleaseInputError("--out", refusal);
  const out = resolve(given);
  // 0755 whatever the umask allows more: the next release refuses a folder others may write.
  await mkdir(out, { recursive: true, mode: 0o755 });
  if (await markerIsOurs(out)) {
    for (const entry of await readdir(out)) {
      // rm removes a symbolic link itself, never what it points to.
      if (entry !== RELEASE_MARKER) await rm(join(out, entry), { recursive: true, force: true });
    }
  } else {
    // "wx": fails rather than write through anything planted since the check.
    await writeFile(join(out, RELEASE_MARKER), MARKER_TEXT, { flag: "wx" });
  }
}
