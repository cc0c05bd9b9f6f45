/**
 * Issue 15 on the real engine: `pulumi up` of 20 SIP carriers against a slow platform (emulator
 * latency) is killed with SIGKILL while creates are in flight, as a cancelled CI job or an
 * out-of-memory runner does. Then `preflight` (the package's own bin, installed from npm pack)
 * must fail naming every interrupted create; `recover` records them with the ids the emulator
 * holds; preflight passes; a preview shows no change and the next `up` creates nothing twice.
 *
 * Only the CLI process is killed, as in the measurement that opened the issue: the provider
 * process it started is orphaned and finishes the creates it had begun, which is how objects end
 * up on the platform without being in state. Once the platform is quiet, those orphans are ended.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator, type StoredCarrier } from "../../provider/emulator";
import { cli, describeE2E, E2EProject, recorder } from "./harness";
import {
  checkpointText as storedCheckpoint,
  killUpDuringCreates,
  lockFiles as backendLocks,
  recoverArguments,
  voicePlatform as runBin,
  carriersProgram,
} from "./interrupted-run";
import { upWithPreview } from "../support/pulumi-up";

const run = promisify(execFile);

const API_KEY = "e2e-interrupted-api-key-7f3a1c";
const SIP_PASSWORD = "e2e-interrupted-sip-password-Xw83q";
const CARRIERS = 20;
const LATENCY_MS = 1500;
const CONCURRENCY = 4;
const TYPE = "pulumi-nodejs:dynamic/voiceplatform:SipCarrier";

const PROGRAM_JS = carriersProgram({
  count: CARRIERS,
  name: '"carrier-" + String(i).padStart(2, "0")',
  firstIpv4Octet: 10,
  phonePrefix: "+1415555",
});

const urnOf = (name: string) => `urn:pulumi:dev::voice-platform-e2e::${TYPE}::${name}`;

describeE2E("an interrupted `pulumi up` recovered without duplicates (issue 15)", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let stack: Stack;
  let env: Record<string, string>;

  const voicePlatform = (args: string[]) => runBin(project, env, args);
  const lockFiles = () => backendLocks(project);
  const checkpointText = () => storedCheckpoint(project, "voice-platform-e2e");

  async function carriersOnPlatform(): Promise<StoredCarrier[]> {
    const state = await emulator.state();
    return state.organizations.org_emulator?.carriers ?? [];
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, latencyMs: LATENCY_MS });
    project = await E2EProject.create();
    await project.writeFile("index.js", PROGRAM_JS);
    const platform = {
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    };
    stack = await project.stack("dev", {
      env: platform,
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "voiceplatform:maxConcurrency": { value: String(CONCURRENCY) },
        "e2e:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
    env = { ...project.env(platform), PULUMI_HOME: project.pulumiHome };
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("kill, preflight, recover, preflight, preview and up: nothing created twice", async () => {
    // The platform never answers the first create and never stores it: an interrupted create
    // that did not reach the platform, for --forget.
    await emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "hang" },
    });

    // 1. `pulumi up`, killed with SIGKILL once some creates are recorded and others are in flight.
    const { inFlightWhenKilled } = await killUpDuringCreates({
      project,
      env,
      emulator,
      latencyMs: LATENCY_MS,
      isCreate: (r) => r.method === "POST" && r.path === "/organization/sip",
      ready: (posts) => {
        const done = posts.filter((r) => r.status !== null).length;
        return done >= CONCURRENCY - 1 && posts.length - done >= 2;
      },
    });
    const onPlatform = await carriersOnPlatform();
    expect(onPlatform.length).toBeLessThan(CARRIERS);
    expect(new Set(onPlatform.map((c) => c.name)).size).toBe(onPlatform.length);

    // The killed CLI left its lock on the file backend; export works through it (preflight below).
    const locksAfterKill = lockFiles().length;
    expect(locksAfterKill).toBe(1);

    // 2. preflight fails and names every interrupted create.
    const exported = JSON.parse(await project.exportStackText("dev")) as {
      deployment: {
        resources?: { urn: string; id?: string }[];
        pending_operations?: { type: string; resource: { urn: string; type: string } }[];
      };
    };
    const pendingUrns = (exported.deployment.pending_operations ?? [])
      .filter((op) => op.type === "creating")
      .map((op) => op.resource.urn);
    const recordedBefore = (exported.deployment.resources ?? []).filter((r) =>
      r.urn.includes(TYPE),
    );
    expect(pendingUrns.length).toBeGreaterThan(0);
    expect(exported.deployment.pending_operations?.every((op) => op.resource.type === TYPE)).toBe(
      true,
    );

    const failed = await voicePlatform(["preflight", "--stack", "dev"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(
      `${pendingUrns.length} interrupted operation(s) on pulumi-voice-platform resources`,
    );
    // What the platform answered is in the ledger the provider wrote as the answers came: those
    // need no search; the hung create (sent, never answered) is named as one that may exist.
    const answeredIds = new Map(onPlatform.map((c) => [c.name, c.id]));
    for (const urn of pendingUrns) {
      const name = urn.split("::").at(-1)!;
      expect(failed.stdout).toMatch(`create of SipCarrier "${name}" (dynamic resource)`);
      const id = answeredIds.get(name);
      if (id !== undefined) {
        expect(failed.stdout).toContain(`'${urn}=${id}'`);
      } else {
        expect(failed.stdout).toMatch(`'${urn}=<carrier id>'`);
        expect(failed.stdout).toMatch(`name: ${name}\n`);
      }
    }
    expect(failed.stdout).toContain(
      "no answer arrived: it may exist on the platform without an id",
    );
    expect(failed.stdout).toMatch(
      "npx pulumi-voice-platform recover --stack dev --cancel-stale-lock",
    );
    // The killed CLI's lock: its holder no longer runs, and preflight says so.
    expect(failed.stdout).toMatch("no process with that pid");
    expect(failed.stdout + failed.stderr).not.toMatch(SIP_PASSWORD);

    // 3. recover: the ids the emulator holds are those the ledger gives; a pending create it never
    // got is forgotten.
    const { assignments, forget } = recoverArguments(pendingUrns, onPlatform);
    // The hung create, plus any create whose request the kill abandoned before the platform
    // stored it (the emulator drops a request whose client went away): how many is timing.
    expect(forget.length).toBeGreaterThanOrEqual(2); // at least one "--forget <urn>" pair
    // Without --cancel-stale-lock a locked stack is refused, even with a dead holder.
    const locked = await voicePlatform(["recover", "--stack", "dev", ...assignments, ...forget]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch("the stack is locked");
    expect(locked.stderr).toMatch("a stopped run's lock");
    expect(locked.stderr).toMatch("Add --cancel-stale-lock");
    expect(lockFiles()).toHaveLength(1);

    const refused = await voicePlatform([
      "recover",
      "--stack",
      "dev",
      "--cancel-stale-lock",
      `${urnOf("carrier-99")}=x`,
      ...assignments,
      ...forget,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch("refused, nothing was changed");
    expect(refused.stderr).toMatch(`"${urnOf("carrier-99")}=x"`);
    expect(refused.stderr).toMatch("names no pending create");

    // No id typed: recover takes each answered create's id from the ledger.
    const recovered = await voicePlatform([
      "recover",
      "--stack",
      "dev",
      "--cancel-stale-lock",
      ...forget,
    ]);
    expect(recovered.stderr).toBe("");
    expect(recovered.code).toBe(0);
    expect(recovered.stdout.match(/from the ledger/g) ?? []).toHaveLength(assignments.length);
    const backupPath = /Saved the state being replaced to (.+)/.exec(recovered.stdout)?.[1];
    expect(backupPath).toBeDefined();
    const backup = readFileSync(backupPath!, "utf8");
    expect(JSON.parse(backup).deployment.pending_operations).toHaveLength(pendingUrns.length);
    // The stale lock made `stack import` refuse; recover released it and said so.
    expect(recovered.stdout).toMatch("Released the lock");
    expect(recovered.stdout).toMatch("interrupted run");
    expect(lockFiles()).toEqual([]);

    // 4. preflight passes.
    const passed = await voicePlatform(["preflight", "--stack", "dev"]);
    expect(passed).toMatchObject({ code: 0, stderr: "" });
    expect(passed.stdout).toMatch("Stack dev: no pending operation");

    // The state holds every recovered carrier with the platform's id, and no secret in plaintext.
    const state = await project.exportStackText("dev");
    for (const text of [state, backup, recovered.stdout, failed.stdout]) {
      expect(text).not.toMatch(SIP_PASSWORD);
      expect(text).not.toMatch(API_KEY);
    }
    expect(checkpointText()).not.toMatch(SIP_PASSWORD);
    const after = JSON.parse(state) as {
      deployment: {
        resources: { urn: string; id?: string; outputs?: Record<string, unknown> }[];
      };
    };
    // A recovered carrier is stored with the same fields and outputs as one the engine recorded.
    const shape = (r: (typeof after.deployment.resources)[number] | undefined) => [
      Object.keys(r ?? {}).sort(),
      Object.keys(r?.outputs ?? {}).sort(),
    ];
    const byEngine = after.deployment.resources.find((r) => r.urn === recordedBefore[0]?.urn);
    const firstRecovered = assignments[0]!.slice(0, assignments[0]!.lastIndexOf("="));
    const byRecover = after.deployment.resources.find((r) => r.urn === firstRecovered);
    expect(byEngine).toBeDefined();
    expect(shape(byRecover)).toEqual(shape(byEngine));
    for (const assignment of assignments) {
      const [urn, id] = [
        assignment.slice(0, assignment.lastIndexOf("=")),
        assignment.slice(assignment.lastIndexOf("=") + 1),
      ];
      const resource = after.deployment.resources.find((r) => r.urn === urn);
      expect(resource?.id).toBe(id);
      expect(resource?.outputs?.carrierId).toBe(id);
      expect(typeof resource?.outputs?.__provider).toBe("string");
      expect(resource?.outputs?.registerPassword).toEqual(
        expect.objectContaining({ ciphertext: expect.any(String) }),
      );
    }

    // 5. A preview changes nothing that was recorded; the next up creates only what never reached the platform.
    const preview = await stack.preview(recorder().options);
    const toCreate = forget.length / 2 + (CARRIERS - recordedBefore.length - pendingUrns.length);
    expect(preview.changeSummary).toEqual({
      same: 1 + recordedBefore.length + assignments.length,
      ...(toCreate > 0 ? { create: toCreate } : {}),
    });
    const final = await upWithPreview(stack, recorder().options);
    expect(final.summary.resourceChanges).toEqual({
      same: 1 + recordedBefore.length + assignments.length,
      ...(toCreate > 0 ? { create: toCreate } : {}),
    });
    const again = await stack.preview(recorder().options);
    expect(again.changeSummary).toEqual({ same: CARRIERS + 1 });

    // `stack import` encrypts a secret given in plaintext (recover only falls back to that when
    // it cannot reuse a stored ciphertext): a whole --show-secrets export imported back.
    const revealedState = await run(
      cli!.pulumi,
      ["stack", "export", "--show-secrets", "--stack", "dev"],
      {
        cwd: project.dir,
        env,
        maxBuffer: 64 << 20,
      },
    );
    expect(revealedState.stdout).toMatch(SIP_PASSWORD);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(cli!.pulumi, ["stack", "import", "--stack", "dev"], {
        cwd: project.dir,
        env,
      });
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`stack import: ${code}`)),
      );
      child.stdin.end(revealedState.stdout);
    });
    expect(checkpointText()).not.toMatch(SIP_PASSWORD);
    expect(checkpointText()).toMatch(/"ciphertext"/);

    const carriers = await carriersOnPlatform();
    const names = carriers.map((c) => c.name);
    const createdTwice = names.length - new Set(names).size;
    expect(createdTwice).toBe(0);
    expect(carriers).toHaveLength(CARRIERS);

    console.log(
      [
        "interrupted up (issue 15):",
        `  carriers declared: ${CARRIERS}, emulator latency ${LATENCY_MS} ms, provider concurrency ${CONCURRENCY}`,
        `  create requests in flight at the platform when the CLI was killed: ${inFlightWhenKilled}`,
        `  recorded in state by the killed run: ${recordedBefore.length}`,
        `  creates in flight (pending creates left in state): ${pendingUrns.length}`,
        `  objects on the platform after the kill: ${onPlatform.length}`,
        `  recovered with the platform's ids: ${assignments.length}, forgotten (never reached the platform): ${forget.length / 2}`,
        `  created by the next up: ${toCreate}; carriers on the platform at the end: ${carriers.length}`,
        `  created twice: ${createdTwice}`,
        `  lock files after the kill: ${locksAfterKill}, after recover: ${lockFiles().length}`,
      ].join("\n"),
    );
  });
});
