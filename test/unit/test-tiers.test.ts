/**
 * Every test file runs in exactly one tier of jest.config.js: a file that matched none would
 * never run, and one that matched two would run twice.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { globsToMatcher } from "jest-util";

const root = join(__dirname, "..", "..");

interface Tier {
  displayName: string;
  testMatch: string[];
  testPathIgnorePatterns?: string[];
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
  expect(tiersOf(join(root, "test/reliability/load.test.ts"))).toEqual(["process"]);
  expect(tiersOf(join(root, "test/reliability/fault-matrix.test.ts"))).toEqual(["emulator"]);
});
