/**
 * The GitOps guarantees on a shared state backend, one throwaway server per suite (moto for S3,
 * Azurite for Azure Blob, PostgreSQL: test/support/throwaway-backend.ts); issue 31 for the buckets,
 * issue 22 for PostgreSQL, where a stack's lock is a row of the state table:
 *
 * - on S3 and Azure Blob, sub-organization stacks (4 by default, 20 with
 *   VOICEPLATFORM_STAMP_OUT_STACKS=20; the bench measures 20 with stamp-out.ts) deployed by as
 *   many separate CI jobs (deploy-job.sh: select or create the stack, set its config, preflight,
 *   `pulumi up --yes` with its preview), 4 at a time, every object created once and nothing else
 *   sent (the previews sent nothing), and a second round that changes nothing; on PostgreSQL
 *   stamp-out.ts itself, the Automation API's way, is run so (postgres-stamp-out.test.ts), its
 *   backend calls being the CLI's own;
 * - while one runner's `pulumi up` runs, a second is refused by the backend, `preflight` reads the
 *   lock and exits 3 naming the holder, and `recover` refuses;
 * - a runner killed with SIGKILL mid-create leaves its lock and pending creates: preflight
 *   lists them, recover settles them and releases the dead runner's lock, and the next `up`
 *   creates nothing twice.
 *
 * Without the server's tool (or PostgreSQL's binaries) the suite says how to install it and is
 * skipped, or fails under CI.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../../provider/emulator";
import { pulumiEnv } from "../pulumi-cli/locate";
import { lockKeyPrefixes } from "../../provider/cli/backends/lock-objects";
import { azureBlobLockRecords } from "../../provider/cli/backends/azblob-locks";
import { postgresLockRecords } from "../../provider/cli/backends/postgres-locks";
import { s3LockRecords } from "../../provider/cli/backends/s3-locks";
import { upWithPreview } from "../support/pulumi-up";
import {
  copyEnvironmentsExample,
  expectEachObjectCreatedOnce,
  expectNothingChanged,
  expectRoundSucceeded,
  runDeployJobs,
  suiteStackCount,
  type EnvironmentsCopy,
  type RunnerOptions,
} from "../support/stamp-out-runners";
import {
  backendRequirement,
  startBackend,
  type BackendKind,
  type ThrowawayBackend,
} from "../support/throwaway-backend";
import { cli, describeE2E, E2EProject, recorder } from "./harness";
import {
  carriersProgram,
  killUpDuringCreates,
  recoverArguments,
  sleep,
  spawnUp,
  voicePlatform as runBin,
  type ExportedDeployment,
} from "./interrupted-run";

const run = promisify(execFile);

/** Each backend of the suite: how it is named, its issue, how its locks are read and called. */
const BACKENDS: Record<
  BackendKind,
  {
    readonly label: string;
    readonly issue: number;
    readonly readLocks: typeof s3LockRecords;
    readonly locksAre: string;
    /** The stamp-out by CI jobs; PostgreSQL's runs in postgres-stamp-out.test.ts. */
    readonly stampOut: boolean;
    /** How a `pulumi up` refused by the lock names the backend, when the suite checks it. */
    readonly refusedUpNames?: string;
  }
> = {
  s3: {
    label: "an S3-compatible backend (moto)",
    issue: 31,
    readLocks: s3LockRecords,
    locksAre: "lock objects",
    stampOut: true,
  },
  azblob: {
    label: "an Azure Blob backend (Azurite)",
    issue: 31,
    readLocks: azureBlobLockRecords,
    locksAre: "lock objects",
    stampOut: true,
  },
  postgres: {
    label: "a PostgreSQL backend",
    issue: 22,
    readLocks: postgresLockRecords,
    locksAre: "lock rows",
    stampOut: false,
    // The CLI hides the URL's user and password.
    refusedUpNames: "postgres://****:****@127.0.0.1",
  },
};

