/**
 * `npm run bench`: provider overhead, upload memory, scale and rate limiting, state size. Prints a
 * table per section, a summary against the targets, and one JSON line with every figure.
 * `npm run bench -- --smoke` (or BENCH_SMOKE=1) runs each section at a tiny size in well under a
 * minute and fails only when something is functionally broken (a resource missing, created twice
 * or failed, a section that cannot run), never because a figure missed its target.
 * `--only 1,4` runs the listed sections; `--no-engine` leaves out section 4's `pulumi up` runs.
 */
import { availableParallelism, cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { benchProject, type BenchProject } from "./fixture";
import {
  measureEngineScale,
  type EngineScaleMeasurement,
  type EngineScaleOptions,
  type EngineScaleResult,
} from "./engine-scale";
import { measureGrpc, type GrpcRow } from "./grpc";
import { measureInProcess, type InProcessSizes, type OverheadRow } from "./in-process";
import { measureLedgerCost, type LedgerCost } from "./ledger-cost";
import { measureUploads, type UploadRun, type UploadSet, type UploadSummary } from "./memory";
import { heading, table, type Cell } from "./report";
import { measureScale, measureScaleControls, type ScaleOptions, type ScaleResult } from "./scale";
import { measureState, type StateMeasurement } from "./serialized";
import { round } from "./stats";

const MIB = 2 ** 20;

interface Plan {
  readonly inProcess: InProcessSizes;
  readonly grpcIterations: number;
  readonly uploads: UploadSet[];
  readonly scale: ScaleOptions[];
  readonly engineScale: EngineScaleOptions[];
  readonly rateLimited: ScaleOptions[];
  readonly stateResourcesPerKind: number;
  readonly ledgerCreates: number;
}

const fullPlan: Plan = {
  inProcess: {
    jsonIterations: 1000,
    multipartIterations: 150,
    sampleBytes: MIB,
    latencyIterations: 100,
  },
  grpcIterations: 300,
  uploads: [
    { files: 4, fileMb: 256, rounds: 3, uploadsPerProcess: 1 },
    { files: 4, fileMb: 2.5, rounds: 5, uploadsPerProcess: 4 },
  ],
  scale: [
    { resources: 500, inFlight: 16, latencyMs: 20 },
    { resources: 500, inFlight: 64, latencyMs: 20 },
    // A control where the CPU is not the limit: the same calls in flight, a slower platform.
    { resources: 500, inFlight: 16, latencyMs: 200 },
  ],
  engineScale: [
    { resources: 500, parallel: 16, latencyMs: 20, skipCheckpoints: false, rounds: 3 },
    { resources: 500, parallel: 16, latencyMs: 20, skipCheckpoints: true, rounds: 3 },
    { resources: 500, parallel: 64, latencyMs: 20, skipCheckpoints: true, rounds: 3 },
  ],
  rateLimited: [
    { resources: 500, inFlight: 16, latencyMs: 20, rateLimit: 50 },
    { resources: 500, inFlight: 64, latencyMs: 20, rateLimit: 50 },
    // Harder than the target: far more calls in flight than the limit allows per second.
    { resources: 200, inFlight: 64, latencyMs: 20, rateLimit: 10 },
  ],
  stateResourcesPerKind: 2,
  ledgerCreates: 300,
};

const smokePlan: Plan = {
  inProcess: {
    jsonIterations: 30,
    multipartIterations: 6,
    sampleBytes: 64 * 1024,
    latencyIterations: 4,
  },
  grpcIterations: 8,
  uploads: [{ files: 4, fileMb: 1, rounds: 1, uploadsPerProcess: 2 }],
  scale: [
    { resources: 30, inFlight: 4, latencyMs: 20 },
    { resources: 30, inFlight: 16, latencyMs: 20 },
  ],
  engineScale: [{ resources: 30, parallel: 8, latencyMs: 20, skipCheckpoints: false, rounds: 1 }],
  rateLimited: [{ resources: 30, inFlight: 8, latencyMs: 20, rateLimit: 15 }],
  stateResourcesPerKind: 1,
  ledgerCreates: 10,
};

export const targets = {
  overheadRatio: 1.1,
  uploadGrowthMb: 64,
  uploadThroughputRatio: 0.9,
  scaleRatio: 0.9,
  rateLimitRatio: 0.9,
  /** Provider-process CPU per create over the empty handler's, in the same run. */
  cpuPerCreateRatio: 1.5,
  /** `pulumi up` of the stack over the same program with an empty dynamic provider. */
  engineUpRatio: 1.1,
  providerTextBytes: 400,
  stateBytesPerResource: 2500,
} as const;

interface Results {
  inProcess?: OverheadRow[];
  grpc?: GrpcRow[];
  uploads?: { runs: UploadRun[]; summaries: UploadSummary[] };
  scale?: ScaleResult[];
  engineScale?: EngineScaleMeasurement;
  rateLimited?: ScaleResult[];
  state?: StateMeasurement;
  ledger?: LedgerCost;
}

interface Verdict {
  readonly section: string;
  readonly measurement: string;
  readonly value: string;
  readonly target: string;
  readonly met: boolean | undefined;
}

function options() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      smoke: { type: "boolean", default: false },
      only: { type: "string" },
      "no-engine": { type: "boolean", default: false },
    },
  });
  const smoke = values.smoke || process.env.BENCH_SMOKE === "1";
  const only = values.only?.split(",").map((part) => Number(part.trim()));
  return {
    smoke,
    sections: new Set(only ?? [1, 2, 3, 4, 5, 6, 7]),
    engine: !values["no-engine"],
  };
}

