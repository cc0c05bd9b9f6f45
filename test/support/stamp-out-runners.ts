/**
 * Sub-organization stacks deployed as GitOps runners deploy them: one process per
 * sub-organization (a CI job each), at most `runners` at once, every one against the same state
 * backend and platform. Two kinds of runner:
 *
 * - `runStampOutRunners`: examples/environments/stamp-out.ts, the Automation API example, one
 *   process per stack;
 * - `runDeployJobs`: deploy-job.sh, a CI job's own commands (`pulumi stack select --create`,
 *   `config set-all`, preflight, `pulumi up --yes` with its preview), without the Automation API's
 *   further CLI calls (version, stack outputs, history) and Node.js start: about 40 % less CPU
 *   per stack.
 *
 * The environments example is copied to a temporary folder first, so the Pulumi.<stack>.yaml files
 * the runs write never touch the committed ones.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "../../provider/emulator";
import { linkPackageIntoNodeModules } from "../examples/link-package";
import { REPO_ROOT } from "../pulumi-cli/locate";

/** A copy of examples/environments; `remove()` deletes it. */
export interface EnvironmentsCopy {
  readonly root: string;
  readonly project: string;
  remove(): void;
}

export function copyEnvironmentsExample(): EnvironmentsCopy {
  linkPackageIntoNodeModules(REPO_ROOT);
  const root = mkdtempSync(join(tmpdir(), "environments-example-"));
  cpSync(join(REPO_ROOT, "examples/environments"), join(root, "environments"), {
    recursive: true,
    filter: (source) => !source.includes(".stamp-out"),
  });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return {
    root,
    project: join(root, "environments"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The platform every runner deploys to; the key reaches stamp-out through its environment. */
export interface Platform {
  readonly baseUrl: string;
  readonly campaignsBaseUrl: string;
  readonly apiKey: string;
}

export interface RunnerOptions {
  readonly subOrganizations: readonly string[];
  /** How many runners run at once (a CI concurrency limit). */
  readonly runners: number;
  readonly workDir: string;
  readonly backendUrl: string;
  readonly platform: Platform;
  /** Environment of every runner: PATH with the CLI, PULUMI_HOME, the passphrase. */
  readonly env: Record<string, string>;
  /**
   * Whether stamp-out is asked to create the stacks that do not exist (`--create-stacks`, a first
   * round); true unless false is given. deploy-job.sh always selects or creates.
   */
  readonly createStacks?: boolean;
}

export interface RunnerResult {
  /** Which runner deployed the stack: what its output says differs. */
  readonly runner: "stamp-out" | "deploy-job";
  readonly subOrganizationId: string;
  readonly code: number | null;
  readonly output: string;
  readonly seconds: number;
}

/**
 * How many stacks the test suites stamp out per backend: 4 by default, as many as runners deploy at
 * once (the most a round can overlap), so the three backends' runs
 * stay a few minutes of CI; `VOICEPLATFORM_STAMP_OUT_STACKS=20` runs issue 31's full count, and
 * `npm run bench:backends` measures 20 on every backend (each object created once asserted there).
 */
export function suiteStackCount(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.VOICEPLATFORM_STAMP_OUT_STACKS;
  if (given === undefined || given === "") return 4;
  const count = Number(given);
  if (!Number.isInteger(count) || count < 2 || count > 100) {
    throw new Error(
      `VOICEPLATFORM_STAMP_OUT_STACKS is ${JSON.stringify(given)}: give a whole number of stacks from 2 to 100`,
    );
  }
  return count;
}

/** Runs `runOne` for each sub-organization, `runners` at a time; results by sub-organization. */
async function runEach(
  options: RunnerOptions,
  runOne: (subOrganizationId: string) => Promise<RunnerResult>,
): Promise<RunnerResult[]> {
  const queue = [...options.subOrganizations];
  const results: RunnerResult[] = [];
  const runner = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      results.push(await runOne(next));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.runners) }, runner));
  return results.sort((a, b) => a.subOrganizationId.localeCompare(b.subOrganizationId));
}

/** Runs one stamp-out.ts process per sub-organization, `runners` at a time. */
export function runStampOutRunners(options: RunnerOptions): Promise<RunnerResult[]> {
  return runEach(options, (subOrganizationId) => {
    const args = [
      join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs"),
      join(REPO_ROOT, "examples/environments/stamp-out.ts"),
      "--work-dir",
      options.workDir,
      "--base-url",
      options.platform.baseUrl,
      "--campaigns-base-url",
      options.platform.campaignsBaseUrl,
      "--parallel",
      "1",
      ...(options.createStacks === false ? [] : ["--create-stacks"]),
      subOrganizationId,
    ];
    return runnerProcess("stamp-out", subOrganizationId, process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...options.env, SIP_PASSWORD: sipPasswordOf(subOrganizationId) },
      options,
    });
  });
}