/**
 * The warning the AWS SDK for JavaScript prints on Node.js 20 once its support for it nears its
 * end (NodeVersionSupportWarning): the SDK's, not the command's.
 */
function withoutAwsSdkNodeWarning(stderr: string): string {
  return stderr.replace(
    /^\(node:\d+\) Warning: NodeVersionSupportWarning:[\s\S]*?to show where the warning was created\)\n/m,
    "",
  );
}

const STACKS = suiteStackCount();
const RUNNERS = 4;
/** A round of 20 stacks on a busy 2-core machine takes several minutes. */
const ROUND_TIMEOUT_MS = 1_500_000;
const PROJECT = "voice-platform-e2e";
const CARRIERS = 12;
const LATENCY_MS = 1500;
const CONCURRENCY = 4;
/**
 * The most the live update's first creates are held, short of the provider's 60 s deadline of one
 * attempt: the test releases them (clearing the faults) as soon as its checks are done, so a slow,
 * loaded machine gets the time its checks need and a quiet one does not wait it out.
 */
const HOLD_MS = 50_000;
const TYPE = "pulumi-nodejs:dynamic/voiceplatform:SipCarrier";

const isCreate = (r: RequestLogEntry) => r.method === "POST" && r.path === "/organization/sip";

/** Registers the suite of one backend kind; a test file calls it at its top level. */
export function describeBackendSuite(kind: BackendKind): void {
  const { label, issue } = BACKENDS[kind];
  describeE2E(`GitOps on ${label} (issue ${issue})`, () => suite(kind), [backendRequirement(kind)]);
}

