/**
 * `npm run release` as a user types it, refusing what would harm the machine before it removes or
 * builds anything: a folder it did not make as --out (its files stay), another user's folder that
 * others may write even with a copied marker, a link given with a trailing slash, the folder the
 * user is in, a plain-http download URL off loopback, an unknown platform, a tag that is no
 * version, and (without --dry-run) the placeholder public address. Each refusal exits 1 at once with
 * a message naming the option, the problem and the fix. Only temporary folders are used as --out,
 * so a regression here can never empty anything else.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PLACEHOLDER_PUBLIC_ADDRESS, PUBLIC_ADDRESS } from "../../provider/release/public-address";
import { prepareReleaseFolder, RELEASE_MARKER } from "../../provider/release/release-folder";
import { REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

interface Outcome {
  code: number;
  stderr: string;
}

/** `npm --prefix <repo> run release -- ...args` started from `from`, as a user in that folder. */
async function release(from: string, args: string[]): Promise<Outcome> {
  return run("npm", ["--prefix", REPO_ROOT, "run", "--silent", "release", "--", ...args], {
    cwd: from,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code?: number; stderr?: string }) => ({
      code: error.code ?? -1,
      stderr: error.stderr ?? "",
    }),
  );
}

/** A marker's exact text, as a release writes it (copied from a folder prepared here). */
async function markerText(root: string): Promise<string> {
  const made = join(root, "made-by-a-release");
  await prepareReleaseFolder(made, {
    repository: REPO_ROOT,
    home: join(root, "no-home"),
    temporary: join(root, "no-temporary"),
    current: [],
  });
  return readFile(join(made, RELEASE_MARKER), "utf8");
}

describe("npm run release refuses before it removes anything", () => {
  jest.setTimeout(120_000);
  let root: string;
  let user: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-release-refusals-"));
    user = join(root, "user");
    await mkdir(user);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test("--out naming a folder the release did not make: refused, its files kept", async () => {
    const foreign = join(root, "foreign");
    await mkdir(join(foreign, "photos"), { recursive: true });
    await writeFile(join(foreign, "thesis.txt"), "years of work");
    const outcome = await release(user, ["--dry-run", "--out", foreign]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`release failed: --out ${foreign} `);
    expect(outcome.stderr).toContain("holds 2 entries (photos, thesis.txt)");
    expect(outcome.stderr).toContain(`no ${RELEASE_MARKER} marker`);
    expect(outcome.stderr).toContain("Give --out a new folder");
    expect((await readdir(foreign)).sort()).toEqual(["photos", "thesis.txt"]);
    expect(await readFile(join(foreign, "thesis.txt"), "utf8")).toBe("years of work");
  });

  const asRoot = process.getuid?.() === 0 ? test : test.skip;

  asRoot(
    "--out naming another user's folder that anyone may write, with a copied marker: refused, kept",
    async () => {
      const shared = join(root, "shared");
      await mkdir(shared);
      await writeFile(join(shared, RELEASE_MARKER), await markerText(root));
      await writeFile(join(shared, "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz"), "x");
      await chmod(shared, 0o777);
      await chown(shared, 65534, 65534);
      const outcome = await release(user, ["--dry-run", "--out", shared]);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`release failed: --out ${shared} `);
      expect(outcome.stderr).toContain("owned by uid 65534");
      expect(outcome.stderr).toContain("not by you (uid 0)");
      expect((await readdir(shared)).sort()).toEqual([
        RELEASE_MARKER,
        "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz",
      ]);
    },
  );

  test("--out naming a link with a trailing slash: refused, the folder it points to kept", async () => {
    const target = join(root, "target");
    await mkdir(target);
    await writeFile(join(target, RELEASE_MARKER), await markerText(root));
    await writeFile(join(target, "keep.txt"), "kept");
    await symlink(target, join(user, "link"));
    const outcome = await release(user, ["--dry-run", "--out", "link/"]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`--out ${join(user, "link")} is a symbolic link`);
    expect((await readdir(target)).sort()).toEqual([RELEASE_MARKER, "keep.txt"]);
  });

  test("--out . from the folder the user is in: refused, resolved there, not in the repository", async () => {
    await writeFile(join(user, "work.txt"), "mine");
    const outcome = await release(user, ["--dry-run", "--out", "."]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`--out ${user} is the current folder`);
    expect(await readdir(user)).toEqual(["work.txt"]);
  });

  test("a plain-http download URL off loopback: refused, no folder made", async () => {
    const out = join(root, "release");
    const url = "http://downloads.example.com/voiceplatform/";
    const outcome = await release(user, ["--dry-run", "--out", out, "--plugin-download-url", url]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      "--plugin-download-url http://downloads.example.com/voiceplatform/ is plain http on " +
        "downloads.example.com",
    );
    expect(existsSync(out)).toBe(false);
  });

  (PUBLIC_ADDRESS === PLACEHOLDER_PUBLIC_ADDRESS ? test : test.skip)(
    "a release to publish (no --dry-run) with the placeholder public address: refused, no folder made",
    async () => {
      const out = join(root, "release");
      const outcome = await release(user, ["--tag", "v1.0.0", "--out", out]);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain("release failed: a release to publish ");
      expect(outcome.stderr).toContain("(no --dry-run)");
      expect(outcome.stderr).toContain(`placeholder public address ${PLACEHOLDER_PUBLIC_ADDRESS}`);
      expect(outcome.stderr).toContain("Set PUBLIC_ADDRESS in provider/release/public-address.ts");
      expect(existsSync(out)).toBe(false);
    },
  );

  test("a tag that is no version: refused, no folder made", async () => {
    const out = join(root, "release");
    const outcome = await release(user, ["--dry-run", "--tag", "release-1", "--out", out]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('--tag "release-1" is not a version tag');
    expect(existsSync(out)).toBe(false);
  });

  test("an unknown platform: refused, no folder made", async () => {
    const out = join(root, "release");
    const outcome = await release(user, [
      "--dry-run",
      "--out",
      out,
      "--platforms",
      "linux-amd64,solaris-sparc",
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("names unknown platforms (solaris-sparc)");
    expect(existsSync(out)).toBe(false);
  });
});