function machine() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    loadAverage: loadavg().map((load) => round(load, 2)),
  };
}

function printInProcess(rows: OverheadRow[]): void {
  console.log(heading("1. Overhead in process: handler vs the same request with undici (ms)"));
  console.log(
    table(
      ["operation", "n", "provider p50", "p90", "undici p50", "p90", "ratio p50"],
      rows.map((row) => [
        row.operation,
        row.iterations,
        row.provider.median,
        row.provider.p90,
        row.direct.median,
        row.direct.p90,
        row.ratio,
      ]),
    ),
  );
}

function printLedger(cost: LedgerCost): void {
  console.log(
    heading("7. The ledger: a carrier create in process, with the folder ledger and without (ms)"),
  );
  console.log(
    table(
      ["creates", "with p50", "p90", "without p50", "p90", "added p50", "bytes per create"],
      [
        [
          cost.creates,
          cost.withLedger.median,
          cost.withLedger.p90,
          cost.without.median,
          cost.without.p90,
          cost.addedMs,
          cost.bytesPerCreate,
        ],
      ],
    ),
  );
}

function printGrpc(rows: GrpcRow[]): void {
  console.log(heading("2. Through the dynamic-provider process over gRPC (ms)"));
  console.log(
    table(
      ["resource", "operation", "n", "gRPC p50", "p90", "undici p50", "p90", "ratio p50"],
      rows.map((row) => [
        row.kind,
        row.operation,
        row.iterations,
        row.grpc.median,
        row.grpc.p90,
        row.direct?.median,
        row.direct?.p90,
        row.ratio,
      ]),
    ),
  );
  console.log("(— : the operation sends no HTTP request)");
}

function printUploads(uploads: { runs: UploadRun[]; summaries: UploadSummary[] }): void {
  console.log(heading("3. Upload memory and speed (fresh process per run)"));
  console.log(
    table(
      [
        "samples",
        "arm",
        "processes",
        "MiB/s p50",
        "vs undici",
        "MiB/s best",
        "vs undici",
        "max RSS growth MiB",
      ],
      uploads.summaries.map((row) => [
        `${row.megabytes} MiB`,
        row.arm,
        row.runs,
        row.medianMbPerSecond,
        row.throughputRatio,
        row.bestMbPerSecond,
        row.bestRatio,
        row.maxGrowthMb,
      ]),
    ),
  );
}