/** Runs deploy-job.sh for each sub-organization in the example's folder, `runners` at a time. */
export function runDeployJobs(options: RunnerOptions): Promise<RunnerResult[]> {
  // The package's bin as the project resolves it, as stamp-out.ts finds it.
  const manifest = require.resolve("pulumi-voice-platform/package.json", {
    paths: [options.workDir],
  });
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const env = {
    ...options.env,
    PREFLIGHT_BIN: join(dirname(manifest), bin["pulumi-voice-platform"]!),
    PLATFORM_BASE_URL: options.platform.baseUrl,
    PLATFORM_CAMPAIGNS_BASE_URL: options.platform.campaignsBaseUrl,
  };
  return runEach(options, (subOrganizationId) =>
    runnerProcess(
      "deploy-job",
      subOrganizationId,
      "bash",
      [join(__dirname, "deploy-job.sh"), subOrganizationId],
      {
        cwd: options.workDir,
        env: { ...env, SIP_PASSWORD: sipPasswordOf(subOrganizationId) },
        options,
      },
    ),
  );
}

/** Each sub-organization's carrier password, the same in every round, as a CI secret would be. */
const sipPasswordOf = (subOrganizationId: string) => `${subOrganizationId}-sip-password`;

function runnerProcess(
  runner: RunnerResult["runner"],
  subOrganizationId: string,
  command: string,
  args: string[],
  how: { cwd: string; env: Record<string, string>; options: RunnerOptions },
): Promise<RunnerResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: how.cwd,
      env: {
        ...how.env,
        // Through the environment, as a CI job's secrets and settings reach it.
        PULUMI_BACKEND_URL: how.options.backendUrl,
        VOICEPLATFORM_API_KEY: how.options.platform.apiKey,
        FORCE_COLOR: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        runner,
        subOrganizationId,
        code,
        output,
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

/** What the emulator holds: one entry per object, by kind, name and sub-organization. */
export async function objectsOnPlatform(emulator: RunningEmulator) {
  const state = await emulator.state();
  return Object.values(state.organizations).flatMap((org) => [
    ...org.voices.map((v) => ({ kind: "voice", name: v.name, sub: v.subOrganizationId })),
    ...org.carriers.map((c) => ({ kind: "carrier", name: c.name, sub: c.subOrganizationId })),
    ...Object.values(org.subscriptions)
      .flat()
      .map((s) => ({ kind: "subscription", name: s.url, sub: s.subOrganizationId })),
  ]);
}

/**
 * Every runner of a round exited 0, its preflight found nothing pending, and it said what its stack
 * did: 4 creates in the first round, 4 unchanged in the next. stamp-out.ts says so in its own lines
 * (`[sub] succeeded in 9.1 s (4 create)`), a deploy job through the CLI's summary (`+ 4 created`).
 */
export function expectRoundSucceeded(runs: readonly RunnerResult[], outcome: "create" | "same") {
  for (const run of runs) {
    const sub = run.subOrganizationId;
    // jest's diff leaves out the fields that match: a failed runner's output is printed here.
    if (run.code !== 0) console.error(`[${sub}] ${run.runner} exited ${run.code}:\n${run.output}`);
    expect({ sub, code: run.code, output: run.output }).toMatchObject({ code: 0 });
    if (run.runner === "stamp-out") {
      if (outcome === "create") {
        expect(run.output).toMatch(new RegExp(`\\[${sub}\\] preflight: [^\\n]*does not exist yet`));
        expect(run.output).toContain(`[${sub}] created the stack (--create-stacks)`);
      } else {
        expect(run.output).toContain(`[${sub}] preflight: no interrupted operations`);
      }
      expect(run.output).toMatch(
        new RegExp(`\\[${sub}\\] succeeded in [\\d.]+ s \\(4 ${outcome}\\)`),
      );
    } else {
      expect(run.output).toMatch(
        new RegExp(`\\b${sub}: no pending operation on pulumi-voice-platform resources\\.`),
      );
      expect(run.output).toMatch(
        outcome === "create" ? /\nResources:\n +\+ 4 created\n/ : /\nResources:\n +4 unchanged\n/,
      );
    }
  }
}

/**
 * After the first round: each sub-organization holds as many objects as every other, none was
 * created twice, and the platform got one create request per object (the previews sent none).
 */
export async function expectEachObjectCreatedOnce(
  emulator: RunningEmulator,
  subOrganizations: readonly string[],
) {
  const objects = await objectsOnPlatform(emulator);
  const perStack = objects.length / subOrganizations.length;
  for (const sub of subOrganizations) {
    expect(objects.filter((o) => o.sub === sub)).toHaveLength(perStack);
  }
  const keys = objects.map((o) => `${o.sub} ${o.kind} ${o.name}`);
  const createdTwice = keys.length - new Set(keys).size;
  expect(createdTwice).toBe(0);
  const requests = await emulator.requests();
  expect(requests).toHaveLength(objects.length);
  for (const request of requests) {
    expect(request.method).toBe("POST");
    expect(request.status).toBeLessThan(300);
  }
  return { objects, perStack, requests, createdTwice };
}

/** After a second round: no request more, and the platform holds what it held. */
export async function expectNothingChanged(
  emulator: RunningEmulator,
  objects: Awaited<ReturnType<typeof objectsOnPlatform>>,
) {
  expect(await emulator.requests()).toHaveLength(objects.length);
  expect(await objectsOnPlatform(emulator)).toEqual(objects);
}
