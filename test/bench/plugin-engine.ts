/**
 * `npm run bench:plugin-engine`: section 4's `pulumi up` arms through the engine (issue 20: the
 * plugin no slower than the dynamic path, with and without checkpoints), chosen arms only, with
 * one extra plugin run per checkpoint mode under `--cpu-prof` (the plugin process alone, through
 * a wrapper on PATH), not counted in the medians. Prints each run, medians, the plugin over the
 * dynamic path and over the empty provider, and the profile's self time by layer. The arm
 * "floor" runs the plugin's program with the Go floor (go-floor.ts) as the plugin: what the same
 * `pulumi up` costs with a provider that does nothing (it creates nothing on the emulator, so its
 * census is not counted).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { locatePulumi } from "../pulumi-cli/locate";
import { formatSummary, profilesIn, summarizeProfiles, type ProfileSummary } from "./cpu-profile";
import { engineUp, type Arm, type EngineScaleOptions, type UpRun } from "./engine-scale";
import { benchProject } from "./fixture";
import { goFloorProvider } from "./go-floor";
import { wrapPlugin } from "./plugin-binaries";
import { median, round } from "./stats";

const { values } = parseArgs({
  options: {
    resources: { type: "string", default: "500" },
    parallel: { type: "string", default: "16" },
    rounds: { type: "string", default: "1" },
    arms: { type: "string", default: "dynamic,plugin,empty,floor" },
    checkpoints: { type: "string", default: "both" },
    "no-profile": { type: "boolean", default: false },
  },
});
type BenchArm = Arm | "floor";
const arms = values.arms.split(",") as BenchArm[];
const modes = { both: [false, true], on: [false], off: [true] }[values.checkpoints];
if (modes === undefined) throw new Error("--checkpoints is both, on or off");

async function main(): Promise<void> {
  const cli = locatePulumi();
  if (cli === undefined) throw new Error("no Pulumi CLI: run `npm run pulumi:install`");
  const project = await benchProject();
  const scratch = await mkdtemp(join(tmpdir(), "voiceplatform-bench-plugin-engine-"));
  const rows = [];
  const floorDir = join(scratch, "floor");
  if (arms.includes("floor")) await wrapPlugin(floorDir, await goFloorProvider());
  try {
    for (const skipCheckpoints of modes!) {
      const options: EngineScaleOptions = {
        resources: Number(values.resources),
        parallel: Number(values.parallel),
        latencyMs: 20,
        skipCheckpoints,
        rounds: Number(values.rounds),
      };
      const mode = skipCheckpoints ? "skipped" : "every step";
      let profile: ProfileSummary | undefined;
      if (!values["no-profile"] && arms.includes("plugin")) {
        const dir = join(scratch, `profile-${skipCheckpoints ? "skip" : "checkpoints"}`);
        // The plugin's modules unbundled (dist/provider/plugin/main.js), so that the profile
        // names the package each function belongs to; the bin runs the same code as one bundle.
        const wrapper = await wrapPlugin(
          join(dir, "bin"),
          join(
            project.dir,
            "node_modules",
            "pulumi-voice-platform",
            "dist",
            "provider",
            "plugin",
            "main.js",
          ),
          { cpuProfileDir: join(dir, "profiles") },
        );
        const run = await engineUp(project, options, "plugin", wrapper.dir);
        profile = summarizeProfiles(profilesIn(join(dir, "profiles")));
        process.stdout.write(
          `profiled plugin run, checkpoints ${mode}: ${round(run.seconds, 2)} s, ` +
            `${await wrapper.starts()} plugin process(es)\n${formatSummary(profile)}\n`,
        );
      }
      const runs = Object.fromEntries(arms.map((arm) => [arm, [] as UpRun[]]));
      for (let pass = 0; pass < options.rounds; pass++) {
        for (let turn = 0; turn < arms.length; turn++) {
          const arm = arms[(turn + pass) % arms.length]!;
          const run =
            arm === "floor"
              ? await engineUp(project, options, "plugin", floorDir)
              : await engineUp(project, options, arm);
          runs[arm]!.push(run);
          process.stdout.write(
            `checkpoints ${mode}, round ${pass + 1}, ${arm}: ${round(run.seconds, 2)} s` +
              (arm === "floor"
                ? "\n"
                : `, missing ${run.census.missing}, twice ${run.census.duplicated}\n`),
          );
        }
      }
      const seconds = Object.fromEntries(
        arms.map((arm) => [arm, round(median(runs[arm]!.map((run) => run.seconds)), 2)]),
      );
      rows.push({ ...options, seconds, rounds: runs, profile });
      process.stdout.write(
        `checkpoints ${mode}: medians ${JSON.stringify(seconds)}` +
          (seconds.plugin !== undefined && seconds.dynamic !== undefined
            ? `; plugin / dynamic ${round(seconds.plugin / seconds.dynamic, 2)}`
            : "") +
          (seconds.plugin !== undefined && seconds.empty !== undefined
            ? `; plugin / empty ${round(seconds.plugin / seconds.empty, 2)}`
            : "") +
          (seconds.plugin !== undefined && seconds.floor !== undefined
            ? `; plugin / Go floor ${round(seconds.plugin / seconds.floor, 2)}`
            : "") +
          "\n",
      );
    }
    process.stdout.write(
      `${JSON.stringify({
        cliVersion: cli.version,
        rows: rows.map((row) => ({
          ...row,
          rounds: Object.fromEntries(
            Object.entries(row.rounds).map(([arm, list]) => [
              arm,
              list.map((run) => round(run.seconds, 2)),
            ]),
          ),
        })),
      })}\n`,
    );
  } finally {
    await project.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