function printScale(title: string, results: ScaleResult[]): void {
  console.log(heading(title));
  console.log(
    table(
      [
        "resources",
        "in flight",
        "limit/s",
        "seconds",
        "created/s",
        "ideal/s",
        "ratio",
        "call p50 ms",
        "p90",
        "429s",
        "missing",
        "twice",
        "failed",
        "CPU ms/create: bench",
        "provider",
        "emulator",
        "CPU ceiling/s",
      ],
      results.map((result) => [
        result.resources,
        result.inFlight,
        result.rateLimit,
        result.seconds,
        result.throughput,
        result.ideal,
        result.ratio,
        result.callMedian,
        result.callP90,
        result.statuses["429"] ?? 0,
        result.missing,
        result.duplicated,
        result.failures.length,
        result.cpuPerCreateMs.bench,
        result.cpuPerCreateMs.provider,
        result.cpuPerCreateMs.emulator,
        cpuCeiling(result),
      ]),
    ),
  );
  for (const result of results) {
    for (const failure of result.failures.slice(0, 3)) console.log(`  failed: ${failure}`);
  }
}

function printScaleControls(results: ScaleResult[]): void {
  console.log(
    "\nControls, same creates and calls in flight: an empty handler in the same SDK process " +
      "(no HTTP); a request-only handler there (each create's request with plain undici, nothing " +
      "else); plain undici from one process (no Pulumi)",
  );
  console.log(
    table(
      [
        "in flight",
        "latency ms",
        "ideal/s",
        "provider/s",
        "ratio",
        "empty handler/s",
        "ratio",
        "plain undici/s",
        "ratio",
        "CPU ms/create: provider process",
        "empty handler",
        "ratio",
        "request-only handler",
        "ratio",
        "plain undici",
      ],
      results.map((result) => [
        result.inFlight,
        result.latencyMs,
        result.ideal,
        result.throughput,
        result.ratio,
        result.controls?.emptyHandler.throughput,
        result.controls?.emptyHandler.ratio,
        result.controls?.plainHttp.throughput,
        result.controls?.plainHttp.ratio,
        result.cpuPerCreateMs.provider,
        result.controls?.emptyHandler.cpuPerCreateMs,
        cpuRatio(result),
        result.controls?.requestOnlyHandler.cpuPerCreateMs,
        requestOnlyRatio(result),
        result.controls?.plainHttp.cpuPerCreateMs,
      ]),
    ),
  );
}

/** Provider-process CPU per create over the empty handler's. */
function cpuRatio(result: ScaleResult): number | undefined {
  const empty = result.controls?.emptyHandler.cpuPerCreateMs;
  return empty ? round(result.cpuPerCreateMs.provider / empty, 2) : undefined;
}

/** Provider-process CPU per create over the request-only handler's. */
function requestOnlyRatio(result: ScaleResult): number | undefined {
  const floor = result.controls?.requestOnlyHandler.cpuPerCreateMs;
  return floor ? round(result.cpuPerCreateMs.provider / floor, 2) : undefined;
}

/** `pulumi up` seconds over the empty provider's. */
const upRatio = (result: EngineScaleResult) =>
  round(result.upSeconds / result.emptyProviderUpSeconds, 2);

function printEngineScale(measurement: EngineScaleMeasurement): void {
  console.log(
    "\nThrough the real engine: `pulumi up --parallel N` of the same mix, file backend; medians of " +
      "the rounds, the arms in turn; controls: an empty dynamic provider, and a request-only one " +
      "(each create's request with plain undici, nothing else)",
  );
  if ("cliNote" in measurement) {
    console.log(`(skipped: ${measurement.cliNote}; \`npm run pulumi:install\` builds one)`);
    return;
  }
  console.log(
    table(
      [
        "resources",
        "parallel",
        "checkpoints",
        "up s",
        "creates s",
        "created/s",
        "ideal/s",
        "ratio",
        "missing",
        "twice",
        "plugin: up s",
        "empty provider: up s",
        "up ratio",
        "request-only provider: up s",
        "up ratio",
        "rounds (ours / empty / request-only, s)",
      ],
      measurement.results.map((result) => [
        result.resources,
        result.parallel,
        result.skipCheckpoints ? "skipped" : "every step",
        result.upSeconds,
        result.createSeconds,
        result.throughput,
        result.ideal,
        result.ratio,
        result.missing,
        result.duplicated,
        result.pluginUpSeconds,
        result.emptyProviderUpSeconds,
        upRatio(result),
        result.requestOnlyUpSeconds,
        round(result.upSeconds / result.requestOnlyUpSeconds, 2),
        result.roundSeconds.dynamic
          .map(
            (seconds, index) =>
              `${seconds}/${result.roundSeconds.empty[index]}/${result.roundSeconds.requestOnly[index]}`,
          )
          .join(", "),
      ]),
    ),
  );
  console.log(`(Pulumi CLI ${measurement.cliVersion})`);
}

