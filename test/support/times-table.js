/**
 * Every test file's time in one run, as the Markdown table docs/development.md keeps ("Test files
 * and their times"): `node test/support/times-table.js <times.jsonl>`, where the times are the
 * lines file-times-reporter.js appends to VOICEPLATFORM_TEST_TIMES (`.ci/run` keeps them at the
 * path a caller sets there). A file run in two tiers or lanes gets a row for each, tiers in the
 * order `npm test` runs them, slowest first within one. Plain JavaScript, as .ci/run runs it.
 */
const { readFileSync } = require("node:fs");

const TIER_ORDER = ["unit", "emulator", "process", "engine", "node22"];

/** The file lines of a times file (a run line has no `file`). */
function fileLines(text) {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return trimmed
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((line) => line.file !== undefined)
    .map((line) => ({ file: line.file, tier: line.lane ?? line.tier, seconds: line.seconds }));
}

const rank = (tier) => {
  const at = TIER_ORDER.indexOf(tier);
  return at === -1 ? TIER_ORDER.length : at;
};

/** The table's lines: header, then one row per file and tier, with each tier's sum at its end. */
function timesTable(lines) {
  const sorted = [...lines].sort(
    (a, b) => rank(a.tier) - rank(b.tier) || b.seconds - a.seconds || a.file.localeCompare(b.file),
  );
  const rows = ["| file | tier | seconds |", "| --- | --- | ---: |"];
  const sums = new Map();
  for (const line of sorted) {
    rows.push(`| \`${line.file}\` | ${line.tier} | ${line.seconds.toFixed(1)} |`);
    sums.set(line.tier, (sums.get(line.tier) ?? 0) + line.seconds);
  }
  for (const [tier, seconds] of sums) {
    rows.push(
      `| all ${tier} files (their sum; the tier runs them on two workers) | ${tier} | ${seconds.toFixed(1)} |`,
    );
  }
  return rows;
}

module.exports = { fileLines, timesTable };

if (require.main === module) {
  const [path] = process.argv.slice(2);
  if (path === undefined) {
    process.stderr.write("usage: node test/support/times-table.js <times.jsonl>\n");
    process.exitCode = 2;
  } else {
    process.stdout.write(`${timesTable(fileLines(readFileSync(path, "utf8"))).join("\n")}\n`);
  }
}
