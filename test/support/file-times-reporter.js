/**
 * A jest reporter that prints the ten slowest test files of the run, and appends every file's time
 * to the file named by VOICEPLATFORM_TEST_TIMES (one JSON line each), plus one line for the run's
 * wall time, so `.ci/run` can print the tiers' times and the ten slowest files of all tiers at its
 * end, and hold each tier to its budget (test/support/tier-budgets.js). VOICEPLATFORM_TEST_LANE,
 * when set, names the run's lane in its line. Plain JavaScript: jest loads reporters without a transform.
 *
 * When jest runs the files in its own process (one worker), each file's line also holds the CPU
 * seconds it used, its child processes included (the Pulumi CLI, language hosts, providers): a file
 * whose CPU is far below its wall time spends it waiting, which a second worker can overlap.
 */
const { appendFileSync, readFileSync } = require("node:fs");
const { relative } = require("node:path");

/** CPU seconds of this process and of its children that have ended (Linux only). */
function cpuSeconds() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // cutime and cstime, fields 16 and 17 of proc(5), in clock ticks (100 per second on Linux).
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
  return (own.user + own.system) / 1e6 + children;
}

class FileTimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.inBand = globalConfig.runInBand === true || globalConfig.maxWorkers <= 1;
    this.times = [];
    this.cpuAtStart = new Map();
    this.startedAt = Date.now();
  }

  onRunStart() {
    this.startedAt = Date.now();
  }

  onTestStart(test) {
    if (this.inBand) this.cpuAtStart.set(test.path, cpuSeconds());
  }

  onTestResult(test, result) {
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    const file = relative(this.rootDir, test.path);
    const tier = test.context.config.displayName?.name ?? "";
    const entry = { file, tier, seconds, failed: result.numFailingTests };
    if (process.env.VOICEPLATFORM_TEST_LANE) entry.lane = process.env.VOICEPLATFORM_TEST_LANE;
    const before = this.cpuAtStart.get(test.path);
    const after = before === undefined ? undefined : cpuSeconds();
    if (after !== undefined) entry.cpuSeconds = Math.round((after - before) * 10) / 10;
    this.times.push(entry);
  }

  onRunComplete() {
    if (this.times.length === 0) return;
    const tiers = [...new Set(this.times.map((t) => t.tier))];
    const run = { run: tiers.join("+"), seconds: (Date.now() - this.startedAt) / 1000 };
    // A lane (.ci/run's Node 22 rerun of the engine tier's e2e files) is budgeted on its own.
    const lane = process.env.VOICEPLATFORM_TEST_LANE;
    if (lane) run.lane = lane;
    const output = process.env.VOICEPLATFORM_TEST_TIMES;
    if (output) {
      const lines = [...this.times, run].map((t) => JSON.stringify(t) + "\n");
      appendFileSync(output, lines.join(""));
    }
    const slowest = [...this.times].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const lines = slowest.map((t) => {
      const cpu = t.cpuSeconds === undefined ? "" : ` (cpu ${t.cpuSeconds.toFixed(0)} s)`;
      return `  ${t.seconds.toFixed(1).padStart(7)} s  ${t.file}${cpu}`;
    });
    process.stderr.write(
      `\nSlowest test files of this run (${run.seconds.toFixed(0)} s in all):\n${lines.join("\n")}\n`,
    );
  }
}

module.exports = FileTimesReporter;
