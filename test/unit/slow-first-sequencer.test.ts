/**
 * The test sequencer (test/support/slow-first-sequencer.js): files jest has no time for start
 * with those whose first comment says `@slow`, then by size as jest orders them; failed files
 * first and timed files longest first, as jest does.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SlowFirstSequencer = require("../support/slow-first-sequencer") as {
  new (): { sort<T>(tests: T[]): T[]; _cache: Map<unknown, Record<string, [number, number]>> };
  saysSlow(path: string): boolean;
};

describe("the slow-first test sequencer", () => {
  let root: string;
  const sizes = new Map<string, number>();
  const context = {
    config: { cache: false, cacheDirectory: tmpdir(), id: "slow-first" },
    hasteFS: { getSize: (path: string) => sizes.get(path) },
  };

  /** A test file of `size` bytes (as jest's file system reports it) with `comment` at its top. */
  function file(name: string, size: number, comment: string) {
    const path = join(root, name);
    writeFileSync(path, `/**\n${comment}\n */\ntest("x", () => {});\n`);
    sizes.set(path, size);
    return { path, context };
  }
  const names = (tests: { path: string }[]) => tests.map((t) => t.path.slice(root.length + 1));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "voiceplatform-sequencer-"));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  test("untimed files: the ones that say @slow first, then the larger first", () => {
    const tests = [
      file("big.test.ts", 20_000, " * A large file."),
      file("tiny-slow.test.ts", 90, " * Calls a long suite.\n *\n * @slow two minutes"),
      file("small.test.ts", 3_000, " * A small one; the word @slow mid-line does not count."),
      file("mid-slow.test.ts", 6_000, " * @slow a minute"),
    ];
    expect(names(new SlowFirstSequencer().sort(tests))).toEqual([
      "mid-slow.test.ts",
      "tiny-slow.test.ts",
      "big.test.ts",
      "small.test.ts",
    ]);
  });

  test("a failed file first; timed files after the untimed ones, longest first", () => {
    const tests = [
      file("timed-short.test.ts", 50_000, " * @slow"),
      file("untimed.test.ts", 1_000, " * Nothing said."),
      file("timed-long.test.ts", 100, " * Nothing said."),
      file("failed.test.ts", 10, " * Nothing said."),
      file("untimed-slow.test.ts", 10, " * @slow"),
    ];
    const sequencer = new SlowFirstSequencer();
    // What jest's cache holds after a run: [0 when the file failed, 1 when it passed; its ms].
    sequencer._cache.set(context, {
      [join(root, "timed-short.test.ts")]: [1, 1_000],
      [join(root, "timed-long.test.ts")]: [1, 90_000],
      [join(root, "failed.test.ts")]: [0, 500],
    });
    expect(names(sequencer.sort(tests))).toEqual([
      "failed.test.ts",
      "untimed-slow.test.ts",
      "untimed.test.ts",
      "timed-long.test.ts",
      "timed-short.test.ts",
    ]);
  });

  test("the files that say @slow", () => {
    const repo = join(__dirname, "..", "..");
    const slow = ["test/e2e/backend-s3.test.ts", "test/e2e/upgrade.test.ts"];
    for (const path of slow)
      expect([path, SlowFirstSequencer.saysSlow(join(repo, path))]).toEqual([path, true]);
    const path = "test/e2e/lifecycle.test.ts";
    expect([path, SlowFirstSequencer.saysSlow(join(repo, path))]).toEqual([path, false]);
  });
});
