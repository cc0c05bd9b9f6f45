/**
 * The tier budgets (.ci/tier-budgets.json, checked by test/support/tier-budgets.js at the end of
 * .ci/run): a tier past its budget fails the run naming the tier, its time, its budget and where
 * the budget is written; a tier within passes; a tier without a budget fails rather than going
 * unseen. Run on made-up times files, as the jest reporter writes them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO_ROOT = join(__dirname, "..", "..");
const SCRIPT = join(REPO_ROOT, "test", "support", "tier-budgets.js");
const BUDGETS = join(REPO_ROOT, ".ci", "tier-budgets.json");

const { readBudgets, tierSeconds } = require(SCRIPT) as {
  readBudgets(path: string): Record<string, number>;
  tierSeconds(lines: object[]): Map<string, number>;
};

interface RunLine {
  run: string;
  seconds: number;
  lane?: string;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tier-budgets-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The check run as .ci/run runs it, on a times file holding `runs` and one file line. */
function check(runs: RunLine[], budgets = BUDGETS) {
  const times = join(dir, "times.jsonl");
  const file = { file: "test/unit/x.test.ts", tier: "unit", seconds: 1, failed: 0 };
  writeFileSync(times, [file, ...runs].map((line) => JSON.stringify(line) + "\n").join(""));
  const result = spawnSync(process.execPath, [SCRIPT, times, budgets], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const budgets = readBudgets(BUDGETS);

test("every jest tier and the Node 22 lane has a budget in .ci/tier-budgets.json", () => {
  const tiers = (
    require(join(REPO_ROOT, "jest.config.js")) as { projects: { displayName: string }[] }
  ).projects.map((tier) => tier.displayName);
  expect(Object.keys(budgets).sort()).toEqual([...tiers, "node22"].sort());
});

test("a tier past its budget fails, naming the tier, its time, its budget and the file", () => {
  const result = check([
    { run: "unit", seconds: budgets.unit! - 1 },
    { run: "engine", seconds: budgets.engine! + 0.5 },
  ]);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(
    `FAILED: tier engine ran ${(budgets.engine! + 0.5).toFixed(1)} s, past its budget of ` +
      `${budgets.engine} s (written in .ci/tier-budgets.json)`,
  );
  expect(result.stderr).not.toContain("tier unit");
  expect(result.stdout).toMatch(/engine +of \d+ s: OVER/);
});

test("tiers within their budgets pass, and each tier's time is printed", () => {
  const runs = Object.entries(budgets).map(([tier, budget]) => ({
    run: tier === "node22" ? "engine" : tier,
    seconds: budget,
    ...(tier === "node22" ? { lane: "node22" } : {}),
  }));
  const result = check(runs);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  for (const [tier, budget] of Object.entries(budgets)) {
    expect(result.stdout).toContain(
      `${budget.toFixed(1).padStart(7)} s  ${tier.padEnd(9)} of ${budget} s`,
    );
  }
});

test("a tier with no budget fails and says where to add one", () => {
  const result = check([{ run: "unit+emulator", seconds: 3 }]);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(
    "tier unit+emulator ran 3.0 s and has no budget: add seconds.unit+emulator to .ci/tier-budgets.json",
  );
});

test("a tier's runs add up, and a lane is timed apart from the tier it reruns", () => {
  const totals = tierSeconds([
    { file: "test/e2e/a.test.ts", tier: "engine", seconds: 99 },
    { run: "engine", seconds: 100 },
    { run: "engine", seconds: 20 },
    { run: "engine", seconds: 30, lane: "node22" },
  ]);
  expect([...totals]).toEqual([
    ["engine", 120],
    ["node22", 30],
  ]);
});

test("a budget that is not a positive number is refused, naming the entry", () => {
  const bad = join(dir, "budgets.json");
  writeFileSync(bad, JSON.stringify({ seconds: { unit: "60" } }));
  expect(() => readBudgets(bad)).toThrow(
    `${bad}: seconds.unit must be a positive number of seconds (got "60")`,
  );
  const result = check([{ run: "unit", seconds: 1 }], bad);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("seconds.unit must be a positive number");
});

test("the reporter's lines carry the lane .ci/run names", () => {
  const times = join(dir, "times.jsonl");
  const reporter = join(REPO_ROOT, "test", "support", "file-times-reporter.js");
  const testFile = join(REPO_ROOT, "test", "e2e", "a.test.ts");
  // The reporter as jest drives it, in a process of its own: it reads the lane from the environment.
  const script = `
    const Reporter = require(${JSON.stringify(reporter)});
    const r = new Reporter({ rootDir: ${JSON.stringify(REPO_ROOT)}, maxWorkers: 2 });
    r.onRunStart();
    r.onTestResult(
      { path: ${JSON.stringify(testFile)}, context: { config: { displayName: { name: "engine" } } } },
      { perfStats: { start: 0, end: 2000 }, numFailingTests: 0 },
    );
    r.onRunComplete();`;
  execFileSync(process.execPath, ["-e", script], {
    env: { ...process.env, VOICEPLATFORM_TEST_TIMES: times, VOICEPLATFORM_TEST_LANE: "node22" },
    stdio: "pipe",
  });
  const lines = readFileSync(times, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toEqual([
    { file: "test/e2e/a.test.ts", tier: "engine", lane: "node22", seconds: 2, failed: 0 },
    { run: "engine", lane: "node22", seconds: expect.any(Number) },
  ]);
  expect([...tierSeconds(lines).keys()]).toEqual(["node22"]);
});
