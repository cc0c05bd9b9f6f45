/**
 * The launcher the Linux and macOS archives carry is the same bytes whatever state the checkout is
 * in: goBuild (provider/release/go-build.ts, what the release builds it with) keeps Go from
 * stamping the commit and whether files are uncommitted or untracked into the binary. Built here
 * from a copy of the launcher's sources in a git repository of the test's own, so the working
 * tree the tests run from is never touched: committed and clean, then with an untracked file, then
 * with a new commit.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { goBuild } from "../../provider/release/go-build";
import { REPO_ROOT } from "../support/packed-package";

const run = promisify(execFile);

const LAUNCHER = join(REPO_ROOT, "provider", "plugin", "launcher");

describe("goBuild ignores the state of the checkout", () => {
  jest.setTimeout(300_000);
  let root: string;
  let source: string;

  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
      cwd: root,
    });

  /** The launcher for `platform` built from the copy, as the release builds it. */
  const launcher = async (platform: string, name: string): Promise<Buffer> => {
    const [goos, goarch] = platform.split("-") as [string, string];
    const output = join(root, "..", `${name}-${platform}`);
    await goBuild({
      sourceDir: source,
      output,
      ldflags: "-s -w -buildid=",
      target: { goos, goarch },
      withoutGo: "this test needs the Go toolchain (go on PATH)",
      what: "the launcher's copy",
    });
    return readFile(output);
  };

  beforeAll(async () => {
    const parent = await mkdtemp(join(tmpdir(), "voiceplatform-go-build-"));
    root = join(parent, "checkout");
    source = join(root, "launcher");
    await cp(LAUNCHER, source, { recursive: true });
    await git("init", "--quiet");
    await git("add", "-A");
    await git("commit", "--quiet", "-m", "the launcher");
  });

  afterAll(async () => {
    if (root !== undefined) await rm(join(root, ".."), { recursive: true, force: true });
  });

  test.each(["linux-amd64", "darwin-arm64"])(
    "%s: clean, with an untracked file, after another commit: the same bytes, no VCS stamp",
    async (platform) => {
      const clean = await launcher(platform, "clean");
      await writeFile(join(root, "untracked.txt"), "not committed\n");
      const untracked = await launcher(platform, "untracked");
      await git("add", "-A");
      await git("commit", "--quiet", "-m", "another commit");
      const committed = await launcher(platform, "committed");
      await rm(join(root, "untracked.txt"));
      await git("commit", "--quiet", "-am", "back");

      expect(untracked.equals(clean)).toBe(true);
      expect(committed.equals(clean)).toBe(true);
      const { stdout } = await run("go", ["version", "-m", join(root, "..", `clean-${platform}`)]);
      expect(stdout).toContain("-trimpath=true");
      expect(stdout).not.toMatch(/vcs/);
    },
  );
});
