/**
 * Every test file runs in exactly one tier of jest.config.js: a file that matched none would
 * never run, and one that matched two would run twice. A tier is folder globs only, so where a
 * file lives says which tier runs it: no file names in the globs, no ignore patterns.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { globsToMatcher } from "jest-util";

const root = join(__dirname, "..", "..");

interface Tier {
  displayName: string;
  testMatch: string[];
  testPathIgnorePatterns?: string[];
  testRegex?: unknown;
}

/** `<rootDir>/test/<folder>/**\/*.test.ts` or `<rootDir>/test/{<folder>,<folder>}/**\/*.test.ts`. */
const FOLDER_GLOB =
  /^<rootDir>\/test\/(?:([a-z0-9-]+)|\{([a-z0-9-]+(?:,[a-z0-9-]+)+)\})\/\*\*\/\*\.test\.ts$/;

/** The folders under test/ a glob names, or undefined when it is not a folder glob. */
function globFolders(glob: string): string[] | undefined {
  const match = FOLDER_GLOB.exec(glob);
  if (!match) return undefined;
  return (match[1] ?? match[2]!).split(",");
}

const tiers = (require(join(root, "jest.config.js")) as { projects: Tier[] }).projects;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function tiersOf(file: string): string[] {
  return tiers
    .filter((tier) => {
      const matches = globsToMatcher(tier.testMatch.map((glob) => glob.replace("<rootDir>", root)));
      const ignored = (tier.testPathIgnorePatterns ?? []).some((pattern) =>
        new RegExp(pattern).test(file),
      );
      return matches(file) && !ignored;
    })
    .map((tier) => tier.displayName);
}

test("the tiers run cheapest first", () => {
  expect(tiers.map((tier) => tier.displayName)).toEqual(["unit", "emulator", "process", "engine"]);
});

test("every test file belongs to exactly one tier", () => {
  const files = testFiles(join(root, "test"));
  expect(files.length).toBeGreaterThan(20);
  const misplaced = files
    .map((file) => ({ file: relative(root, file), tiers: tiersOf(file) }))
    .filter((entry) => entry.tiers.length !== 1);
  expect(misplaced).toEqual([]);
});

test("the unit tier holds only tests that need no server, build or CLI", () => {
  const unit = testFiles(join(root, "test")).filter((file) => tiersOf(file)[0] === "unit");
  expect(unit.map((file) => relative(root, file)).every((f) => f.startsWith("test/unit/"))).toBe(
    true,
  );
  expect(tiersOf(join(root, "test/reliability-processes/load.test.ts"))).toEqual(["process"]);
  expect(tiersOf(join(root, "test/reliability-processes/secrets.test.ts"))).toEqual(["process"]);
  expect(tiersOf(join(root, "test/reliability/fault-matrix.test.ts"))).toEqual(["emulator"]);
});

test("each tier is a list of folder globs: no file names, no ignore patterns", () => {
  const shapes = tiers.map((tier) => ({
    tier: tier.displayName,
    ignores: tier.testPathIgnorePatterns ?? [],
    regex: tier.testRegex,
    notFolderGlobs: tier.testMatch.filter((glob) => globFolders(glob) === undefined),
  }));
  expect(shapes).toEqual(
    tiers.map((tier) => ({
      tier: tier.displayName,
      ignores: [],
      regex: undefined,
      notFolderGlobs: [],
    })),
  );
  // Every folder a glob names is there (a renamed folder would silently empty its tier).
  const folders = tiers.flatMap((tier) => tier.testMatch.flatMap((glob) => globFolders(glob)!));
  expect(folders.filter((folder) => !existsSync(join(root, "test", folder)))).toEqual([]);
  expect(new Set(folders).size).toBe(folders.length);
});

test("the folder-glob check rejects file names and ignore patterns", () => {
  expect(globFolders("<rootDir>/test/{emulator,provider}/**/*.test.ts")).toEqual([
    "emulator",
    "provider",
  ]);
  expect(globFolders("<rootDir>/test/unit/**/*.test.ts")).toEqual(["unit"]);
  expect(globFolders("<rootDir>/test/reliability/{load,secrets}.test.ts")).toBeUndefined();
  expect(globFolders("<rootDir>/test/reliability/load.test.ts")).toBeUndefined();
  expect(globFolders("<rootDir>/test/reliability/**/load.test.ts")).toBeUndefined();
});
