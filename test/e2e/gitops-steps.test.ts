/**
 * Issue 31: examples/gitops as a team runs it, without GitHub. A repository is laid out as the
 * example's header says (the workflow in .github/workflows, its script in .github/scripts, the
 * Pulumi project in infra/voice, its Pulumi.<stack>.yaml committed), and each job's own `run:`
 * command, read from the workflow file, runs in the job's working directory with the job's
 * environment (the keys the workflow sets, with this test's values) against the emulator and a
 * throwaway S3-compatible backend (moto):
 *
 * 1. a merge before the stack exists fails with exit 4 and sends nothing; a pull request's preview
 *    then passes with a notice;
 * 2. the first run (workflow_dispatch, create-stack) creates the stack and deploys;
 * 3. a pull request's preview, with no platform key in its environment, shows the change and
 *    sends nothing; its merge deploys it; a second merge with no change sends nothing;
 * 4. a runner killed mid-`up` (its CLI and shell gone, on another machine as the lock says): the
 *    next run waits for the lock, fails with exit 3 and prints what the gone run left with the
 *    recover command; the operator records the objects with it; the run after that deploys the
 *    rest, nothing created twice.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "js-yaml";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { REPO_ROOT } from "../pulumi-cli/locate";
import { lockKeyPrefixes } from "../../provider/cli/backends/lock-objects";
import {
  backendRequirement,
  startAzurite,
  startMoto,
  type ThrowawayBackend,
} from "../support/throwaway-backend";
import { cli, describeE2E, E2EProject } from "./harness";
import {
  carriersProgram,
  descendants,
  printedAssignments,
  sleep,
  voicePlatform,
} from "./interrupted-run";

const API_KEY = "e2e-gitops-api-key-Qe41";
const SIP_PASSWORD = "e2e-gitops-sip-password-Lm27";
const PASSPHRASE = "e2e-gitops-passphrase";
const PROJECT = "voice-platform-e2e";
const STACK = `organization/${PROJECT}/prod`;
const CONCURRENCY = 4;
const HOLD_MS = 4000;

interface Step {
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}

interface Job {
  env: Record<string, string>;
  steps: Step[];
  defaults?: { run?: { "working-directory"?: string } };
  concurrency: { group: string; "cancel-in-progress": boolean };
  environment?: string;
  if: string;
}

const workflow = load(
  readFileSync(join(REPO_ROOT, "examples/gitops/voice-platform.yml"), "utf8"),
) as { jobs: Record<"preview" | "up", Job> };

/** The variables the job's script step gets: the job's env and the step's own. */
const namesSetFor = (job: "preview" | "up") => [
  ...Object.keys(workflow.jobs[job].env ?? {}),
  ...Object.keys(workflow.jobs[job].steps.at(-1)!.env ?? {}),
];

/** A program of `count` carriers named gitops-NN, each with its own gateway. */
const program = (count: number) =>
  carriersProgram({ count, name: '"gitops-" + String(i).padStart(2, "0")', firstIpv4Octet: 40 });

/**
 * The README's commands that encrypt a secret into Pulumi.<stack>.yaml before the stack exists
 * (from `scratch=` to its removal), for this project's key `e2e:sipPassword`.
 */
function readmeSecretCommands(): string {
  const readme = readFileSync(join(REPO_ROOT, "examples/gitops/README.md"), "utf8");
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((text) => text.includes('scratch="$(mktemp -d)"'));
  if (block === undefined)
    throw new Error("examples/gitops/README.md shows no scratch-stack commands");
  const lines = block.split("\n");
  const from = lines.findIndex((line) => line.startsWith("scratch="));
  const to = lines.findIndex((line) => line.startsWith('rm -rf "$scratch"'));
  const commands = lines.slice(from, to + 1).join("\n");
  expect(commands.match(/ sipPassword$/gm)).toHaveLength(1);
  return commands.replace(/ sipPassword$/m, " e2e:sipPassword");
}

/**
 * A repository laid out as the example's header says: the workflow in .github/workflows, its
 * script in .github/scripts, the Pulumi project (linked) in infra/voice.
 */