/** Creates per second the machine's cores could serve at the CPU each create cost. */
function cpuCeiling(result: ScaleResult): number {
  const { bench, provider, emulator } = result.cpuPerCreateMs;
  return round((availableParallelism() * 1000) / (bench + provider + emulator), 0);
}

function printState(state: StateMeasurement): void {
  console.log(heading("6. Serialized provider and state per resource (bytes)"));
  console.log(
    table(
      [
        "resource",
        "path",
        "__provider text",
        "state per resource",
        "of which __provider ×2",
        "inputs",
        "outputs",
        "engine's",
        "secrets (in inputs and outputs)",
      ],
      state.rows.map((row) => [
        row.kind,
        row.path,
        row.providerBytes,
        row.stateBytes ?? state.cliNote,
        row.stateProviderBytes,
        row.inputsBytes,
        row.outputsBytes,
        row.stateBytes === undefined
          ? undefined
          : row.stateBytes - (row.inputsBytes ?? 0) - (row.outputsBytes ?? 0),
        row.secretsBytes,
      ]),
    ),
  );
  if (state.cliVersion !== undefined) console.log(`(pulumi stack export, CLI ${state.cliVersion})`);
}

const scaleLabel = (result: ScaleResult) =>
  `${result.resources} creates, ${result.inFlight} in flight`;

