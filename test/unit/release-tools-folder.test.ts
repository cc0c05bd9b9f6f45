/**
 * The release runs its Python build tools from a per-user cache folder only when that folder is
 * private: a real folder, owned by the current user, mode 0700, below folders no one else may
 * change. A planted tool in a folder that fails any of these never runs.
 */
import { existsSync } from "node:fs";
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReleaseInputError } from "../../provider/release/errors";
import { buildPythonPackages, moveVenvIntoPlace } from "../../provider/release/sdk-packages";
import { defaultToolsFolder, privateToolsFolder } from "../../provider/release/tools-folder";

describe("the release tools folder", () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-tools-folder-"));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** The message `folder` is refused with, checked to point at XDG_CACHE_HOME's folder. */
  async function toolsFolderRefusal(folder: string): Promise<string> {
    const error: unknown = await privateToolsFolder(folder).then(
      () => undefined,
      (refused: unknown) => refused,
    );
    expect(error).toBeInstanceOf(ReleaseInputError);
    expect((error as ReleaseInputError).input).toBe("XDG_CACHE_HOME");
    return (error as ReleaseInputError).message;
  }

  test("lives in the per-user cache, not under the temporary folder", () => {
    expect(defaultToolsFolder({ XDG_CACHE_HOME: "/home/u/.cache" })).toBe(
      "/home/u/.cache/pulumi-voice-platform/release-tools",
    );
    expect(defaultToolsFolder({})).toMatch(/\.cache\/pulumi-voice-platform\/release-tools$/);
    expect(defaultToolsFolder({}).startsWith(tmpdir())).toBe(false);
  });

  test("a missing folder is made with mode 0700 and accepted", async () => {
    const folder = join(root, "cache", "release-tools");
    expect(await privateToolsFolder(folder)).toBe(await realpath(folder));
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  test("a folder others may read or write is refused with the fix", async () => {
    const folder = join(root, "tools");
    await mkdir(folder, { mode: 0o700 });
    await chmod(folder, 0o755);
    const message = await toolsFolderRefusal(folder);
    expect(message).toContain(`tools folder ${folder} has mode 0755:`);
    expect(message).toContain("others could have changed the tools");
    expect(message).toContain("It must be 0700");
    expect(message).toContain(`(rm -rf ${folder})`);
  });

  test("a symbolic link is refused, even to a private folder", async () => {
    const real = join(root, "real");
    await mkdir(real, { mode: 0o700 });
    await symlink(real, join(root, "link"));
    await expect(privateToolsFolder(join(root, "link"))).rejects.toThrow("is a symbolic link");
  });

  test("a folder owned by someone else is refused", async () => {
    // As root, a folder given to nobody; otherwise one root owns.
    let folder = "/usr";
    if (process.getuid!() === 0) {
      folder = join(root, "theirs");
      await mkdir(folder, { mode: 0o700 });
      await chown(folder, 65534, 65534);
    }
    const message = await toolsFolderRefusal(folder);
    expect(message).toMatch(/is owned by uid \d+, not by you \(uid \d+\)/);
    expect(message).toContain("not yours to run");
    expect(message).toContain(`(rm -rf ${folder})`);
  });

  test("a private folder inside a folder others may write (not sticky) is refused", async () => {
    const open = join(root, "open");
    await mkdir(open);
    await chmod(open, 0o777);
    const folder = join(open, "tools");
    const message = await toolsFolderRefusal(folder);
    expect(message).toContain(`lies in ${open} (mode 0777)`);
    expect(message).toContain("writable by others");
    expect(message).toContain(`(chmod go-w ${open})`);
    expect(message).toContain("set XDG_CACHE_HOME");
  });

  test("a planted python in a shared tools folder never runs", async () => {
    const tools = join(root, "tools");
    const venvBin = join(tools, "python-build", "bin");
    await mkdir(venvBin, { recursive: true });
    await chmod(tools, 0o777);
    const proof = join(root, "planted-python-ran");
    await writeFile(join(tools, "python-build", ".ready"), "");
    await writeFile(join(venvBin, "python"), `#!/bin/sh\ntouch ${proof}\nexit 1\n`, {
      mode: 0o755,
    });
    await expect(
      buildPythonPackages(join(root, "sdk"), join(root, "dist"), {
        epochSeconds: 1_700_000_000,
        toolsFolder: tools,
      }),
    ).rejects.toThrow("has mode 0777");
    expect(existsSync(proof)).toBe(false);
  });

  describe("the Python build environment, made under its own name and renamed into place", () => {
    /** A made environment: `.ready` and a file naming who made it. */
    async function made(name: string, ready = true): Promise<string> {
      const dir = join(root, name);
      await mkdir(dir);
      await writeFile(join(dir, "maker"), name);
      if (ready) await writeFile(join(dir, ".ready"), "");
      return dir;
    }
    const maker = (dir: string) => readFile(join(dir, "maker"), "utf8");

    test("takes the place when it is free", async () => {
      const venv = join(root, "python-build");
      await moveVenvIntoPlace(await made("first"), venv);
      expect(await maker(venv)).toBe("first");
    });

    test("leaves a ready one that another release put there meanwhile", async () => {
      const venv = join(root, "python-build");
      await moveVenvIntoPlace(await made("first"), venv);
      const second = await made("second");
      await moveVenvIntoPlace(second, venv);
      expect(await maker(venv)).toBe("first");
      expect(existsSync(join(second, ".ready"))).toBe(true);
    });

    test("replaces one without .ready, left by a build that was stopped", async () => {
      const venv = join(root, "python-build");
      await rename(await made("stopped", false), venv);
      await moveVenvIntoPlace(await made("complete"), venv);
      expect(await maker(venv)).toBe("complete");
    });
  });
});