function layOutRepository(projectDir: string): string {
  const repo = mkdtempSync(join(tmpdir(), "gitops-repo-"));
  mkdirSync(join(repo, ".github", "workflows"), { recursive: true });
  mkdirSync(join(repo, ".github", "scripts"), { recursive: true });
  mkdirSync(join(repo, "infra"));
  cpSync(
    join(REPO_ROOT, "examples/gitops/voice-platform.yml"),
    join(repo, ".github/workflows/voice-platform.yml"),
  );
  cpSync(
    join(REPO_ROOT, "examples/gitops/voice-platform.sh"),
    join(repo, ".github/scripts/voice-platform.sh"),
  );
  symlinkSync(projectDir, join(repo, "infra", "voice"), "dir");
  return repo;
}

/**
 * The environment of the job's script step: exactly the keys the workflow sets for it (the job's
 * and the step's own), with the given values; a key without a value is empty, as GitHub passes a
 * secret or variable that does not exist. Plus what a runner provides.
 */
function jobEnvironment(
  job: "preview" | "up",
  values: Record<string, string>,
  base: Record<string, string>,
  runner: { repo: string; summaryFile: string } & Record<string, string>,
): Record<string, string> {
  const { repo, summaryFile, ...extra } = runner;
  const env: Record<string, string> = { ...base };
  for (const name of namesSetFor(job)) env[name] = values[name] ?? "";
  return { ...env, GITHUB_WORKSPACE: repo, GITHUB_STEP_SUMMARY: summaryFile, ...extra };
}

/** The job's last `run:` step, as GitHub runs it: `bash -e` in the job's working directory. */
function startJobIn(
  repo: string,
  job: "preview" | "up",
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<JobResult> } {
  const steps = workflow.jobs[job].steps;
  const command = steps.at(-1)!.run!;
  const workDir = join(repo, workflow.jobs[job].defaults!.run!["working-directory"]!);
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", command], {
    cwd: workDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<JobResult>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, output })),
  );
  return { child, done };
}