function verdicts(results: Results): Verdict[] {
  const out: Verdict[] = [];
  for (const row of results.inProcess ?? []) {
    out.push({
      section: "1 in process",
      measurement: row.operation,
      value: `${row.ratio}× (${row.provider.median} vs ${row.direct.median} ms)`,
      target: row.layer ? "report" : `≤ ${targets.overheadRatio}×`,
      met: row.layer ? undefined : row.ratio <= targets.overheadRatio,
    });
  }
  for (const row of results.grpc ?? []) {
    if (row.ratio === undefined) continue;
    out.push({
      section: "2 gRPC",
      measurement: `${row.kind} ${row.operation}`,
      value: `${row.ratio}× (${row.grpc.median} vs ${row.direct!.median} ms)`,
      target: "report",
      met: undefined,
    });
  }
  for (const row of results.uploads?.summaries ?? []) {
    if (row.arm === "undici") continue;
    out.push({
      section: "3 upload",
      measurement: `${row.arm}, ${row.megabytes} MiB: RSS growth`,
      value: `${row.maxGrowthMb} MiB`,
      target: `< ${targets.uploadGrowthMb} MiB`,
      met: row.maxGrowthMb < targets.uploadGrowthMb,
    });
    out.push({
      section: "3 upload",
      measurement: `${row.arm}, ${row.megabytes} MiB: speed vs undici`,
      value: `${row.throughputRatio}× (${row.medianMbPerSecond} MiB/s; best ${row.bestRatio}×)`,
      target: row.arm === "provider" ? `≥ ${targets.uploadThroughputRatio}×` : "report",
      met:
        row.arm === "provider" ? row.throughputRatio >= targets.uploadThroughputRatio : undefined,
    });
  }
  for (const result of results.scale ?? []) {
    out.push({
      section: "4 scale",
      measurement: `${scaleLabel(result)}, ${result.latencyMs} ms`,
      value:
        `${result.ratio}× (${result.throughput}/s of ${result.ideal}/s)` +
        (result.controls
          ? `; empty handler ${result.controls.emptyHandler.ratio}×, plain undici ${result.controls.plainHttp.ratio}×`
          : ""),
      target: `≥ ${targets.scaleRatio}×`,
      met: result.ratio >= targets.scaleRatio,
    });
    const ratio = cpuRatio(result);
    if (ratio !== undefined) {
      out.push({
        section: "4 scale",
        measurement: `${scaleLabel(result)}, ${result.latencyMs} ms: provider CPU per create`,
        value:
          `${ratio}× the empty handler's (${result.cpuPerCreateMs.provider} vs ` +
          `${result.controls!.emptyHandler.cpuPerCreateMs} ms); ${requestOnlyRatio(result)}× ` +
          `the request-only handler's (${result.controls!.requestOnlyHandler.cpuPerCreateMs} ms)`,
        target: `≤ ${targets.cpuPerCreateRatio}×`,
        met: ratio <= targets.cpuPerCreateRatio,
      });
    }
  }
  for (const result of results.engineScale?.results ?? []) {
    out.push({
      section: "4 scale",
      measurement: `pulumi up of ${result.resources}, --parallel ${result.parallel}, checkpoints ${
        result.skipCheckpoints ? "skipped" : "on"
      }`,
      value:
        `${upRatio(result)}× the empty provider's (${result.upSeconds} vs ` +
        `${result.emptyProviderUpSeconds} s; plugin ${result.pluginUpSeconds} s); ` +
        `${round(result.upSeconds / result.requestOnlyUpSeconds, 2)}× the request-only ` +
        `provider's (${result.requestOnlyUpSeconds} s)`,
      target: `≤ ${targets.engineUpRatio}×`,
      met: upRatio(result) <= targets.engineUpRatio,
    });
    out.push({
      section: "4 scale",
      measurement: `the plugin's pulumi up of ${result.resources}, --parallel ${result.parallel}, checkpoints ${
        result.skipCheckpoints ? "skipped" : "on"
      }`,
      value: `${result.pluginUpSeconds} s vs the empty dynamic provider's ${result.emptyProviderUpSeconds} s`,
      target: "no slower than the empty dynamic provider",
      met: result.pluginUpSeconds <= result.emptyProviderUpSeconds,
    });
  }
  for (const result of results.rateLimited ?? []) {
    const label = `${scaleLabel(result)}, ${result.rateLimit}/s`;
    const twice = `${result.duplicated} twice`;
    out.push({
      section: "5 rate limit",
      measurement: `${label}: each created once`,
      value: `${result.resources - result.missing} of ${result.resources}, ${twice}`,
      target: "all, none twice",
      met: result.missing === 0 && result.duplicated === 0 && result.failures.length === 0,
    });
    out.push({
      section: "5 rate limit",
      measurement: `${label}: throughput`,
      value: `${result.ratio}× (${result.throughput}/s)`,
      target: `≥ ${targets.rateLimitRatio}×`,
      met: result.ratio >= targets.rateLimitRatio,
    });
  }
  for (const row of results.state?.rows ?? []) {
    out.push({
      section: "6 state",
      measurement: `${row.kind} (${row.path}): __provider text`,
      value: `${row.providerBytes} B`,
      target: row.path === "dynamic" ? `≤ ${targets.providerTextBytes} B` : "none stored",
      met: row.path === "dynamic" ? row.providerBytes <= targets.providerTextBytes : true,
    });
    out.push({
      section: "6 state",
      measurement: `${row.kind} (${row.path}): state per resource`,
      value:
        row.stateBytes === undefined
          ? `${results.state?.cliNote}`
          : `${row.stateBytes} B (${row.stateProviderBytes} B of __provider)`,
      target: `≤ ${targets.stateBytesPerResource} B`,
      met:
        row.stateBytes === undefined ? undefined : row.stateBytes <= targets.stateBytesPerResource,
    });
  }
  return out;
}

/** What makes the run fail: broken behaviour, never a missed target. */
function functionalProblems(results: Results): string[] {
  const problems: string[] = [];
  if (results.ledger !== undefined && results.ledger.bytesPerCreate === 0)
    problems.push("the ledger wrote nothing for its creates");
  for (const result of [...(results.scale ?? []), ...(results.rateLimited ?? [])]) {
    const label = `${result.resources} creates with ${result.inFlight} in flight${
      result.rateLimit === undefined ? "" : ` at ${result.rateLimit}/s`
    }`;
    if (result.failures.length > 0) problems.push(`${label}: ${result.failures.length} failed`);
    if (result.missing > 0) problems.push(`${label}: ${result.missing} missing on the platform`);
    if (result.duplicated > 0) problems.push(`${label}: ${result.duplicated} created twice`);
  }
  for (const result of results.engineScale?.results ?? []) {
    const label = `pulumi up of ${result.resources} with --parallel ${result.parallel}`;
    if (result.missing > 0) problems.push(`${label}: ${result.missing} missing on the platform`);
    if (result.duplicated > 0) problems.push(`${label}: ${result.duplicated} created twice`);
    if (result.pluginMissing > 0) {
      problems.push(`${label} through the plugin: ${result.pluginMissing} missing on the platform`);
    }
    if (result.pluginDuplicated > 0) {
      problems.push(`${label} through the plugin: ${result.pluginDuplicated} created twice`);
    }
  }
  return problems;
}

