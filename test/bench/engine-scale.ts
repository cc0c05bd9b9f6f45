/**
 * Section 4 through the real engine: `pulumi up --parallel N` of a program declaring the same mix
 * of resources, against the emulator at the same latency, with the Pulumi CLI: once with the
 * dynamic resources, once with the plugin's resources (the generated SDK and
 * `pulumi-resource-voiceplatform` from the package's bin). The control is the same program with
 * an empty dynamic provider in place of this package (the engine, the language host, the program
 * and the SDK's provider process alone).
 */
import { locatePulumi } from "../pulumi-cli/locate";
import { startEmulatorProcess } from "./emulator-process";
import { pluginEnv, resourceModules, type BenchProject } from "./fixture";
import { pulumiStack } from "./pulumi-stack";
import { countObjects, planStack, type Planned } from "./scale";
import { round, since } from "./stats";

export interface EngineScaleOptions {
  readonly resources: number;
  readonly parallel: number;
  readonly latencyMs: number;
  /**
   * PULUMI_SKIP_CHECKPOINTS: the engine no longer rewrites the whole state after every step.
   * Measured to show what that costs, not recommended: see the README on large stacks.
   */
  readonly skipCheckpoints: boolean;
}

export interface EngineScaleResult extends EngineScaleOptions {
  /** The whole `pulumi up`, CLI start to exit. */
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
  /** The same `pulumi up` through the plugin. */
  readonly pluginUpSeconds: number;
  readonly pluginMissing: number;
  readonly pluginDuplicated: number;
}

/** Which resources the program declares. */
type Arm = "dynamic" | "plugin" | "empty";

export type EngineScaleMeasurement =
  | { readonly results: EngineScaleResult[]; readonly cliVersion: string }
  | { readonly results: []; readonly cliNote: string };

/** A program declaring the planned resources; with "empty", each as an empty dynamic resource. */
function program(plan: readonly Planned[], arm: Arm): string {
  const empty = arm === "empty";
  return `"use strict";
const pulumi = require("@pulumi/pulumi");
const voicePlatform = require(${JSON.stringify(resourceModules[arm === "plugin" ? "plugin" : "dynamic"])});
const plan = ${JSON.stringify(plan.map(({ kind, name, inputs }) => ({ kind, name, inputs })))};
const empty = { async create(inputs) { return { id: "empty-" + Math.random().toString(36).slice(2), outs: inputs }; } };
for (const { kind, name, inputs } of plan) {
  if (inputs.registerPassword) inputs.registerPassword = pulumi.secret(inputs.registerPassword);
  ${empty ? 'new pulumi.dynamic.Resource(empty, name, inputs, undefined, "bench", kind);' : "new voicePlatform[kind](name, inputs);"}
}
`;
}

async function up(
  project: BenchProject,
  options: EngineScaleOptions,
  arm: Arm,
): Promise<{ seconds: number; creates: number[]; census: ReturnType<typeof countObjects> }> {
  const emulator = await startEmulatorProcess({ latencyMs: options.latencyMs });
  try {
    const plan = planStack(project, options.resources);
    const stack = await pulumiStack(project, emulator, program(plan, arm), {
      ...(arm === "plugin" ? pluginEnv(project) : {}),
      ...(options.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
    });
    try {
      const started = performance.now();
      await stack.pulumi("up", "--yes", "--skip-preview", "--parallel", String(options.parallel));
      const seconds = since(started) / 1000;
      const creates = (await emulator.client.requests())
        .filter((entry) => entry.method === "POST" && entry.status !== null && entry.status < 300)
        .map((entry) => Date.parse(entry.receivedAt));
      return { seconds, creates, census: countObjects(await emulator.client.state(), plan) };
    } finally {
      await stack.remove();
    }
  } finally {
    await emulator.close();
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
    const measured = await up(project, options, "dynamic");
    const plugin = await up(project, options, "plugin");
    const control = await up(project, options, "empty");
    const first = Math.min(...measured.creates);
    const last = Math.max(...measured.creates);
    const createSeconds = (last - first + options.latencyMs) / 1000;
    const throughput = measured.creates.length / createSeconds;
    const ideal = options.parallel / (options.latencyMs / 1000);
    results.push({
      ...options,
      upSeconds: round(measured.seconds, 2),
      createSeconds: round(createSeconds, 2),
      throughput: round(throughput, 1),
      ideal,
      ratio: round(throughput / ideal),
      missing: measured.census.missing,
      duplicated: measured.census.duplicated,
      emptyProviderUpSeconds: round(control.seconds, 2),
      pluginUpSeconds: round(plugin.seconds, 2),
      pluginMissing: plugin.census.missing,
      pluginDuplicated: plugin.census.duplicated,
    });
  }
  return { results, cliVersion: cli.version };
}
