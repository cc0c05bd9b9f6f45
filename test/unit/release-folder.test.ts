/**
 * `npm run release -- --out DIR` empties only a folder a release made: the refusals, read-only
 * (no folder is ever removed by this file's checks of `/`, home or the repository), and the
 * preparation of real temporary folders, which leaves what it refuses untouched.
 */
import { existsSync } from "node:fs";
import {
  chmod,
  chown,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { ReleaseInputError } from "../../provider/release/errors";
import {
  prepareReleaseFolder,
  RELEASE_MARKER,
  releaseFolderRefusal,
  type ProtectedFolders,
} from "../../provider/release/release-folder";

const repository = join(__dirname, "..", "..");

describe("the release folder", () => {
  let root: string;
  let guarded: ProtectedFolders;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-release-folder-"));
    guarded = {
      repository,
      home: homedir(),
      temporary: tmpdir(),
      current: [join(root, "cwd")],
    };
    await mkdir(join(root, "cwd"));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** The message of the error preparing `out` is refused with, checked to be about --out. */
  async function preparationRefusal(out: string): Promise<string> {
    const error: unknown = await prepareReleaseFolder(out, guarded).then(
      () => undefined,
      (refused: unknown) => refused,
    );
    expect(error).toBeInstanceOf(ReleaseInputError);
    expect((error as ReleaseInputError).input).toBe("--out");
    return (error as ReleaseInputError).message;
  }

  test.each([
    ["/", "/"],
    ["the repository", repository],
    ["a parent of the repository", dirname(repository)],
    ["the home folder", homedir()],
    ["the temporary folder", tmpdir()],
  ])("%s is refused, whatever it holds", async (_what, out) => {
    const refusal = await releaseFolderRefusal(out, guarded);
    expect(refusal).toMatch(
      new RegExp(`^--out ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (is|holds) `),
    );
    expect(refusal).toContain("a release empties its folder first");
    expect(refusal).toContain("Give --out a new folder");
  });

  test("each refusal names the folder it protects", async () => {
    expect(await releaseFolderRefusal(repository, guarded)).toContain("is the repository");
    expect(await releaseFolderRefusal(dirname(repository), guarded)).toContain(
      "holds the repository",
    );
    const home = join(root, "home");
    await mkdir(home);
    const withHome = { ...guarded, home };
    expect(await releaseFolderRefusal(home, withHome)).toContain("is your home folder");
    const temporary = join(root, "tmp");
    await mkdir(temporary);
    const withTemporary = { ...guarded, temporary };
    expect(await releaseFolderRefusal(temporary, withTemporary)).toContain(
      "is the temporary folder",
    );
  });

  test("the current folder and its parent are refused, even when empty", async () => {
    const current = join(root, "cwd");
    expect(await releaseFolderRefusal(current, guarded)).toContain("is the current folder");
    expect(await releaseFolderRefusal(root, guarded)).toContain("holds the current folder");
  });

  test("a path through a symbolic link to the repository is refused; so is a link itself", async () => {
    await symlink(dirname(repository), join(root, "to-parent"));
    const throughLink = join(root, "to-parent", basename(repository));
    expect(await releaseFolderRefusal(throughLink, guarded)).toContain("is the repository");
    await mkdir(join(root, "empty"));
    await symlink(join(root, "empty"), join(root, "to-empty"));
    expect(await releaseFolderRefusal(join(root, "to-empty"), guarded)).toContain(
      "is a symbolic link",
    );
  });

  test.each(["/", "/.", "//", "/./"])(
    "a link given as link%s is refused, and what it points to keeps its files",
    async (suffix) => {
      const target = join(root, "target");
      await prepareReleaseFolder(target, guarded);
      await writeFile(join(target, "keep.txt"), "kept");
      await symlink(target, join(root, "link"));
      const given = `${join(root, "link")}${suffix}`;
      await expect(prepareReleaseFolder(given, guarded)).rejects.toThrow(
        `--out ${join(root, "link")} is a symbolic link`,
      );
      expect((await readdir(target)).sort()).toEqual([RELEASE_MARKER, "keep.txt"]);
    },
  );

  test("a path that climbs out of a link with .. is refused, naming where it leads", async () => {
    const elsewhere = join(root, "elsewhere");
    await mkdir(join(elsewhere, "inside"), { recursive: true });
    await prepareReleaseFolder(join(elsewhere, "release"), guarded);
    await writeFile(join(elsewhere, "release", "keep.txt"), "kept");
    await symlink(join(elsewhere, "inside"), join(root, "link"));
    await mkdir(join(root, "release"));
    // The system reads link/.. as elsewhere/, where path.resolve reads it as root/.
    const given = join(root, "link") + "/../release";
    const refusal = await releaseFolderRefusal(given, guarded);
    expect(refusal).toContain(`--out ${given} `);
    expect(refusal).toContain(`symbolic link and then ".."`);
    expect(refusal).toContain("give the folder's own path");
    expect(refusal).toContain(`names ${join(elsewhere, "release")}, not ${join(root, "release")}`);
    await expect(prepareReleaseFolder(given, guarded)).rejects.toThrow("goes through a symbolic");
    expect(await readdir(join(elsewhere, "release"))).toContain("keep.txt");
  });

  const asRoot = process.getuid?.() === 0 ? test : test.skip;

  asRoot(
    "another user's folder others may write, holding a copied marker, is refused and kept",
    async () => {
      const ours = join(root, "ours");
      await prepareReleaseFolder(ours, guarded);
      const theirs = join(root, "theirs");
      await mkdir(theirs);
      await copyFile(join(ours, RELEASE_MARKER), join(theirs, RELEASE_MARKER));
      await writeFile(join(theirs, "planted.tar.gz"), "theirs");
      await chmod(theirs, 0o777);
      await chown(theirs, 65534, 65534);
      const message = await preparationRefusal(theirs);
      expect(message).toContain(`--out ${theirs} is owned by uid 65534`);
      expect(message).toContain("not by you (uid 0)");
      expect(message).toContain("its folder must be yours");
      expect((await readdir(theirs)).sort()).toEqual([RELEASE_MARKER, "planted.tar.gz"]);
    },
  );

  test("a folder of yours that others may write is refused with the fix, even with the marker", async () => {
    const open = join(root, "open");
    await prepareReleaseFolder(open, guarded);
    await writeFile(join(open, "old.tar.gz"), "old");
    for (const mode of [0o777, 0o775, 0o757]) {
      await chmod(open, mode);
      const message = await preparationRefusal(open);
      expect(message).toContain(`--out ${open} has mode 0${mode.toString(8)}:`);
      expect(message).toContain("others may write in it");
      expect(message).toContain(`(chmod go-w ${open})`);
      expect(message).toContain("give --out a new folder");
    }
    expect((await readdir(open)).sort()).toEqual([RELEASE_MARKER, "old.tar.gz"]);
  });

  test("a folder in a folder others may write (not sticky) is refused; a sticky one is not", async () => {
    const shared = join(root, "shared");
    await mkdir(shared);
    await chmod(shared, 0o777);
    const out = join(shared, "release");
    const refusal = await releaseFolderRefusal(out, guarded);
    expect(refusal).toContain(`--out ${out} lies in ${shared} (mode 0777)`);
    expect(refusal).toContain("writable by others");
    expect(refusal).toContain(`(chmod go-w ${shared})`);
    expect(refusal).toContain("give --out a folder elsewhere");
    await chmod(shared, 0o1777);
    expect(await releaseFolderRefusal(out, guarded)).toBeUndefined();
  });

  test("a new folder is made writable by its owner alone, whatever the umask", async () => {
    const previous = process.umask(0o000);
    try {
      const out = join(root, "made", "release");
      await prepareReleaseFolder(out, guarded);
      expect((await stat(out)).mode & 0o777).toBe(0o755);
      expect((await stat(join(root, "made"))).mode & 0o777).toBe(0o755);
      // So the next release into it is not refused.
      await prepareReleaseFolder(out, guarded);
    } finally {
      process.umask(previous);
    }
  });

  test("a non-empty folder without the marker is refused and keeps every file", async () => {
    const foreign = join(root, "foreign");
    await mkdir(join(foreign, "sub"), { recursive: true });
    await writeFile(join(foreign, "notes.txt"), "mine");
    const message = await preparationRefusal(foreign);
    expect(message).toContain(`--out ${foreign} holds 2 entries (notes.txt, sub)`);
    expect(message).toContain(`no ${RELEASE_MARKER} marker`);
    expect(message).toContain("Give --out a new folder");
    expect((await readdir(foreign)).sort()).toEqual(["notes.txt", "sub"]);
    expect(await readFile(join(foreign, "notes.txt"), "utf8")).toBe("mine");
  });

  test("a marker with other text, or one that is a link, does not make a folder the release's", async () => {
    const forged = join(root, "forged");
    await mkdir(forged);
    await writeFile(join(forged, RELEASE_MARKER), "anything");
    await writeFile(join(forged, "data"), "keep");
    expect(await releaseFolderRefusal(forged, guarded)).toContain("no release made it");

    const linked = join(root, "linked");
    await mkdir(linked);
    const made = join(root, "made");
    await prepareReleaseFolder(made, guarded);
    await symlink(join(made, RELEASE_MARKER), join(linked, RELEASE_MARKER));
    await writeFile(join(linked, "data"), "keep");
    await expect(prepareReleaseFolder(linked, guarded)).rejects.toThrow("no release made it");
    expect(existsSync(join(linked, "data"))).toBe(true);
  });

  test("a file is refused", async () => {
    await writeFile(join(root, "file"), "x");
    expect(await releaseFolderRefusal(join(root, "file"), guarded)).toContain("is a file");
  });

  test("a new folder is created with the marker; an empty one gets the marker", async () => {
    const fresh = join(root, "a", "b", "release");
    await prepareReleaseFolder(fresh, guarded);
    expect(await readdir(fresh)).toEqual([RELEASE_MARKER]);
    const empty = join(root, "empty");
    await mkdir(empty);
    await prepareReleaseFolder(empty, guarded);
    expect(await readdir(empty)).toEqual([RELEASE_MARKER]);
  });

  test("a folder a release made is emptied, its marker kept, links removed not followed", async () => {
    const out = join(root, "release");
    await prepareReleaseFolder(out, guarded);
    const outside = join(root, "outside");
    await mkdir(outside);
    await writeFile(join(outside, "keep.txt"), "outside the release");
    await mkdir(join(out, "plugin"));
    await writeFile(join(out, "plugin", "old.tar.gz"), "old");
    await symlink(outside, join(out, "link"));
    await prepareReleaseFolder(out, guarded);
    expect(await readdir(out)).toEqual([RELEASE_MARKER]);
    expect(await readFile(join(outside, "keep.txt"), "utf8")).toBe("outside the release");
  });
});
