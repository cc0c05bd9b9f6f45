/**
 * Section 4 through the real engine: `pulumi up --parallel N` of a program declaring the same mix
 * of resources, against the emulator at the same latency, with the Pulumi CLI: once with the
 * dynamic resources, once with the plugin's resources (the generated SDK and
 * `pulumi-resource-voiceplatform` from the package's bin). Two controls run the same program:
 * with an empty dynamic provider in place of this package (the engine, the language host, the
 * program and the SDK's provider process alone), and with a request-only dynamic provider that
 * sends each create's request with plain undici and nothing else (the floor of any provider that
 * calls the platform). The four arms run in turn, `rounds` times, the order rotating each round;
 * the figures are medians, and each round's ratios are kept.
 */
import { delimiter } from "node:path";
import { locatePulumi } from "../pulumi-cli/locate";
import { startEmulatorProcess } from "./emulator-process";
import { pluginEnv, resourceModules, type BenchProject } from "./fixture";
import { pulumiStack } from "./pulumi-stack";
import {
  countObjects,
  installRequestOnlyProvider,
  planStack,
  REQUEST_ONLY_PACKAGE,
  type Planned,
} from "./scale";
import { median, round, since } from "./stats";

export interface EngineScaleOptions {
  readonly resources: number;
  readonly parallel: number;
  readonly latencyMs: number;
  /**
   * PULUMI_SKIP_CHECKPOINTS: the engine no longer rewrites the whole state after every step.
   * Measured to show what that costs, not recommended: see docs/operations.md, "Large stacks".
   */
  readonly skipCheckpoints: boolean;
  /** How many times each arm runs. */
  readonly rounds: number;
}

export interface EngineScaleResult extends EngineScaleOptions {
  /** The whole `pulumi up`, CLI start to exit (median of the rounds). */
  readonly upSeconds: number;
  /** From the first create the emulator received to the last one, plus one latency. */
  readonly createSeconds: number;
  /** Creates per second over that span. */
  readonly throughput: number;
  /** parallel / latency. */
  readonly ideal: number;
  readonly ratio: number;
  readonly missing: number;
  readonly duplicated: number;
  /** The same `pulumi up` with an empty dynamic provider. */
  readonly emptyProviderUpSeconds: number;
  /** The same `pulumi up` with the request-only dynamic provider. */
  readonly requestOnlyUpSeconds: number;
  /** The same `pulumi up` through the plugin. */
  readonly pluginUpSeconds: number;
  readonly pluginMissing: number;
  readonly pluginDuplicated: number;
  /** Each round's seconds, per arm, in the order run. */
  readonly roundSeconds: Record<Arm, number[]>;
}

/** Which resources the program declares. */
export type Arm = "dynamic" | "plugin" | "empty" | "requestOnly";

const arms: readonly Arm[] = ["dynamic", "plugin", "empty", "requestOnly"];

export type EngineScaleMeasurement =
  | { readonly results: EngineScaleResult[]; readonly cliVersion: string }
  | { readonly results: []; readonly cliNote: string };

/**
 * A program declaring the planned resources: this package's classes, the plugin's SDK, or each
 * as a dynamic resource of one of the controls.
 */
function program(plan: readonly Planned[], arm: Arm): string {
  const declare = {
    dynamic: `new (require(${JSON.stringify(resourceModules.dynamic)})[kind])(name, inputs);`,
    plugin: `new (require(${JSON.stringify(resourceModules.plugin)})[kind])(name, inputs);`,
    empty: 'new pulumi.dynamic.Resource(empty, name, inputs, undefined, "bench", kind);',
    requestOnly: `new pulumi.dynamic.Resource(require(${JSON.stringify(REQUEST_ONLY_PACKAGE)}), name, inputs, undefined, "bench", kind);`,
  }[arm];
  return `"use strict";
const pulumi = require("@pulumi/pulumi");
const plan = ${JSON.stringify(plan.map(({ kind, name, inputs }) => ({ kind, name, inputs })))};
const empty = { async create(inputs) { return { id: "empty-" + Math.random().toString(36).slice(2), outs: inputs }; } };
for (const { kind, name, inputs } of plan) {
  if (inputs.registerPassword) inputs.registerPassword = pulumi.secret(inputs.registerPassword);
  ${declare}
}
`;
}

