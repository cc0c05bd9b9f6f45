/**
 * `npm run bench:providers`: `pulumi preview` of one program declaring 1 and 20 explicit
 * `voiceplatform` providers (issue 20: 20 providers within 2× the time of 1). The program uses the
 * plugin's generated Node.js SDK; the same 20 SipCarriers are spread round-robin over the
 * providers, so only the number of providers changes. The engine starts one plugin process per
 * provider; a wrapper on PATH counts them. Each plugin binary is measured: the plugin JS from the
 * package (node_modules/.bin, as section 4's plugin arm runs it) and, unless `--no-archive`, this
 * platform's release archive (the Node.js single executable), and the Go floor (go-floor.ts: a
 * do-nothing provider on Pulumi's provider.Main answering the same schema), so each figure also
 * reads as "× the Go floor" at the same number of providers. `--plugin NAME=EXECUTABLE` (repeated)
 * adds another build, e.g. the one before a change. Interleaved rounds, medians, with the
 * plugin's spawn-to-port-line time from the same rounds for context. Unless `--no-npm`, the plugin
 * as `npm install pulumi-voice-platform` installs it too (npm-installed.ts): the package with this
 * platform's native package, packed as a release packs them, its node_modules/.bin on PATH (issue
 * 39: within 1.5× of one provider and 1.25× of the Go floor). Plain preview: the
 * platform is never called. `--profile` adds, per plugin but the floor, one preview with the most
 * providers and every plugin process under `--cpu-prof` (not in the medians), and prints their
 * self time by layer (a single executable's bundle is one layer: its snapshot's script).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { PLUGIN_NAME } from "../../provider/release/plugin-archive";
import { SHARED_SERVER_NAME } from "../../provider/release/shared-launcher";
import { locatePulumi } from "../pulumi-cli/locate";
import { formatSummary, profilesIn, summarizeProfiles } from "./cpu-profile";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";
import { benchProject, pluginEnv, resourceModules, type BenchProject } from "./fixture";
import { goFloorProvider } from "./go-floor";
import { npmInstalledPlugin } from "./npm-installed";
import { hostArchive, timeToFirstLine, wrapPlugin, type PluginWrapper } from "./plugin-binaries";
import { pulumiStack } from "./pulumi-stack";
import { inputsFor } from "./resources";
import { median, round, since } from "./stats";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    providers: { type: "string", default: "1,20" },
    resources: { type: "string", default: "20" },
    "no-archive": { type: "boolean", default: false },
    "no-npm": { type: "boolean", default: false },
    "no-floor": { type: "boolean", default: false },
    plugin: { type: "string", multiple: true, default: [] },
    profile: { type: "boolean", default: false },
  },
});
const FLOOR = "Go floor";
const NPM_ARM = "npm package (its bin, the native package)";
const ROUNDS = Number(values.rounds);
const COUNTS = values.providers.split(",").map(Number);
const RESOURCES = Number(values.resources);

/** N providers, each with the emulator's addresses and key; the carriers spread over them. */
function program(emulator: EmulatorProcess, providers: number): string {
  const carriers = Array.from({ length: RESOURCES }, (_, index) => ({
    name: `carrier-${index}`,
    inputs: inputsFor("SipCarrier", index, []),
  }));
  return `"use strict";
const pulumi = require("@pulumi/pulumi");
const vp = require(${JSON.stringify(resourceModules.plugin)});
const settings = ${JSON.stringify({
    baseUrl: emulator.baseUrl,
    campaignsBaseUrl: emulator.campaignsBaseUrl,
    apiKey: emulator.apiKey,
  })};
const providers = Array.from({ length: ${providers} }, (_, i) => new vp.Provider("vp-" + i, settings));
const carriers = ${JSON.stringify(carriers)};
carriers.forEach(({ name, inputs }, i) => {
  if (inputs.registerPassword) inputs.registerPassword = pulumi.secret(inputs.registerPassword);
  new vp.SipCarrier(name, inputs, { provider: providers[i % providers.length] });
});
`;
}

interface Binary {
  readonly name: string;
  /** What the engine runs, and what the start timing spawns. */
  readonly real: string;
  readonly wrapper: PluginWrapper;
}

interface Preview {
  readonly seconds: number;
  readonly pluginStarts: number;
}

