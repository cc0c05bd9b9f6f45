/**
 * Issue 19 on the real engine: while a `pulumi up` runs, its checkpoint already lists its in-flight
 * creates as pending operations, as a killed run's does. The emulator holds every create (a
 * latency fault, released once the checks are done), so the `up` is alive with its creates in
 * flight while `preflight` and `recover` run. preflight must exit 3 naming the lock's holder and print no recover command;
 * `recover --forget` (also with --cancel-stale-lock) must refuse and leave the lock in place; the
 * `up` then finishes and every carrier exists exactly once, on the platform and in state.
 */
import { readFileSync } from "node:fs";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../../provider/emulator";
import { describeE2E, E2EProject } from "./harness";
import {
  lockFiles as backendLocks,
  sleep,
  voicePlatform as runBin,
  type ExportedDeployment,
  carriersProgram,
  spawnUp,
} from "./interrupted-run";

const API_KEY = "e2e-live-lock-api-key-2c81d";
const SIP_PASSWORD = "e2e-live-lock-sip-password-Qm41z";
const CARRIERS = 3;
/**
 * The most the creates are held, short of the provider's 60 s deadline of one
 * attempt: the test releases them (clearing the faults) as soon as its checks are done, so a slow,
 * loaded machine gets the time its checks need and a quiet one does not wait it out.
 */
const HOLD_MS = 50_000;
const TYPE = "pulumi-nodejs:dynamic/voiceplatform:SipCarrier";

const PROGRAM_JS = carriersProgram({
  count: CARRIERS,
  name: '"live-" + i',
  firstIpv4Octet: 40,
  phonePrefix: "+1415556",
});

describeE2E("recover never fights a live update (issue 19)", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let env: Record<string, string>;

  const voicePlatform = (args: string[]) => runBin(project, env, args);
  const lockFiles = () => backendLocks(project);
  const isCreate = (r: RequestLogEntry) => r.method === "POST" && r.path === "/organization/sip";
  const exported = async () =>
    JSON.parse(await project.exportStackText("dev")) as ExportedDeployment;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create();
    await project.writeFile("index.js", PROGRAM_JS);
    const platform = {
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    };
    await project.stack("dev", {
      env: platform,
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "e2e:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
    env = { ...project.env(platform), PULUMI_HOME: project.pulumiHome };
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("preflight exits 3 and recover refuses while `pulumi up` runs; the up then creates each object once", async () => {
    await emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: CARRIERS,
      action: { kind: "latency", ms: HOLD_MS },
    });

    // `pulumi up --yes` as users run it, preview phase included.
    const { child: up, output, exited: upExited } = spawnUp("dev", project.dir, env);
    const exited = upExited.then(({ code }) => code);

    // Every create is at the platform, held, and recorded as pending in the checkpoint.
    const started = Date.now();
    let pendingUrns: string[] = [];
    for (;;) {
      if (up.exitCode !== null) throw new Error(`pulumi up ended too early:\n${output()}`);
      if (Date.now() - started > 120_000) throw new Error(`no creates in flight:\n${output()}`);
      const held = (await emulator.requests()).filter((r) => isCreate(r) && r.status === null);
      if (held.length === CARRIERS) {
        pendingUrns = ((await exported()).deployment.pending_operations ?? [])
          .filter((op) => op.type === "creating")
          .map((op) => op.resource.urn);
        if (pendingUrns.length === CARRIERS) break;
      }
      await sleep(200);
    }
    const locks = lockFiles();
    expect(locks).toHaveLength(1);
    const holder = JSON.parse(readFileSync(locks[0]!, "utf8")) as { pid: number };
    expect(holder.pid).toBe(up.pid);

    // preflight: locked by an update in progress, exit 3, no recover command.
    const checksStarted = Date.now();
    const checked = await voicePlatform(["preflight", "--stack", "dev"]);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toMatch("Stack dev is locked");
    expect(checked.stdout).toMatch("update in progress");
    expect(checked.stdout).toMatch(`(pid ${up.pid}), locked `);
    expect(checked.stdout).toMatch("still running on this machine");
    expect(checked.stdout).toMatch("Wait for it to finish");
    expect(checked.stdout).toMatch("do not run recover");
    expect(checked.stdout).not.toMatch("npx pulumi-voice-platform recover");
    expect(checked.stdout).not.toMatch("A `pulumi up` stopped");

    // recover --forget of the in-flight creates: refused, with or without --cancel-stale-lock.
    const forget = pendingUrns.flatMap((urn) => ["--forget", urn]);
    for (const extra of [[], ["--cancel-stale-lock"]]) {
      const refused = await voicePlatform(["recover", "--stack", "dev", ...forget, ...extra]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch("refused, nothing was changed");
      expect(refused.stderr).toMatch(`(pid ${up.pid})`);
      expect(refused.stderr).toMatch("never releases the lock");
      expect(refused.stderr).toMatch("running process");
      expect(refused.stdout).toBe("");
      expect(lockFiles()).toEqual(locks);
    }
    const checksMs = Date.now() - checksStarted;
    // The checks above ran while the creates were still held: otherwise they proved nothing.
    expect(up.exitCode).toBeNull();
    expect(
      (await emulator.requests()).filter((r) => isCreate(r) && r.status === null),
    ).toHaveLength(CARRIERS);
    await emulator.clearFaults();

    // The up finishes: every carrier once on the platform and once in state, nothing pending.
    expect(await exited).toBe(0);
    const carriers = (await emulator.state()).organizations.org_emulator?.carriers ?? [];
    expect(carriers.map((c) => c.name).sort()).toEqual(
      Array.from({ length: CARRIERS }, (_, i) => `live-${i}`),
    );
    expect((await emulator.requests()).filter(isCreate)).toHaveLength(CARRIERS);
    const after = await exported();
    expect(after.deployment.pending_operations ?? []).toEqual([]);
    const recorded = (after.deployment.resources ?? []).filter((r) => r.type === TYPE);
    expect(recorded.map((r) => r.id).sort()).toEqual(carriers.map((c) => c.id).sort());
    expect(lockFiles()).toEqual([]);
    expect(await voicePlatform(["preflight", "--stack", "dev"])).toMatchObject({ code: 0 });
    expect(checked.stdout + checked.stderr).not.toMatch(SIP_PASSWORD);

    console.log(
      [
        "live update lock (issue 19):",
        `  carriers: ${CARRIERS}, each create held by the emulator until the checks were done`,
        `  preflight and two recover runs took ${checksMs} ms, all while the up ran`,
        `  create requests: ${CARRIERS}; carriers on the platform: ${carriers.length}; in state: ${recorded.length}`,
        "  preflight printed:",
        ...checked.stdout
          .trimEnd()
          .split("\n")
          .map((text) => `    ${text}`),
      ].join("\n"),
    );
  });
});
