/**
 * The plugin's providers end as the engine lets go of them (issue 38), driven over gRPC as the
 * engine drives them, against an emulator that stores a create only while its client still waits
 * for the answer (a platform that rolls back on a dropped connection):
 *
 * - a launcher killed mid-create: its provider's calls in flight are cut and its waiting calls
 *   never start, so nothing is created and nothing more is sent, while another provider of the
 *   same shared server carries on;
 * - the engine's Cancel, through a launcher and through the npm bin (a process per provider):
 *   calls in flight finish and return their ids, and a call after it is refused, saying so;
 * - a plugin process whose engine is gone ends by itself.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { launcherPlugin } from "../support/launcher-plugin";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import {
  ProviderCallError,
  startProviderProcess,
  type ProviderProcess,
} from "../support/provider-process";

const ENGINE = "127.0.0.1:1";
const SIP = "/organization/sip";
const carrierUrn = (name: string) =>
  `urn:pulumi:test::lifetime::voiceplatform:index:SipCarrier::${name}`;
const carrier = (name: string) => ({
  name,
  registerUsername: "trunk-user",
  registerPassword: "sip-password-2024",
  gateways: [{ ipv4: "203.0.113.10", port: 5060, inbound: true }],
});

let emulator: RunningEmulator;
let project: string;
let scratch: string;
let launcher: string;
let npmBin: string;
const started: ProviderProcess[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "pvp-lifetime-"));
  [emulator, project] = await Promise.all([
    startEmulator({ apiKey: "key-of-the-lifetime-test" }),
    createFixtureProject({ name: "provider-lifetime-test" }),
  ]);
  ({ launcher, npmBin } = await launcherPlugin(scratch, project));
}, 180_000);

beforeEach(() => emulator.reset());

afterEach(async () => {
  await Promise.all(started.splice(0).map((plugin) => plugin.close()));
});

afterAll(async () => {
  await emulator?.stop();
  if (project !== undefined) await removeFixtureProject(project);
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

/** A provider as the engine starts one: through the launcher (shared) or the npm bin (its own process). */
async function startProvider(
  how: "launcher" | "npm bin",
  settings: Record<string, string> = {},
): Promise<ProviderProcess> {
  const plugin = await startProviderProcess(
    project,
    // A runtime folder of the test's own: the run's server is this test's alone.
    { XDG_RUNTIME_DIR: scratch },
    { executable: how === "launcher" ? launcher : npmBin, engineAddress: ENGINE },
  );
  started.push(plugin);
  await plugin.configureProvider({
    apiKey: emulator.apiKey,
    baseUrl: emulator.baseUrl,
    campaignsBaseUrl: emulator.campaignsBaseUrl,
    timeoutSeconds: "120",
    version: "0.1.0",
    ...settings,
  });
  return plugin;
}

const holdCreates = (ms = 60_000) =>
  emulator.addFault({ method: "POST", path: SIP, action: { kind: "latency", ms } });

