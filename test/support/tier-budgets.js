/**
 * Each tier's wall time against its budget: `node test/support/tier-budgets.js <times.jsonl>
 * [<budgets.json>]`, where the times are the lines file-times-reporter.js appends to
 * VOICEPLATFORM_TEST_TIMES and the budgets default to .ci/tier-budgets.json, the one place they
 * are written. `.ci/run` calls it at its end: it prints every tier's time and exits 1 when a tier
 * ran past its budget, or ran without one (a new tier or lane needs a budget, not a blind spot).
 * A budget on the run, not a timed test of the product. Plain JavaScript: .ci/run runs it with node.
 */
const { readFileSync } = require("node:fs");
const { join, relative } = require("node:path");

const REPO_ROOT = join(__dirname, "..", "..");
const DEFAULT_BUDGETS = join(REPO_ROOT, ".ci", "tier-budgets.json");

/** { tier: seconds } from a budgets file, or an error naming the file and the bad entry. */
function readBudgets(path) {
  const parsed = JSON.parse(readFileSync(path, "utf8"));
  const seconds = parsed?.seconds;
  if (seconds === null || typeof seconds !== "object") {
    throw new Error(`${path}: "seconds" must be an object of tier names to budgets in seconds`);
  }
  for (const [tier, budget] of Object.entries(seconds)) {
    if (typeof budget !== "number" || !(budget > 0)) {
      throw new Error(
        `${path}: seconds.${tier} must be a positive number of seconds (got ${JSON.stringify(budget)})`,
      );
    }
  }
  return seconds;
}

/**
 * Each tier's wall time, added up over its jest runs: a run line is { run, seconds } with run the
 * tiers it held joined by "+", and `lane` when it ran in a lane of its own (the Node 22 rerun).
 */
function tierSeconds(lines) {
  const totals = new Map();
  for (const line of lines) {
    if (line.run === undefined) continue;
    const tier = line.lane ?? line.run;
    totals.set(tier, (totals.get(tier) ?? 0) + line.seconds);
  }
  return totals;
}

/** The report lines and the failures of the tiers in `totals` against `budgets`. */
function checkBudgets(totals, budgets, budgetsPath) {
  const report = [];
  const failures = [];
  for (const [tier, seconds] of totals) {
    const budget = budgets[tier];
    const time = `${seconds.toFixed(1).padStart(7)} s`;
    if (budget === undefined) {
      report.push(`  ${time}  ${tier.padEnd(9)} NO BUDGET`);
      failures.push(
        `tier ${tier} ran ${seconds.toFixed(1)} s and has no budget: add seconds.${tier} to ${budgetsPath}`,
      );
    } else if (seconds > budget) {
      report.push(`  ${time}  ${tier.padEnd(9)} of ${budget} s: OVER`);
      failures.push(
        `tier ${tier} ran ${seconds.toFixed(1)} s, past its budget of ${budget} s (written in ${budgetsPath})`,
      );
    } else {
      report.push(`  ${time}  ${tier.padEnd(9)} of ${budget} s`);
    }
  }
  return { report, failures };
}

function main(argv) {
  const [timesPath, budgetsPath = DEFAULT_BUDGETS] = argv;
  if (timesPath === undefined) {
    process.stderr.write(
      "usage: node test/support/tier-budgets.js <times.jsonl> [<budgets.json>]\n",
    );
    return 2;
  }
  const shownBudgets = relative(process.cwd(), budgetsPath) || budgetsPath;
  const text = readFileSync(timesPath, "utf8").trim();
  const lines = text === "" ? [] : text.split("\n").map((line) => JSON.parse(line));
  const { report, failures } = checkBudgets(
    tierSeconds(lines),
    readBudgets(budgetsPath),
    shownBudgets,
  );
  process.stdout.write(`each tier's wall time, against its budget (${shownBudgets}):\n`);
  for (const line of report) process.stdout.write(`${line}\n`);
  for (const failure of failures) process.stderr.write(`FAILED: ${failure}\n`);
  return failures.length === 0 ? 0 : 1;
}

module.exports = { readBudgets, tierSeconds, checkBudgets };

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `tier-budgets: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