async function main(): Promise<void> {
  const { smoke, sections, engine } = options();
  const plan = smoke ? smokePlan : fullPlan;
  const before = machine();
  console.log(
    `pulumi-voice-platform benchmarks${smoke ? " (smoke)" : ""}: node ${before.node}, ` +
      `${before.cores} cores (${before.cpu}), load average ${before.loadAverage.join(" ")}`,
  );
  const results: Results = {};
  const problems: string[] = [];
  const sectionSeconds: Record<number, number> = {};
  const started = performance.now();
  let project: BenchProject | undefined;
  const needsProject = [2, 3, 4, 5, 6].some((section) => sections.has(section));
  try {
    if (needsProject) project = await benchProject();
    const attempt = async (section: number, work: () => Promise<void>) => {
      if (!sections.has(section)) return;
      const sectionStart = performance.now();
      try {
        await work();
      } catch (error) {
        problems.push(`section ${section} could not run: ${(error as Error).stack ?? error}`);
      }
      sectionSeconds[section] = round((performance.now() - sectionStart) / 1000, 1);
      console.log(`(section ${section}: ${sectionSeconds[section]} s)`);
    };
    await attempt(1, async () => {
      results.inProcess = await measureInProcess(plan.inProcess);
      printInProcess(results.inProcess);
    });
    await attempt(2, async () => {
      results.grpc = await measureGrpc(plan.grpcIterations, project);
      printGrpc(results.grpc);
    });
    await attempt(3, async () => {
      results.uploads = await measureUploads(project!, plan.uploads);
      printUploads(results.uploads);
    });
    await attempt(4, async () => {
      results.scale = [];
      for (const run of plan.scale) {
        const result = await measureScale(project!, run);
        results.scale.push({ ...result, controls: await measureScaleControls(project!, run) });
      }
      printScale(
        "4. Scale: creates through one provider process, emulator at 20 ms",
        results.scale,
      );
      printScaleControls(results.scale);
      if (engine) {
        results.engineScale = await measureEngineScale(project!, plan.engineScale);
        printEngineScale(results.engineScale);
      }
    });
    await attempt(5, async () => {
      results.rateLimited = [];
      for (const run of plan.rateLimited) {
        results.rateLimited.push(await measureScale(project!, run));
      }
      printScale("5. Rate limit: the same creates against a limited emulator", results.rateLimited);
    });
    await attempt(6, async () => {
      results.state = await measureState(project!, plan.stateResourcesPerKind);
      printState(results.state);
    });
    await attempt(7, async () => {
      results.ledger = await measureLedgerCost(plan.ledgerCreates);
      printLedger(results.ledger);
    });
  } finally {
    await project?.remove();
  }
  problems.push(...functionalProblems(results));
  const summary = verdicts(results);
  console.log(heading("Summary against the targets"));
  console.log(
    table(
      ["section", "measurement", "value", "target", "met"],
      summary.map((v): Cell[] => [v.section, v.measurement, v.value, v.target, v.met]),
    ),
  );
  const seconds = round((performance.now() - started) / 1000, 1);
  console.log(`\n${problems.length === 0 ? "OK" : "FAILED"} in ${seconds} s`);
  for (const problem of problems) console.log(`problem: ${problem}`);
  console.log(
    JSON.stringify({
      bench: "pulumi-voice-platform",
      mode: smoke ? "smoke" : "full",
      machine: { ...before, loadAverageAfter: loadavg().map((load) => round(load, 2)) },
      seconds,
      sectionSeconds,
      targets,
      results,
      problems,
    }),
  );
  if (problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
