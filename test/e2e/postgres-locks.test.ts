/**
 * Issue 22: locks and interrupted runs on Pulumi's PostgreSQL state backend, where a stack's lock
 * is a row of the state table rather than a file. While one runner's `pulumi up` runs, a second
 * `pulumi up` of the stack is refused by the backend, `preflight` reports the stack in use and
 * `recover` refuses it. A runner killed with SIGKILL while its creates are in flight leaves
 * pending creates and its lock row: `preflight` lists the creates, `recover` settles them and
 * releases the dead runner's lock, and the next run creates nothing twice.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../emulator";
import { cli, E2EProject, recorder } from "./harness";
import {
  killUpDuringCreates,
  recoverArguments,
  sleep,
  voicePlatform as runBin,
  type ExportedDeployment,
  carriersProgram,
  spawnUp,
} from "./interrupted-run";
import { describeOnPostgres } from "./postgres";
import { lockKeyPrefixes, postgresLockRecords } from "../../provider/cli/backends/postgres-locks";
import { upWithPreview } from "../support/pulumi-up";
import { startPostgres, type RunningPostgres } from "../support/postgres";

const run = promisify(execFile);

const API_KEY = "e2e-postgres-locks-api-key-5d0e";
const SIP_PASSWORD = "e2e-postgres-locks-sip-password-Hq27v";
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

/** `count` carriers named `<stack>-NN`, on one SIP gateway each. */
const program = (count: number) =>
  carriersProgram({
    count,
    name: 'pulumi.getStack() + "-" + String(i).padStart(2, "0")',
    firstIpv4Octet: 10,
  });