describeE2E(
  "examples/gitops run step by step on an S3-compatible backend (issue 31)",
  () => {
    let backend: ThrowawayBackend;
    let backendUrl: string;
    let emulator: RunningEmulator;
    let project: E2EProject;
    let repo: string;
    let summaryFile: string;

    beforeAll(async () => {
      backend = await startMoto();
      backendUrl = await backend.createStore("team-state");
      emulator = await startEmulator({ apiKey: API_KEY });
      project = await E2EProject.create({ backendClients: true });
      await project.writeFile("index.js", program(2));
      repo = layOutRepository(project.dir);
      summaryFile = join(repo, "step-summary.md");
      await commitStackConfig();
    });

    afterAll(async () => {
      await emulator?.stop();
      await backend?.stop();
      await project?.remove();
      if (repo !== undefined) rmSync(repo, { recursive: true, force: true });
    });

    /**
     * Pulumi.prod.yaml as the team commits it before the stack exists: the SIP password encrypted
     * under the passphrase by the README's own commands, then the platform's addresses and the
     * concurrency; never the API key.
     */
    async function commitStackConfig(): Promise<void> {
      await runIn(project.dir, "bash", ["-euo", "pipefail", "-c", readmeSecretCommands()], {
        ...teamEnv(),
        STACK,
        SIP_PASSWORD,
      });
      const local = mkdtempSync(join(tmpdir(), "gitops-local-"));
      try {
        const env = { ...teamEnv(), PULUMI_BACKEND_URL: `file://${local}` };
        await runIn(project.dir, cli!.pulumi, ["stack", "init", STACK, "--non-interactive"], env);
        const set = (key: string, value: string) =>
          runIn(project.dir, cli!.pulumi, ["config", "set", "--stack", STACK, key, value], env);
        await set("voiceplatform:baseUrl", emulator.baseUrl);
        await set("voiceplatform:campaignsBaseUrl", emulator.campaignsBaseUrl);
        await set("voiceplatform:maxConcurrency", String(CONCURRENCY));
      } finally {
        rmSync(local, { recursive: true, force: true });
      }
      const committed = await project.stackConfigFile("prod");
      expect(committed).toMatch(/^encryptionsalt: v1:/m);
      expect(committed).toMatch(/e2e:sipPassword:\n\s+secure: v1:/);
      expect(committed).not.toMatch(SIP_PASSWORD);
    }

    /** What every job has: the CLI on PATH, a Pulumi home, the shared backend's URL. */
    function teamEnv(): Record<string, string> {
      return {
        ...project.env({}),
        PULUMI_HOME: project.pulumiHome,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_BACKEND_URL: backendUrl,
        FORCE_COLOR: "0",
      };
    }

    /** The script step's environment (jobEnvironment) with this suite's values. */
    function jobEnv(
      job: "preview" | "up",
      extra: Record<string, string> = {},
    ): Record<string, string> {
      const values = {
        STACK,
        PULUMI_BACKEND_URL: backendUrl,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        VOICEPLATFORM_API_KEY: API_KEY,
        CREATE_STACK: "false",
        ...backend.env,
      };
      return jobEnvironment(job, values, teamEnv(), { repo, summaryFile, ...extra });
    }

    const startJob = (job: "preview" | "up", env: Record<string, string>) =>
      startJobIn(repo, job, env);

    const runJob = (job: "preview" | "up", extra: Record<string, string> = {}) =>
      startJob(job, jobEnv(job, extra)).done;

    const carriers = async () =>
      (await emulator.state()).organizations.org_emulator?.carriers ?? [];
    const requests = async () => (await emulator.requests()).length;
    const summary = () => readFileSync(summaryFile, "utf8");

    test("the workflow runs this script in each job, the platform key only in the up job's", () => {
      const { preview, up } = workflow.jobs;
      expect(preview.steps.at(-1)!.run).toBe(
        'bash "$GITHUB_WORKSPACE/.github/scripts/voice-platform.sh" preview',
      );
      expect(up.steps.at(-1)!.run).toBe(
        'bash "$GITHUB_WORKSPACE/.github/scripts/voice-platform.sh" up',
      );
      expect(namesSetFor("preview")).not.toContain("VOICEPLATFORM_API_KEY");
      expect(JSON.stringify(preview)).not.toMatch("VOICEPLATFORM_API_KEY");
      expect(up.steps.at(-1)!.env!.VOICEPLATFORM_API_KEY).toBe(
        "${{ secrets.VOICEPLATFORM_API_KEY }}",
      );
      expect(up.environment).toBe("production");
      expect(preview.environment).toBeUndefined();
      // Deploys queue per stack; previews per pull request and stack, never in a deploy's queue.
      expect(up.concurrency).toEqual({
        group:
          "voice-platform-up-${{ vars.PULUMI_PROJECT || 'voice-platform' }}-${{ matrix.stack }}",
        "cancel-in-progress": false,
      });
      expect(preview.concurrency.group).toMatch(
        /^voice-platform-preview-\$\{\{ github.event.pull_request.number \}\}-\$\{\{ matrix.stack \}\}$/,
      );
      expect(preview.if).toMatch(
        "github.event.pull_request.head.repo.full_name == github.repository",
      );
      for (const job of [preview, up]) {
        expect(job.env.STACK).toBe(
          "${{ vars.PULUMI_ORG || 'organization' }}/${{ vars.PULUMI_PROJECT || 'voice-platform' }}/${{ matrix.stack }}",
        );
      }
    });

    test("no state backend (empty variables, as GitHub passes missing ones), or an empty passphrase for a new stack: refused (exit 2), nothing sent or created", async () => {
      const noBackend = await runJob("up", { PULUMI_BACKEND_URL: "", PULUMI_ACCESS_TOKEN: "" });
      expect(noBackend.code).toBe(2);
      expect(noBackend.output).toMatch("No state backend");
      expect(noBackend.output).toMatch(
        "set PULUMI_BACKEND_URL (s3://, azblob://, postgres://, gs://)",
      );
      expect(noBackend.output).toMatch("PULUMI_ACCESS_TOKEN for Pulumi Cloud");
      // It stopped before preflight: nothing read, nothing printed of the stack.
      expect(noBackend.output).not.toMatch("pulumi-voice-platform");

      const emptyPassphrase = await runJob("up", {
        CREATE_STACK: "true",
        PULUMI_CONFIG_PASSPHRASE: "",
      });
      expect(emptyPassphrase.code).toBe(2);
      expect(emptyPassphrase.output).toMatch(`Creating ${STACK} needs the passphrase`);
      expect(emptyPassphrase.output).toMatch("set PULUMI_CONFIG_PASSPHRASE");
      expect(emptyPassphrase.output).not.toMatch("Creating stack");
      expect(await requests()).toBe(0);
      expect(await stackNames()).toEqual([]);
    });

    test("first runs: a merge before the stack exists stops (exit 4), a preview passes with a notice, the create-stack run deploys", async () => {
      const early = await runJob("up");
      expect(early.code).toBe(4);
      expect(early.output).toMatch(`Stack ${STACK} does not exist`);
      expect(early.output).toMatch("run the workflow by hand on main");
      expect(early.output).toMatch("'create the stack' ticked");
      expect(await requests()).toBe(0);

      const preview = await runJob("preview");
      expect(preview.code).toBe(0);
      expect(preview.output).toMatch(`Stack ${STACK} does not exist yet`);
      expect(preview.output).toMatch("nothing to preview against");

      const first = await runJob("up", { CREATE_STACK: "true" });
      expect({ code: first.code, output: first.output }).toMatchObject({ code: 0 });
      expect(first.output).toMatch(`Creating stack ${STACK} (CREATE_STACK=true)`);
      // The stack resource and two carriers.
      expect(first.output).toMatch(/\+ 3 created/);
      expect(await carriers()).toHaveLength(2);
      expect(summary()).toMatch(`Created stack \`${STACK}\``);
      console.log(`first run (create-stack): exit ${first.code}, carriers on the platform: 2`);
    });

    test("a pull request's preview without the key, its merge, a second merge with no change", async () => {
      await project.writeFile("index.js", program(3));
      const before = await requests();
      const env = jobEnv("preview");
      expect(env.VOICEPLATFORM_API_KEY).toBeUndefined();
      expect(await project.stackConfigFile("prod")).not.toMatch(/apiKey/);
      const preview = await startJob("preview", env).done;
      expect({ code: preview.code, output: preview.output }).toMatchObject({ code: 0 });
      expect(preview.output).toMatch(/\+ 1 to create/);
      expect(await requests()).toBe(before);
      expect(summary()).toMatch(`pulumi preview of ${STACK} (exit 0)`);

      const merge = await runJob("up");
      expect({ code: merge.code, output: merge.output }).toMatchObject({ code: 0 });
      expect(merge.output).toMatch(/\+ 1 created/);
      expect(await requests()).toBe(before + 1);

      const again = await runJob("up");
      expect({ code: again.code, output: again.output }).toMatchObject({ code: 0 });
      expect(again.output).toMatch(/4 unchanged/);
      expect(again.output).not.toMatch(/\d+ created/);
      expect(await requests()).toBe(before + 1);
      expect(await carriers()).toHaveLength(3);
      for (const text of [preview.output, merge.output, again.output, summary()]) {
        expect(text).not.toMatch(API_KEY);
        expect(text).not.toMatch(SIP_PASSWORD);
      }
      console.log(
        `pull request preview: exit 0, 0 requests; merge: 1 create; second merge: 0 requests`,
      );
    });

    test("a lock whose run may still go: its report once, one short line per poll, then exit 3; the lock is left alone", async () => {
      const key = await plantLock({ hostname: "runner-gone", timestamp: new Date() });
      try {
        const before = await requests();
        const waiting = await runJob("up", { LOCK_WAIT_SECONDS: "3", LOCK_POLL_SECONDS: "1" });
        expect(waiting.code).toBe(3);
        const reports = waiting.output.split("is locked by an update in progress").length - 1;
        expect(reports).toBe(1);
        const polls = waiting.output
          .split("\n")
          .filter((line) => line.startsWith("Still locked by "));
        expect(polls).toHaveLength(3);
        for (const line of polls) {
          expect(line).toMatch(
            /^Still locked by ci@runner-gone \(pid 4242\), locked \d+ s ago \([^)]+\); waited \d of 3 s$/,
          );
        }
        expect(waiting.output).toMatch(`${STACK} is still locked`);
        expect(waiting.output).toMatch("by another update after 3 s");
        expect(waiting.output).toMatch("How to clear a lock");
        expect(waiting.output).toMatch("never removes a lock");
        expect(waiting.output).toMatch(`\`pulumi cancel --stack ${STACK} --yes\``);
        expect(await lockKeys()).toEqual([key]);
        expect(await requests()).toBe(before);
        console.log(
          `a held lock: 1 report, ${polls.length} poll lines of ${Math.max(...polls.map((l) => l.length))} characters at most, exit 3`,
        );
      } finally {
        await deleteObject(key);
      }
    });

    test("a lock older than any run lasts: exit 3 at once, how to clear it; `pulumi cancel` as printed clears it and the next run deploys", async () => {
      const taken = new Date(Date.now() - 7 * 3600_000);
      const key = await plantLock({ hostname: "runner-gone", timestamp: taken });
      const before = await requests();
      const stale = await runJob("up", { LOCK_WAIT_SECONDS: "600", LOCK_POLL_SECONDS: "1" });
      expect(stale.code).toBe(3);
      expect(stale.output).toMatch(`${STACK} has been locked for 420 min`);
      expect(stale.output).toMatch("longer than any run");
      expect(stale.output).toMatch("(LOCK_STALE_MINUTES=360):");
      expect(stale.output).not.toMatch("Still locked by");
      expect(stale.output).toMatch(`\`pulumi cancel --stack ${STACK} --yes\``);
      expect(await lockKeys()).toEqual([key]);
      expect(await requests()).toBe(before);

      // The operator, having checked that no run of the stack goes on, runs the printed command.
      await runIn(
        project.dir,
        cli!.pulumi,
        ["cancel", "--stack", STACK, "--yes", "--non-interactive"],
        jobEnv("up"),
      );
      expect(await lockKeys()).toEqual([]);
      const after = await runJob("up");
      expect({ code: after.code, output: after.output }).toMatchObject({ code: 0 });
      expect(after.output).toMatch(/4 unchanged/);
      expect(await requests()).toBe(before);
    });

    test("a runner killed mid-up: the next run stops on its lock (exit 3), recover settles it, the run after deploys the rest once", async () => {
      const total = 9;
      await project.writeFile("index.js", program(total));
      // The first creates are held, and reach the platform after the runner died; the provider
      // sends the rest once they return, and those never reach it.
      await emulator.addFault({
        method: "POST",
        path: "/organization/sip",
        times: CONCURRENCY,
        action: { kind: "latency", ms: HOLD_MS },
      });
      await emulator.addFault({
        method: "POST",
        path: "/organization/sip",
        times: total,
        action: { kind: "hang" },
      });
      const before = (await carriers()).length;
      const runner = startJob("up", jobEnv("up"));
      const started = Date.now();
      const posts = async () =>
        (await emulator.requests()).filter((r) => r.method === "POST").length;
      const postsBefore = await posts();
      while ((await posts()) - postsBefore < CONCURRENCY) {
        if (runner.child.exitCode !== null)
          throw new Error(`the up job ended before it was killed:\n${(await runner.done).output}`);
        if (Date.now() - started > 180_000) throw new Error("no creates in flight after 180 s");
        await sleep(100);
      }
      // The runner dies: its shells and the CLI at once. The provider process the CLI started is
      // orphaned and finishes the creates it sent, as on a machine that lost its network later.
      const tree = descendants(runner.child.pid!);
      const pulumiPid = tree.find((pid) =>
        /pulumi$/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!),
      )!;
      const orphans = descendants(pulumiPid);
      for (const pid of [runner.child.pid!, ...tree.filter((pid) => !orphans.includes(pid))]) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
      expect((await runner.done).signal).toBe("SIGKILL");
      for (let quiet = 0; quiet < 2;) {
        await sleep(HOLD_MS);
        const inFlight = (await emulator.requests()).filter(
          (r) => r.status === null && r.fault?.kind !== "hang",
        ).length;
        quiet = inFlight === 0 ? quiet + 1 : 0;
      }
      for (const pid of orphans) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone already.
        }
      }
      await emulator.clearFaults();
      const onPlatformAfterKill = await carriers();
      expect(onPlatformAfterKill.length).toBeGreaterThan(before);
      expect(onPlatformAfterKill.length).toBeLessThan(total);
      // The next job runs on another machine: the lock's holder is a host it cannot check.
      await moveLockToAnotherHost();

      const next = await runJob("up", { LOCK_WAIT_SECONDS: "0" });
      expect(next.code).toBe(3);
      expect(next.output).toMatch(`is locked by an update in progress`);
      expect(next.output).toMatch("ci@runner-gone");
      expect(next.output).toMatch(`${STACK} is still locked`);
      expect(next.output).toMatch("after 0 s");
      expect(next.output).toMatch("known to be gone");
      expect(next.output).toMatch("what it left:");
      expect(await carriers()).toEqual(onPlatformAfterKill);

      // The operator, who knows the runner is gone, finds each object on the platform by name and
      // runs the printed command with its ids.
      const assignments = printedAssignments(next.output).map(({ urn }) => {
        const found = onPlatformAfterKill.find((c) => c.name === urn.split("::").at(-1));
        return found === undefined ? ["--forget", urn] : [`${urn}=${found.id}`];
      });
      expect(next.output).toMatch(
        `npx pulumi-voice-platform recover --stack ${STACK} --cancel-stale-lock`,
      );
      const recovered = await voicePlatform(project, jobEnv("up"), [
        "recover",
        "--stack",
        STACK,
        "--cancel-stale-lock",
        ...assignments.flat(),
      ]);
      expect({ code: recovered.code, stderr: recovered.stderr }).toMatchObject({ code: 0 });

      const requestsBefore = await requests();
      const after = await runJob("up");
      expect(after.code === 0 ? "" : after.output).toBe("");
      const final = await carriers();
      const createdTwice = final.length - new Set(final.map((c) => c.name)).size;
      expect(createdTwice).toBe(0);
      expect(final).toHaveLength(total);
      expect((await requests()) - requestsBefore).toBe(total - onPlatformAfterKill.length);
      console.log(
        [
          "killed runner in the GitOps flow (issue 31):",
          `  carriers on the platform when it died: ${onPlatformAfterKill.length} of ${total}; next run: exit ${next.code} (locked by runner-gone)`,
          `  recorded by recover: ${assignments.filter((a) => a.length === 1).length}; forgotten: ${assignments.filter((a) => a.length === 2).length}`,
          `  the run after: exit ${after.code}, created ${total - onPlatformAfterKill.length}; carriers: ${final.length}; created twice: ${createdTwice}`,
        ].join("\n"),
      );
    });

    /** The S3 client of the test's bucket, with the backend's credentials. */
    async function withBucket<T>(
      use: (
        client: import("@aws-sdk/client-s3").S3Client,
        s3: typeof import("@aws-sdk/client-s3"),
      ) => Promise<T>,
    ): Promise<T> {
      const s3 = await import("@aws-sdk/client-s3");
      const endpoint = decodeURIComponent(/endpoint=([^&]+)/.exec(backendUrl)![1]!);
      const client = new s3.S3Client({
        endpoint,
        forcePathStyle: true,
        region: "us-east-1",
        credentials: {
          accessKeyId: backend.env.AWS_ACCESS_KEY_ID!,
          secretAccessKey: backend.env.AWS_SECRET_ACCESS_KEY!,
        },
      });
      try {
        return await use(client, s3);
      } finally {
        client.destroy();
      }
    }

    const lockPrefix = () => lockKeyPrefixes(backendUrl, PROJECT, "prod")[0]!;

    /** The keys of the stack's lock objects. */
    const lockKeys = () =>
      withBucket(async (client, { ListObjectsV2Command }) => {
        const listed = await client.send(
          new ListObjectsV2Command({ Bucket: "team-state", Prefix: lockPrefix() }),
        );
        return (listed.Contents ?? []).map((o) => o.Key!).filter((k) => k.endsWith(".json"));
      });

    /** The stacks on the backend (one checkpoint object each). */
    const stackNames = () =>
      withBucket(async (client, { ListObjectsV2Command }) => {
        const listed = await client.send(
          new ListObjectsV2Command({ Bucket: "team-state", Prefix: ".pulumi/stacks/" }),
        );
        return (listed.Contents ?? []).map((o) => o.Key!).filter((k) => k.endsWith(".json"));
      });

    /** A lock as a `pulumi up` on another machine writes it; returns its key. */
    const plantLock = (holder: { hostname: string; timestamp: Date }) =>
      withBucket(async (client, { PutObjectCommand }) => {
        const key = `${lockPrefix()}${randomUUID()}.json`;
        const body = {
          pid: 4242,
          username: "ci",
          hostname: holder.hostname,
          timestamp: holder.timestamp.toISOString(),
        };
        await client.send(
          new PutObjectCommand({ Bucket: "team-state", Key: key, Body: JSON.stringify(body) }),
        );
        return key;
      });

    const deleteObject = (key: string) =>
      withBucket(async (client, { DeleteObjectCommand }) => {
        await client.send(new DeleteObjectCommand({ Bucket: "team-state", Key: key }));
      });

    /** Rewrites the stack's lock object as if its holder ran on another machine. */
    const moveLockToAnotherHost = () =>
      withBucket(async (client, { GetObjectCommand, PutObjectCommand }) => {
        const keys = await lockKeys();
        expect(keys).toHaveLength(1);
        const got = await client.send(new GetObjectCommand({ Bucket: "team-state", Key: keys[0] }));
        const lock = JSON.parse(await got.Body!.transformToString()) as Record<string, unknown>;
        await client.send(
          new PutObjectCommand({
            Bucket: "team-state",
            Key: keys[0],
            Body: JSON.stringify({ ...lock, username: "ci", hostname: "runner-gone" }),
          }),
        );
      });
  },
  [backendRequirement("s3")],
);

