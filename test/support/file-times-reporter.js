/**
 * A jest reporter that prints the ten slowest test files of the run, and appends every file's time
 * to the file named by VOICEPLATFORM_TEST_TIMES (one JSON line each), so `.ci/run` can print the
 * ten slowest of all tiers at its end. Plain JavaScript: jest loads reporters without a transform.
 */
const { appendFileSync } = require("node:fs");
const { relative } = require("node:path");

class FileTimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.times = [];
  }

  onTestResult(test, result) {
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    const file = relative(this.rootDir, test.path);
    const tier = test.context.config.displayName?.name ?? "";
    this.times.push({ file, tier, seconds, failed: result.numFailingTests });
  }

  onRunComplete() {
    if (this.times.length === 0) return;
    const output = process.env.VOICEPLATFORM_TEST_TIMES;
    if (output) appendFileSync(output, this.times.map((t) => JSON.stringify(t) + "\n").join(""));
    const slowest = [...this.times].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const lines = slowest.map((t) => `  ${t.seconds.toFixed(1).padStart(7)} s  ${t.file}`);
    process.stderr.write(`\nSlowest test files of this run:\n${lines.join("\n")}\n`);
  }
}

module.exports = FileTimesReporter;