describeOnPostgres("locks and a killed runner on a PostgreSQL backend (issue 22)", () => {
  let postgres: RunningPostgres;
  let backendUrl: string;
  let project: E2EProject;
  const emulators: RunningEmulator[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    backendUrl = await postgres.createDatabase("gitops_state");
    project = await E2EProject.create();
    await project.writeFile("index.js", program(CARRIERS));
  });

  afterAll(async () => {
    for (const emulator of emulators) await emulator.close();
    await project?.remove();
    postgres?.stop();
  });

  /** A stack of the project on the PostgreSQL backend, deploying to its own emulator. */
  async function stackOnPostgres(name: string, emulatorOptions: { latencyMs?: number } = {}) {
    const emulator = await startEmulator({ apiKey: API_KEY, ...emulatorOptions });
    emulators.push(emulator);
    const extra = {
      PULUMI_BACKEND_URL: backendUrl,
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    };
    const stack = await project.stack(name, {
      env: extra,
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "voiceplatform:maxConcurrency": { value: String(CONCURRENCY) },
        "e2e:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
    const env = { ...project.env(extra), PULUMI_HOME: project.pulumiHome };
    const exported = async () =>
      JSON.parse(
        (await run(cli!.pulumi, ["stack", "export", "--stack", name], { cwd: project.dir, env }))
          .stdout,
      ) as ExportedDeployment;
    return {
      stack,
      emulator,
      env,
      exported,
      voicePlatform: (args: string[]) => runBin(project, env, args),
      /** The lock rows the backend holds for this stack. */
      locks: () => postgresLockRecords(backendUrl, lockKeyPrefixes(backendUrl, PROJECT, name)),
      carriers: async () =>
        (await emulator.client.state()).organizations.org_emulator?.carriers ?? [],
    };
  }

  const isCreate = (r: RequestLogEntry) => r.method === "POST" && r.path === "/organization/sip";

  test("a second `pulumi up` is refused while one runs; preflight reports it, recover refuses", async () => {
    const live = await stackOnPostgres("live");
    await live.emulator.client.addFault({
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
    const second = await run(cli!.pulumi, ["up", "--yes", "--non-interactive", "--stack", "live"], {
      cwd: project.dir,
      env: live.env,
    }).then(
      () => ({ code: 0, text: "" }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        text: `${error.stdout}\n${error.stderr}`,
      }),
    );
    expect(second.code).not.toBe(0);
    expect(second.text).toMatch("the stack is currently locked by 1 lock(s)");
    expect(second.text).toMatch(`(pid ${up.pid})`);
    expect(second.text).toMatch("postgres://****:****@127.0.0.1");

    const checked = await live.voicePlatform(["preflight", "--stack", "live"]);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toMatch("Stack live is locked by an update in progress");
    expect(checked.stdout).toMatch(`(pid ${up.pid}), locked `);
    expect(checked.stdout).toMatch("that process is still running on this machine");
    expect(checked.stdout).not.toMatch("npx pulumi-voice-platform recover");

    const forget = pendingUrns.flatMap((urn) => ["--forget", urn]);
    for (const extra of [[], ["--cancel-stale-lock"]]) {
      const refused = await live.voicePlatform(["recover", "--stack", "live", ...forget, ...extra]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch("refused, nothing was changed");
      expect(refused.stderr).toMatch(`(pid ${up.pid})`);
      expect(refused.stderr).toMatch("never releases the lock of a running process");
      expect(await live.locks()).toEqual(locks);
    }
    // The checks ran while the update did: otherwise they proved nothing.
    expect(up.exitCode).toBeNull();
    await live.emulator.client.clearFaults();

    expect(await exited).toBe(0);
    const carriers = await live.carriers();
    expect(carriers).toHaveLength(CARRIERS);
    expect(new Set(carriers.map((c) => c.name)).size).toBe(CARRIERS);
    // One create per carrier: the refused update and the preview phases sent nothing.
    expect((await live.emulator.client.requests()).filter(isCreate)).toHaveLength(CARRIERS);
    expect(await live.locks()).toEqual([]);
    expect(await live.voicePlatform(["preflight", "--stack", "live"])).toMatchObject({ code: 0 });

    console.log(
      [
        "concurrent update on PostgreSQL (issue 22):",
        `  the second \`pulumi up\` exited ${second.code}:`,
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
    const dev = await stackOnPostgres("dev", { latencyMs: LATENCY_MS });
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
    // The killed CLI's lock row stays behind.
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
    expect(failed.stdout).toMatch("no process with that pid runs on this machine any more");
    expect(failed.stdout + failed.stderr).not.toMatch(SIP_PASSWORD);

    const { assignments, forget } = recoverArguments(pendingUrns, onPlatform);
    const locked = await dev.voicePlatform([
      "recover",
      "--stack",
      "dev",
      ...assignments,
      ...forget,
    ]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch("a stopped run's lock. Add --cancel-stale-lock to release it");

    const recovered = await dev.voicePlatform([
      "recover",
      "--stack",
      "dev",
      "--cancel-stale-lock",
      ...assignments,
      ...forget,
    ]);
    expect(recovered).toMatchObject({ code: 0, stderr: "" });
    expect(recovered.stdout).toMatch("Released the lock the interrupted run left on the stack");
    expect(await dev.locks()).toEqual([]);
    expect(await dev.voicePlatform(["preflight", "--stack", "dev"])).toMatchObject({ code: 0 });

    const toCreate = CARRIERS - recordedBefore.length - assignments.length;
    const requestsBefore = (await dev.emulator.client.requests()).length;
    const final = await upWithPreview(dev.stack, recorder().options);
    expect(final.summary.resourceChanges).toEqual({
      same: 1 + recordedBefore.length + assignments.length,
      ...(toCreate > 0 ? { create: toCreate } : {}),
    });
    // The preview phase sent nothing; the update one create per carrier it lacked.
    expect((await dev.emulator.client.requests()).length - requestsBefore).toBe(toCreate);
    const carriers = await dev.carriers();
    const createdTwice = carriers.length - new Set(carriers.map((c) => c.name)).size;
    expect(createdTwice).toBe(0);
    expect(carriers).toHaveLength(CARRIERS);

    console.log(
      [
        "killed runner on PostgreSQL (issue 22):",
        `  carriers: ${CARRIERS}; create requests in flight when the CLI was killed: ${inFlightWhenKilled}`,
        `  recorded by the killed run: ${recordedBefore.length}; pending creates listed by preflight: ${pendingUrns.length}`,
        `  recovered with the platform's ids: ${assignments.length}; forgotten: ${forget.length / 2}; created by the next up: ${toCreate}`,
        `  lock rows after the kill: ${locksAfterKill}, after recover: 0; carriers at the end: ${carriers.length}; created twice: ${createdTwice}`,
      ].join("\n"),
    );
  });
});