function suite(kind: BackendKind): void {
  const { label, issue, readLocks, locksAre } = BACKENDS[kind];
  const apiKey = `e2e-${kind}-backend-api-key-7f3a`;
  const sipPassword = `e2e-${kind}-backend-sip-password-Wq81`;
  let backend: ThrowawayBackend;
  const emulators: RunningEmulator[] = [];
  const savedEnv: Record<string, string | undefined> = {};

  beforeAll(async () => {
    backend = await startBackend(kind);
    // The lock readers, called from this process, take credentials from its environment.
    for (const [name, value] of Object.entries(backend.env)) {
      savedEnv[name] = process.env[name];
      process.env[name] = value;
    }
  });

  afterAll(async () => {
    for (const emulator of emulators) await emulator.stop();
    await backend?.stop();
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  // PostgreSQL's stamp-out runs the Automation API's way in postgres-stamp-out.test.ts.
  const describeStampOut = BACKENDS[kind].stampOut ? describe : () => undefined;
  describeStampOut(`stamp-out of ${STACKS} stacks by separate CI jobs`, () => {
    const subOrganizations = Array.from(
      { length: STACKS },
      (_, i) => `sub-${String(i + 1).padStart(2, "0")}`,
    );
    let emulator: RunningEmulator;
    let example: EnvironmentsCopy;
    let home: string;
    let runners: RunnerOptions;

    beforeAll(async () => {
      emulator = await startEmulator({ apiKey, subOrganizationIds: subOrganizations });
      emulators.push(emulator);
      example = copyEnvironmentsExample();
      home = mkdtempSync(join(tmpdir(), "stamp-out-home-"));
      runners = {
        subOrganizations,
        runners: RUNNERS,
        workDir: example.project,
        backendUrl: await backend.createStore("stamp-out"),
        platform: { ...emulator, apiKey },
        env: pulumiEnv({
          ...process.env,
          ...backend.env,
          PULUMI_HOME: home,
          PULUMI_CONFIG_PASSPHRASE: "stamp-out-e2e",
        }) as Record<string, string>,
      };
    });

    afterAll(() => {
      example?.remove();
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });

    test(
      "every stack converges, each object is created once, and a second round changes nothing",
      async () => {
        const started = Date.now();
        const first = await runDeployJobs(runners);
        expectRoundSucceeded(first, "create");
        const { objects, perStack, requests, createdTwice } = await expectEachObjectCreatedOnce(
          emulator,
          subOrganizations,
        );
        expect(perStack).toBe(3);
        const firstSeconds = (Date.now() - started) / 1000;

        const second = await runDeployJobs(runners);
        expectRoundSucceeded(second, "same");
        await expectNothingChanged(emulator, objects);

        console.log(
          [
            `stamp-out on ${label} (issue ${issue}):`,
            `  stacks: ${STACKS}, jobs at once: ${RUNNERS}, one job (deploy-job.sh) per stack`,
            `  objects on the platform: ${objects.length} (${perStack} per stack); create requests: ${requests.length}; created twice: ${createdTwice}`,
            `  second round: ${second.length} stacks unchanged, 0 requests`,
            `  rounds: first ${firstSeconds.toFixed(0)} s, second ${((Date.now() - started) / 1000 - firstSeconds).toFixed(0)} s`,
          ].join("\n"),
        );
      },
      ROUND_TIMEOUT_MS * 2,
    );
  });

  describe("locks and a killed runner", () => {
    let project: E2EProject;
    let backendUrl: string;

    beforeAll(async () => {
      backendUrl = await backend.createStore("gitops-state");
      project = await E2EProject.create({ backendClients: true });
      await project.writeFile(
        "index.js",
        carriersProgram({
          count: CARRIERS,
          name: 'pulumi.getStack() + "-" + String(i).padStart(2, "0")',
          firstIpv4Octet: 10,
        }),
      );
    });

    afterAll(async () => {
      await project?.remove();
    });

    /** A stack of the project on the backend, deploying to its own emulator. */
    async function stackOnBackend(name: string, emulatorOptions: { latencyMs?: number } = {}) {
      const emulator = await startEmulator({ apiKey, ...emulatorOptions });
      emulators.push(emulator);
      const extra = {
        ...backend.env,
        PULUMI_BACKEND_URL: backendUrl,
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      };
      const stack = await project.stack(name, {
        env: extra,
        config: {
          "voiceplatform:apiKey": { value: apiKey, secret: true },
          "voiceplatform:maxConcurrency": { value: String(CONCURRENCY) },
          "e2e:sipPassword": { value: sipPassword, secret: true },
        },
      });
      const env = { ...project.env(extra), PULUMI_HOME: project.pulumiHome };
      const exported = async () =>
        JSON.parse(
          (
            await run(cli!.pulumi, ["stack", "export", "--stack", name], {
              cwd: project.dir,
              env,
            })
          ).stdout,
        ) as ExportedDeployment;
      return {
        stack,
        emulator,
        env,
        exported,
        voicePlatform: (args: string[]) => runBin(project, env, args),
        /** The locks the backend holds for this stack, read as preflight reads them. */
        locks: () => readLocks(backendUrl, lockKeyPrefixes(backendUrl, PROJECT, name)),
        carriers: async () => (await emulator.state()).organizations.org_emulator?.carriers ?? [],
      };
    }

    test("a second `pulumi up` is refused while one runs; preflight reports it, recover refuses", async () => {
      const live = await stackOnBackend("live");
      await live.emulator.addFault({
        method: "POST",
        path: "/organization/sip",
        // The first creates are held; the rest go through once they return.
        times: CONCURRENCY,
        action: { kind: "latency", ms: HOLD_MS },
      });
      const { child: up, output, exited: upExited } = spawnUp("live", project.dir, live.env);
      const exited = upExited.then(({ code }) => code);

      // Wait until creates are held at the platform and recorded as pending in the checkpoint.
      const started = Date.now();
      let pendingUrns: string[] = [];
      while (pendingUrns.length < CONCURRENCY) {
        if (up.exitCode !== null) throw new Error(`pulumi up ended too early:\n${output()}`);
        if (Date.now() - started > 120_000) throw new Error(`no creates in flight:\n${output()}`);
        await sleep(250);
        pendingUrns = ((await live.exported()).deployment.pending_operations ?? [])
          .filter((op) => op.type === "creating")
          .map((op) => op.resource.urn);
      }
      const locks = await live.locks();
      expect(locks).toEqual([expect.objectContaining({ pid: up.pid })]);

      // The backend refuses a second update of the stack, naming the running one.
      const second = await run(
        cli!.pulumi,
        ["up", "--yes", "--non-interactive", "--stack", "live"],
        { cwd: project.dir, env: live.env },
      ).then(
        () => ({ code: 0, text: "" }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          text: `${error.stdout}\n${error.stderr}`,
        }),
      );
      expect(second.code).not.toBe(0);
      expect(second.text).toMatch("currently locked");
      expect(second.text).toMatch("by 1 lock(s)");
      expect(second.text).toMatch(`(pid ${up.pid})`);
      const { refusedUpNames } = BACKENDS[kind];
      if (refusedUpNames !== undefined) expect(second.text).toMatch(refusedUpNames);

      const checked = await live.voicePlatform(["preflight", "--stack", "live"]);
      expect(checked.code).toBe(3);
      expect(checked.stdout).toMatch("Stack live is locked");
      expect(checked.stdout).toMatch("update in progress");
      expect(checked.stdout).toMatch(`(pid ${up.pid}), locked `);
      expect(checked.stdout).toMatch("still running on this machine");
      expect(checked.stdout).not.toMatch("npx pulumi-voice-platform recover");

      const forget = pendingUrns.flatMap((urn) => ["--forget", urn]);
      for (const extra of [[], ["--cancel-stale-lock"]]) {
        const refused = await live.voicePlatform([
          "recover",
          "--stack",
          "live",
          ...forget,
          ...extra,
        ]);
        expect(refused.code).toBe(3);
        expect(refused.stderr).toMatch("refused, nothing was changed");
        expect(refused.stderr).toMatch(`(pid ${up.pid})`);
        expect(refused.stderr).toMatch("never releases the lock");
        expect(refused.stderr).toMatch("running process");
        expect(await live.locks()).toEqual(locks);
      }
      // The checks ran while the update did: otherwise they proved nothing.
      expect(up.exitCode).toBeNull();
      await live.emulator.clearFaults();

      expect(await exited).toBe(0);
      const carriers = await live.carriers();
      expect(carriers).toHaveLength(CARRIERS);
      expect(new Set(carriers.map((c) => c.name)).size).toBe(CARRIERS);
      // One create per carrier: the refused update and the preview phases sent nothing.
      expect((await live.emulator.requests()).filter(isCreate)).toHaveLength(CARRIERS);
      expect(await live.locks()).toEqual([]);
      expect(await live.voicePlatform(["preflight", "--stack", "live"])).toMatchObject({
        code: 0,
      });

      console.log(
        [
          `concurrent update on ${label} (issue ${issue}):`,
          `  the second \`pulumi up\` exited ${second.code}; ${locksAre} read while it ran: ${locks.length}`,
          ...second.text
            .split("\n")
            .filter((line) => /locked|created by/.test(line))
            .map((line) => `    ${line.trim()}`),
          "  preflight exited 3:",
          ...checked.stdout
            .trimEnd()
            .split("\n")
            .map((line) => `    ${line}`),
        ].join("\n"),
      );
    });

    test("a runner killed mid-update: preflight lists its creates, recover settles them, nothing is created twice", async () => {
      const dev = await stackOnBackend("dev", { latencyMs: LATENCY_MS });
      const { inFlightWhenKilled } = await killUpDuringCreates({
        project,
        env: dev.env,
        emulator: dev.emulator,
        latencyMs: LATENCY_MS,
        isCreate,
        ready: (posts) => {
          const done = posts.filter((r) => r.status !== null).length;
          return done >= CONCURRENCY - 1 && posts.length - done >= 2;
        },
      });
      const onPlatform = await dev.carriers();
      expect(onPlatform.length).toBeLessThan(CARRIERS);
      // The killed CLI's lock stays behind.
      const locksAfterKill = (await dev.locks()).length;
      expect(locksAfterKill).toBe(1);

      const exported = await dev.exported();
      const pendingUrns = (exported.deployment.pending_operations ?? [])
        .filter((op) => op.type === "creating")
        .map((op) => op.resource.urn);
      const recordedBefore = (exported.deployment.resources ?? []).filter((r) => r.type === TYPE);
      expect(pendingUrns.length).toBeGreaterThan(0);

      const failed = await dev.voicePlatform(["preflight", "--stack", "dev"]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(
        `${pendingUrns.length} interrupted operation(s) on pulumi-voice-platform resources`,
      );
      for (const urn of pendingUrns) {
        expect(failed.stdout).toMatch(`create of SipCarrier "${urn.split("::").at(-1)!}"`);
      }
      expect(failed.stdout).toMatch("no process with that pid");
      expect(failed.stdout + failed.stderr).not.toMatch(sipPassword);

      // The ids come from the ledger the provider wrote beside the state: none is typed here.
      const { assignments, forget } = recoverArguments(pendingUrns, onPlatform);
      for (const assignment of assignments) {
        expect(failed.stdout).toContain(`The ledger holds the platform's answer`);
        expect(failed.stdout).toContain(assignment.slice(assignment.lastIndexOf("=") + 1));
      }
      const locked = await dev.voicePlatform(["recover", "--stack", "dev", ...forget]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch("a stopped run's lock");
      expect(locked.stderr).toMatch("Add --cancel-stale-lock");

      const recovered = await dev.voicePlatform([
        "recover",
        "--stack",
        "dev",
        "--cancel-stale-lock",
        ...forget,
      ]);
      expect(recovered.stdout.match(/from the ledger/g) ?? []).toHaveLength(assignments.length);
      // recover says nothing on stderr; on S3 the AWS SDK adds its own warning on Node.js 20.
      expect({ ...recovered, stderr: withoutAwsSdkNodeWarning(recovered.stderr) }).toMatchObject({
        code: 0,
        stderr: "",
      });
      expect(recovered.stdout).toMatch("Released the lock");
      expect(recovered.stdout).toMatch("interrupted run");
      expect(await dev.locks()).toEqual([]);
      expect(await dev.voicePlatform(["preflight", "--stack", "dev"])).toMatchObject({ code: 0 });

      const toCreate = CARRIERS - recordedBefore.length - assignments.length;
      const requestsBefore = (await dev.emulator.requests()).length;
      const final = await upWithPreview(dev.stack, recorder().options);
      expect(final.summary.resourceChanges).toEqual({
        same: 1 + recordedBefore.length + assignments.length,
        ...(toCreate > 0 ? { create: toCreate } : {}),
      });
      // The preview phase sent nothing; the update one create per carrier it lacked.
      expect((await dev.emulator.requests()).length - requestsBefore).toBe(toCreate);
      const carriers = await dev.carriers();
      const createdTwice = carriers.length - new Set(carriers.map((c) => c.name)).size;
      expect(createdTwice).toBe(0);
      expect(carriers).toHaveLength(CARRIERS);

      console.log(
        [
          `killed runner on ${label} (issue ${issue}):`,
          `  carriers: ${CARRIERS}; create requests in flight when the CLI was killed: ${inFlightWhenKilled}`,
          `  recorded by the killed run: ${recordedBefore.length}; pending creates listed by preflight: ${pendingUrns.length}`,
          `  recovered with the platform's ids, from the ledger alone: ${assignments.length}; forgotten: ${forget.length / 2}; created by the next up: ${toCreate}`,
          `  ${locksAre} after the kill: ${locksAfterKill}, after recover: 0; carriers at the end: ${carriers.length}; created twice: ${createdTwice}`,
        ].join("\n"),
      );
    });
  });
}