describeE2E(
  "examples/gitops: a pull request's preview against a brand-new Azure Blob container, read-only (issue 38)",
  () => {
    let backend: ThrowawayBackend;
    let emulator: RunningEmulator;
    let project: E2EProject;
    let repo: string;

    beforeAll(async () => {
      backend = await startAzurite();
      emulator = await startEmulator({ apiKey: API_KEY });
      project = await E2EProject.create({ backendClients: true });
      await project.writeFile("index.js", program(1));
      repo = layOutRepository(project.dir);
    });

    afterAll(async () => {
      await emulator?.stop();
      await backend?.stop();
      await project?.remove();
      if (repo !== undefined) rmSync(repo, { recursive: true, force: true });
    });

    test("the preview job with a read-and-list SAS token passes with the notice (exit 0), writes nothing and sends nothing", async () => {
      const backendUrl = await backend.createStore("never-used");
      const values = {
        STACK,
        PULUMI_BACKEND_URL: backendUrl,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        AZURE_STORAGE_ACCOUNT: backend.env.AZURE_STORAGE_ACCOUNT!,
        AZURE_STORAGE_SAS_TOKEN: await readOnlySas("never-used"),
      };
      const base = { ...project.env({}), PULUMI_HOME: project.pulumiHome, FORCE_COLOR: "0" };
      const summaryFile = join(repo, "step-summary.md");
      const env = jobEnvironment("preview", values, base, { repo, summaryFile });
      expect(env.AZURE_STORAGE_KEY).toBeUndefined();
      const preview = await startJobIn(repo, "preview", env).done;
      expect({ code: preview.code, output: preview.output }).toMatchObject({ code: 0 });
      expect(preview.output).toMatch(`Stack ${STACK} does not exist yet`);
      expect(preview.output).toMatch("nothing to preview against");
      expect(preview.output).toMatch("the backend holds no stack yet");
      expect(await blobsIn(backendUrl)).toEqual([]);
      expect(await emulator.requests()).toEqual([]);
    });

    /** A SAS token for the container that reads and lists, as a preview's credentials should. */
    async function readOnlySas(container: string): Promise<string> {
      const {
        generateBlobSASQueryParameters,
        ContainerSASPermissions,
        StorageSharedKeyCredential,
      } = await import("@azure/storage-blob");
      return generateBlobSASQueryParameters(
        {
          containerName: container,
          permissions: ContainerSASPermissions.parse("rl"),
          expiresOn: new Date(Date.now() + 3600_000),
        },
        new StorageSharedKeyCredential(
          backend.env.AZURE_STORAGE_ACCOUNT!,
          backend.env.AZURE_STORAGE_KEY!,
        ),
      ).toString();
    }

    /** The names of the blobs in the backend's container, read with the account's key. */
    async function blobsIn(backendUrl: string): Promise<string[]> {
      const { BlobServiceClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
      const url = new URL(backendUrl);
      const account = backend.env.AZURE_STORAGE_ACCOUNT!;
      const container = new BlobServiceClient(
        `http://${url.searchParams.get("domain")}/${account}`,
        new StorageSharedKeyCredential(account, backend.env.AZURE_STORAGE_KEY!),
      ).getContainerClient(url.hostname);
      const names: string[] = [];
      for await (const blob of container.listBlobsFlat()) names.push(blob.name);
      return names;
    }
  },
  [backendRequirement("azblob")],
);

interface JobResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

async function runIn(
  cwd: string,
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<void> {
  const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`${file} ${args.join(" ")} failed (${code}):\n${output}`);
}