export interface UpRun {
  readonly seconds: number;
  /** When the emulator received each successful create. */
  readonly creates: number[];
  readonly census: ReturnType<typeof countObjects>;
}

/**
 * One `pulumi up` of the arm against a fresh emulator and stack. `pluginDir`, for the plugin arm:
 * a folder put on PATH before the project's node_modules/.bin (another plugin binary, or a
 * wrapper that counts or profiles it).
 */
export async function engineUp(
  project: BenchProject,
  options: EngineScaleOptions,
  arm: Arm,
  pluginDir?: string,
): Promise<UpRun> {
  const emulator = await startEmulatorProcess({ latencyMs: options.latencyMs });
  try {
    const plan = planStack(project, options.resources);
    if (arm === "requestOnly") await installRequestOnlyProvider(project, emulator, plan);
    const stack = await pulumiStack(project, emulator, program(plan, arm), {
      ...(arm !== "plugin"
        ? {}
        : pluginDir === undefined
          ? pluginEnv(project)
          : { PATH: `${pluginDir}${delimiter}${pluginEnv(project).PATH}` }),
      ...(options.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    });
    try {
      const started = performance.now();
      // --skip-preview because the bench times the update's creates alone, arm against arm.
      await stack.pulumi("up", "--yes", "--skip-preview", "--parallel", String(options.parallel));
      const seconds = since(started) / 1000;
      const creates = (await emulator.requests())
        .filter((entry) => entry.method === "POST" && entry.status !== null && entry.status < 300)
        .map((entry) => Date.parse(entry.receivedAt));
      return { seconds, creates, census: countObjects(await emulator.state(), plan) };
    } finally {
      await stack.remove();
    }
  } finally {
    await emulator.stop();
  }
}

export async function measureEngineScale(
  project: BenchProject,
  runs: readonly EngineScaleOptions[],
): Promise<EngineScaleMeasurement> {
  const cli = locatePulumi();
  if (cli === undefined) return { results: [], cliNote: "CLI not available" };
  const results: EngineScaleResult[] = [];
  for (const options of runs) {
    const runsOf = Object.fromEntries(arms.map((arm) => [arm, [] as UpRun[]])) as Record<
      Arm,
      UpRun[]
    >;
    for (let round = 0; round < options.rounds; round++) {
      for (let turn = 0; turn < arms.length; turn++) {
        const arm = arms[(turn + round) % arms.length]!;
        runsOf[arm].push(await engineUp(project, options, arm));
      }
    }
    const seconds = (arm: Arm) => runsOf[arm].map((run) => run.seconds);
    const throughputs = runsOf.dynamic.map((run) => {
      const createSeconds =
        (Math.max(...run.creates) - Math.min(...run.creates) + options.latencyMs) / 1000;
      return { createSeconds, throughput: run.creates.length / createSeconds };
    });
    const ideal = options.parallel / (options.latencyMs / 1000);
    const throughput = median(throughputs.map((t) => t.throughput));
    const worst = (arm: Arm, key: "missing" | "duplicated") =>
      Math.max(...runsOf[arm].map((run) => run.census[key]));
    results.push({
      ...options,
      upSeconds: round(median(seconds("dynamic")), 2),
      createSeconds: round(median(throughputs.map((t) => t.createSeconds)), 2),
      throughput: round(throughput, 1),
      ideal,
      ratio: round(throughput / ideal),
      missing: worst("dynamic", "missing"),
      duplicated: worst("dynamic", "duplicated"),
      emptyProviderUpSeconds: round(median(seconds("empty")), 2),
      requestOnlyUpSeconds: round(median(seconds("requestOnly")), 2),
      pluginUpSeconds: round(median(seconds("plugin")), 2),
      pluginMissing: worst("plugin", "missing"),
      pluginDuplicated: worst("plugin", "duplicated"),
      roundSeconds: Object.fromEntries(
        arms.map((arm) => [arm, seconds(arm).map((value) => round(value, 2))]),
      ) as Record<Arm, number[]>,
    });
  }
  return { results, cliVersion: cli.version };
}
