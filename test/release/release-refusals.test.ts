/**
 * `npm run release` as a user types it, refusing what would harm the machine before it removes or
 * builds anything: a folder it did not make as --out (its files stay), the folder the user is in,
 * a plain-http download URL off loopback, an unknown platform. Each refusal exits 1 at once with
 * a message naming the option, the problem and the fix. Only temporary folders are used as --out,
 * so a regression here can never empty anything else.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { RELEASE_MARKER } from "../../provider/release/release-folder";
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
    expect(outcome.stderr).toContain(
      `release failed: --out ${foreign} holds 2 entries (photos, thesis.txt) and no ` +
        `${RELEASE_MARKER} marker, so no release made it`,
    );
    expect(outcome.stderr).toContain("Give --out a new folder");
    expect((await readdir(foreign)).sort()).toEqual(["photos", "thesis.txt"]);
    expect(await readFile(join(foreign, "thesis.txt"), "utf8")).toBe("years of work");
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
    const outcome = await release(user, ["--out", out, "--plugin-download-url", url]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      "--plugin-download-url http://downloads.example.com/voiceplatform/ is plain http on " +
        "downloads.example.com",
    );
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