async function preview(
  project: BenchProject,
  emulator: EmulatorProcess,
  binary: Binary,
  providers: number,
): Promise<Preview> {
  const env = { PATH: `${binary.wrapper.dir}${delimiter}${pluginEnv(project).PATH}` };
  const stack = await pulumiStack(project, emulator, program(emulator, providers), env);
  try {
    const before = await binary.wrapper.starts();
    const started = performance.now();
    await stack.pulumi("preview");
    const seconds = since(started) / 1000;
    return { seconds, pluginStarts: (await binary.wrapper.starts()) - before };
  } finally {
    await stack.remove();
  }
}

async function main(): Promise<void> {
  const cli = locatePulumi();
  if (cli === undefined) throw new Error("no Pulumi CLI: run `npm run pulumi:install`");
  const scratch = await mkdtemp(join(tmpdir(), "voiceplatform-bench-providers-"));
  const project = await benchProject();
  const emulator = await startEmulatorProcess();
  try {
    const jsPlugin = join(project.dir, "node_modules", ".bin", PLUGIN_NAME);
    const binaries: Binary[] = [
      {
        name: "plugin JS (package)",
        real: jsPlugin,
        wrapper: await wrapPlugin(join(scratch, "js"), jsPlugin),
      },
    ];
    const built = performance.now();
    const archive =
      values["no-archive"] && values["no-npm"]
        ? undefined
        : await hostArchive("sea", join(scratch, "archive"));
    if (archive !== undefined) {
      process.stdout.write(`archive built in ${round(since(built) / 1000, 1)} s\n`);
    }
    if (archive !== undefined && !values["no-npm"]) {
      const packed = performance.now();
      const bin = await npmInstalledPlugin(archive, join(scratch, "npm"));
      process.stdout.write(
        `package and native package packed and installed in ${round(since(packed) / 1000, 1)} s\n`,
      );
      binaries.push({
        name: NPM_ARM,
        real: bin,
        wrapper: await wrapPlugin(join(scratch, "npm-bin"), bin),
      });
    }
    if (archive !== undefined && !values["no-archive"]) {
      execFileSync("tar", ["-xzf", archive, "-C", dirname(archive)]);
      const sea = join(dirname(archive), PLUGIN_NAME);
      binaries.push({
        name: "archive (launcher + shared server)",
        real: sea,
        wrapper: await wrapPlugin(join(scratch, "sea"), sea),
      });
      // The same single executable run as the engine's plugin: a process per provider.
      const server = join(dirname(sea), SHARED_SERVER_NAME);
      if (existsSync(server)) {
        binaries.push({
          name: "archive's single executable alone (a process per provider)",
          real: server,
          wrapper: await wrapPlugin(join(scratch, "sea-alone"), server),
        });
      }
    }
    for (const extra of values.plugin) {
      const [name, real] = extra.split("=");
      if (!name || !real) throw new Error(`--plugin ${extra}: give NAME=EXECUTABLE`);
      binaries.push({
        name,
        real,
        wrapper: await wrapPlugin(join(scratch, `extra-${binaries.length}`), real),
      });
    }
    if (!values["no-floor"]) {
      const floor = await goFloorProvider();
      binaries.push({
        name: FLOOR,
        real: floor,
        wrapper: await wrapPlugin(join(scratch, "floor"), floor),
      });
    }
    if (values.profile) {
      // One more preview with the most providers per plugin kind, each plugin under --cpu-prof.
      // The npm arm runs the archive's launcher and server, profiled in the archive's arm.
      const most = Math.max(...COUNTS);
      for (const binary of binaries.filter((b) => b.name !== FLOOR && b.name !== NPM_ARM)) {
        const profiles = join(scratch, `profiles-${binaries.indexOf(binary)}`);
        const singleExecutable = binary.real !== jsPlugin;
        const wrapper = await wrapPlugin(
          join(scratch, `profiled-${binaries.indexOf(binary)}`),
          binary.real,
          {
            cpuProfileDir: profiles,
            singleExecutable,
          },
        );
        const result = await preview(
          project,
          emulator,
          { name: `${binary.name}, profiled`, real: binary.real, wrapper },
          most,
        );
        process.stdout.write(
          `profiled preview, ${binary.name}, ${most} providers: ${round_(result.seconds)} s, ` +
            `${result.pluginStarts} plugin processes\n${formatSummary(summarizeProfiles(profilesIn(profiles)))}\n`,
        );
      }
    }
    const runs: Record<string, Preview[]> = {};
    const starts: Record<string, number[]> = { 'node -e ""': [] };
    const key = (binary: Binary, providers: number) => `${binary.name}|${providers}`;
    const arms = binaries.flatMap((binary) => COUNTS.map((providers) => ({ binary, providers })));
    for (let pass = 0; pass < ROUNDS; pass++) {
      for (let turn = 0; turn < arms.length; turn++) {
        const { binary, providers } = arms[(turn + pass) % arms.length]!;
        const result = await preview(project, emulator, binary, providers);
        (runs[key(binary, providers)] ??= []).push(result);
        process.stdout.write(
          `round ${pass + 1}: ${binary.name}, ${providers} providers: ${round_(result.seconds)} s, ${result.pluginStarts} plugin processes\n`,
        );
      }
      starts['node -e ""']!.push(await timeToFirstLine([process.execPath, "-e", ""], project.dir));
      for (const binary of binaries) {
        (starts[binary.name] ??= []).push(
          await timeToFirstLine([binary.real, "127.0.0.1:1"], project.dir),
        );
      }
    }
    const bare = median(starts['node -e ""']!);
    const summary = binaries.map((binary) => {
      const of = (providers: number) => runs[key(binary, providers)] ?? [];
      const seconds = (providers: number) => median(of(providers).map((run) => run.seconds));
      const [few, many] = [COUNTS[0]!, COUNTS[COUNTS.length - 1]!];
      return {
        binary: binary.name,
        startMs: round(median(starts[binary.name]!), 0),
        startOverBareNode: round(median(starts[binary.name]!) / bare, 1),
        previews: COUNTS.map((providers) => ({
          providers,
          seconds: round_(seconds(providers)),
          rounds: of(providers).map((run) => round_(run.seconds)),
          pluginStarts: of(providers).map((run) => run.pluginStarts),
        })),
        ratio: round(seconds(many) / seconds(few), 2),
        overFloor: COUNTS.map((providers) => ({
          providers,
          ratio: runs[key({ name: FLOOR } as Binary, providers)]
            ? round(
                seconds(providers) /
                  median(runs[key({ name: FLOOR } as Binary, providers)]!.map((r) => r.seconds)),
                2,
              )
            : undefined,
        })),
      };
    });
    process.stdout.write(
      `\n\`pulumi preview\`, ${RESOURCES} SipCarriers over N explicit providers, CLI ${cli.version}, ` +
        `median of ${ROUNDS} interleaved rounds; node -e "" starts in ${round(bare, 0)} ms\n`,
    );
    process.stdout.write(
      "| plugin | providers | preview s (median) | rounds | plugin processes | plugin start |\n",
    );
    process.stdout.write("| --- | --- | --- | --- | --- | --- |\n");
    for (const row of summary) {
      for (const p of row.previews) {
        process.stdout.write(
          `| ${row.binary} | ${p.providers} | ${p.seconds} | ${p.rounds.join(", ")} | ${p.pluginStarts.join(", ")} | ${row.startMs} ms (${row.startOverBareNode}× node) |\n`,
        );
      }
      process.stdout.write(
        `  ${row.binary}: ${COUNTS[COUNTS.length - 1]} providers / ${COUNTS[0]} = ${row.ratio}× (target ≤ 1.5×: ${row.ratio <= 1.5 ? "met" : "not met"}); ` +
          `× the Go floor: ${row.overFloor.map((f) => `${f.ratio ?? "n/a"} with ${f.providers}`).join(", ")} (target ≤ 1.25× with ${COUNTS[COUNTS.length - 1]})\n`,
      );
    }
    process.stdout.write(
      `${JSON.stringify({ cliVersion: cli.version, resources: RESOURCES, rounds: ROUNDS, bareNodeMs: round(bare, 0), loadAverage: loadavg().map((l) => round(l, 1)), summary })}\n`,
    );
  } finally {
    await emulator.stop();
    await project.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

const round_ = (seconds: number) => round(seconds, 2);

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