/** Resolves once `count` creates have reached the emulator and wait for their answers. */
async function createsHeld(count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const held = (await emulator.requests()).filter((r) => r.path === SIP && r.status === null);
    if (held.length >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} creates never reached the emulator`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const carriersStored = async () =>
  (await emulator.state()).organizations.org_emulator?.carriers ?? [];

/** How a call ended: its id, or its error. */
function outcomeOf(call: Promise<{ id: string }>): Promise<{ id?: string; error?: unknown }> {
  return call.then(
    ({ id }) => ({ id }),
    (error: unknown) => ({ error }),
  );
}

test("launchers killed mid-create: nothing is created or sent for their providers; the server's other provider carries on", async () => {
  // One create of each provider in flight, one waiting for the only slot of its provider.
  const doomed = await Promise.all(
    [1, 2].map(() => startProvider("launcher", { maxConcurrency: "1" })),
  );
  const survivor = await startProvider("launcher");
  await holdCreates();
  const calls = doomed.flatMap((plugin, n) =>
    ["in-flight", "waiting"].map((what) =>
      outcomeOf(plugin.create(carrierUrn(`${what}-${n}`), carrier(`${what} of ${n}`))),
    ),
  );
  await createsHeld(2);
  for (const plugin of doomed) process.kill(plugin.pid, "SIGKILL");
  const outcomes = await Promise.all(calls);
  // The engine records these as failed: no id came back.
  expect(outcomes.map((o) => o.id)).toEqual([undefined, undefined, undefined, undefined]);

  // Clearing the faults lets any request still connected be processed at once. The survivor's
  // create after that is answered only once the emulator has handled everything before it.
  await emulator.clearFaults();
  const { id } = await survivor.create(carrierUrn("survivor"), carrier("survivor"));
  expect((await carriersStored()).map((c) => c.id)).toEqual([id]);
  const posts = (await emulator.requests()).filter((r) => r.path === SIP);
  // The two cut in flight (never answered) and the survivor's; the waiting ones were never sent.
  expect(posts.map((r) => r.status)).toEqual([null, null, 201]);
});

describe.each(["launcher", "npm bin"] as const)("the engine's Cancel (%s)", (how) => {
  test("a create in flight finishes and returns its id; a create after it is refused, saying nothing was sent", async () => {
    const plugin = await startProvider(how);
    await holdCreates(1_500);
    const creating = plugin.create(carrierUrn("in-flight"), carrier("in flight"));
    await createsHeld(1);
    await plugin.cancel();
    const { id } = await creating;
    expect((await carriersStored()).map((c) => c.id)).toEqual([id]);

    const refused = await plugin.create(carrierUrn("later"), carrier("later")).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProviderCallError);
    expect((refused as ProviderCallError).details).toMatch(
      /^create SIP carrier "later" failed: not sent: the engine cancelled the deployment \(Ctrl-C, or the engine closing this provider\) \(POST http:\/\/127\.0\.0\.1:\d+\/organization\/sip\)\. Nothing was sent for it, so nothing was created or changed on the platform: run `pulumi up` again to carry on$/,
    );
    expect((await emulator.requests()).filter((r) => r.path === SIP)).toHaveLength(1);
    // Previews, checks and the rest still answer: they send nothing.
    const preview = await plugin.create(carrierUrn("previewed"), carrier("previewed"), {
      preview: true,
    });
    expect(preview.properties.name).toBe("previewed");
  });
});

test("Cancel is one provider's: another provider of the same shared server still creates", async () => {
  const cancelled = await startProvider("launcher");
  const other = await startProvider("launcher");
  await cancelled.cancel();
  const { id } = await other.create(carrierUrn("other"), carrier("other"));
  expect((await carriersStored()).map((c) => c.id)).toEqual([id]);
});

test("a plugin process whose engine is gone ends by itself", async () => {
  // A stand-in engine: starts the plugin, reads its port, prints the plugin's pid and exits.
  const engine = spawn(
    process.execPath,
    [
      "-e",
      `const plugin = require("node:child_process").spawn(process.argv[1], ["${ENGINE}"], { stdio: ["ignore", "pipe", "inherit"] });
       plugin.stdout.once("data", () => { console.log(plugin.pid); process.exit(0); });`,
      npmBin,
    ],
    { cwd: project, stdio: ["ignore", "pipe", "inherit"] },
  );
  let printed = "";
  engine.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  await new Promise((resolve) => engine.on("exit", resolve));
  const pid = Number(printed.trim());
  expect(pid).toBeGreaterThan(0);
  const deadline = Date.now() + 30_000;
  while (isRunning(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const orphanLeft = isRunning(pid);
  if (orphanLeft) process.kill(pid, "SIGKILL");
  expect(orphanLeft).toBe(false);
  // Past its own 30 s wait, so that wait's verdict is the one reported.
}, 60_000);

/** Whether `pid` runs (a zombie waiting for its new parent to reap it does not). Linux. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
