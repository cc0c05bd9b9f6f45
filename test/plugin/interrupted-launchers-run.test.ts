/**
 * Issue 38 under the real CLI, the plugin run as the Linux and macOS release runs it (the native
 * launcher per provider, one shared server per run), two explicit providers each declaring
 * carriers, against an emulator that stores a create only while its client still waits (a
 * platform that rolls back on a dropped connection):
 *
 * - one launcher killed (SIGKILL) once both providers' creates reached the platform, the other
 *   provider's launcher still serving: the engine records the killed provider's create as failed,
 *   with nothing pending, and its provider sends nothing more, so the platform stores nothing for
 *   it; the other create is recorded; the next `pulumi up` (its preview included) creates the
 *   missing carrier once;
 * - Ctrl-C once (SIGINT to the CLI, which sends the providers Cancel): the creates in flight
 *   finish and are recorded, the provider refuses the creates it had not started, nothing is left
 *   pending, and the next `up` creates only what is missing.
 *
 * @slow about a minute: four `pulumi up` runs and the launcher built with Go
 */
import { readFileSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { changeSummary, YamlStack } from "../languages/yaml-stack";
import { launcherPlugin } from "../support/launcher-plugin";
import { requirePulumiCli } from "../support/require-pulumi-cli";
import { sharedServersLeft } from "../support/shared-servers";

const SIP = "/organization/sip";
const PROVIDERS = ["one", "two"];

/** Two explicit providers, each with `perProvider` carriers and at most one call in flight. */
function program(emulator: RunningEmulator, perProvider: number): string {
  const lines = ["name: interrupted-launchers", "runtime: yaml", "resources:"];
  for (const provider of PROVIDERS) {
    lines.push(
      `  provider-${provider}:`,
      "    type: pulumi:providers:voiceplatform",
      "    properties:",
      `      apiKey: ${emulator.apiKey}`,
      `      baseUrl: ${emulator.baseUrl}`,
      `      campaignsBaseUrl: ${emulator.campaignsBaseUrl}`,
      "      maxConcurrency: 1",
    );
    for (let n = 1; n <= perProvider; n++) {
      lines.push(
        `  trunk-${provider}-${n}:`,
        "    type: voiceplatform:index:SipCarrier",
        "    properties:",
        `      name: Trunk ${provider} ${n}`,
        "    options:",
        `      provider: \${provider-${provider}}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

const { cli, describe: withCli } = requirePulumiCli({
  purpose: "interrupted runs of the plugin's launchers",
  languageHosts: ["yaml"],
});

const run = process.platform === "linux" ? withCli : describe.skip;

run("a `pulumi up` interrupted under the plugin's launchers", () => {
  jest.setTimeout(600_000);
  let emulator: RunningEmulator;
  let scratch: string;
  let launcher: string;
  let base: YamlStack;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "pvp-run-"));
    emulator = await startEmulator({ apiKey: "key-of-the-interrupted-run" });
    base = await YamlStack.create(program(emulator, 1), {}, { ambient: false });
    ({ launcher } = await launcherPlugin(scratch, base.dir));
  }, 600_000);

  // A test that failed half-way leaves no run going into the next: the held creates let go.
  const running: Promise<unknown>[] = [];
  const inBackground = <T>(command: Promise<T>): Promise<T> => {
    running.push(command);
    return command;
  };
  afterEach(async () => {
    await emulator.clearFaults();
    await Promise.all(running.splice(0));
  });

  afterAll(async () => {
    await emulator?.stop();
    if (base !== undefined) await base.remove();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  /**
   * A stack of its own whose engine finds the launcher on PATH, with its own runtime folder, and
   * logs every gRPC call it makes to `grpcLog`.
   */
  async function stackNamed(
    name: string,
  ): Promise<{ stack: YamlStack; runtime: string; grpcLog: string }> {
    const runtime = await mkdtemp(join(scratch, "r"));
    const grpcLog = join(runtime, "grpc.log");
    const stack = await base.otherStack(name, {
      PATH: [join(scratch, "plugin"), cli!.binDir, process.env.PATH].join(delimiter),
      XDG_RUNTIME_DIR: runtime,
      PULUMI_DEBUG_GRPC: grpcLog,
    });
    return { stack, runtime, grpcLog };
  }

  const carriers = async () => (await emulator.state()).organizations.org_emulator?.carriers ?? [];

  const creates = async () =>
    (await emulator.requests()).filter((r) => r.method === "POST" && r.path === SIP);

  /** Waits until `condition` holds of the creates the emulator has seen. */
  async function createsUntil(
    condition: (seen: Awaited<ReturnType<typeof creates>>) => boolean,
    what: string,
  ): Promise<void> {
    const deadline = Date.now() + 300_000;
    while (!condition(await creates())) {
      if (Date.now() > deadline) throw new Error(`never: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test("a launcher killed mid-create: nothing created for it, nothing pending; the next `up` creates its carrier once", async () => {
    await emulator.reset();
    const { stack, runtime } = await stackNamed("killed");
    await emulator.addFault({
      method: "POST",
      path: SIP,
      action: { kind: "latency", ms: 120_000 },
    });
    const up = inBackground(stack.pulumi(["up", "--yes"]));
    await createsUntil((seen) => seen.length === PROVIDERS.length, "both creates arrived");
    // The last launcher started serves a provider with its create in flight (the first serves
    // the YAML host the package's schema).
    const newest = processesRunning(launcher).at(-1);
    expect(newest).toBeDefined();
    process.kill(newest!, "SIGKILL");
    // Its provider's create is dropped at once: the emulator sees its client leave.
    await createsUntil((seen) => seen.some((r) => r.abandoned), "the killed create was dropped");
    await emulator.clearFaults();
    const interrupted = await up;
    expect(interrupted.code).not.toBe(0);
    expect(await sharedServersLeft(runtime)).toEqual([]);
    const [created, ...others] = await carriers();
    expect(others).toEqual([]);
    expect(
      (await creates()).map((r) => r.status ?? (r.abandoned ? "abandoned" : "pending")).sort(),
    ).toEqual([201, "abandoned"]);

    // The engine recorded the killed create as failed: nothing pending, nothing for preflight.
    const exported = JSON.parse(await stack.exportText()) as {
      deployment: { pending_operations?: unknown[]; resources?: { type: string; id?: string }[] };
    };
    expect(exported.deployment.pending_operations ?? []).toEqual([]);
    const recorded = (exported.deployment.resources ?? []).filter((r) =>
      r.type.startsWith("voiceplatform:index:"),
    );
    expect(recorded.map((r) => r.id)).toEqual([created!.id]);
    expect((await stack.tool(["preflight", "--stack", "killed"])).code).toBe(0);

    const sentBefore = (await emulator.requests()).length;
    const again = await stack.pulumiUp();
    expect(changeSummary(again.stdout).created).toBe(1);
    expect((await carriers()).map((c) => c.name).sort()).toEqual(["Trunk one 1", "Trunk two 1"]);
    const sent = (await emulator.requests()).slice(sentBefore);
    expect(sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`POST ${SIP} 201`]);
    await stack.must(["preview", "--expect-no-changes"]);
  });

  test("Ctrl-C once: creates in flight finish and are recorded, those not started are refused; the next `up` creates the rest once", async () => {
    await emulator.reset();
    const { stack, grpcLog } = await stackNamed("interrupted");
    await stack.writeProgram(program(emulator, 2));
    await emulator.addFault({
      method: "POST",
      path: SIP,
      action: { kind: "latency", ms: 120_000 },
    });
    const up = inBackground(stack.pulumi(["up", "--yes"]));
    await createsUntil((seen) => seen.length === PROVIDERS.length, "both first creates arrived");
    const [engine] = processesRunning(realpathSync(cli!.pulumi), stack.dir);
    expect(engine).toBeDefined();
    // The preview phase of `up` closed its own providers with Cancel (CLI 3.231 and newer): only
    // the Cancels that follow the SIGINT are the ones this waits for.
    const cancelsBefore = cancelsIn(grpcLog);
    process.kill(engine!, "SIGINT");
    // The engine's Cancel reached both providers before the held creates are let go.
    await waitFor(() => cancelsIn(grpcLog) >= cancelsBefore + PROVIDERS.length);
    await emulator.clearFaults();
    const interrupted = await up;
    expect(interrupted.code).not.toBe(0);
    const created = await carriers();
    expect(created).toHaveLength(PROVIDERS.length);

    const exported = JSON.parse(await stack.exportText()) as {
      deployment: { pending_operations?: unknown[]; resources?: { type: string; id?: string }[] };
    };
    expect(exported.deployment.pending_operations ?? []).toEqual([]);
    const recorded = (exported.deployment.resources ?? []).filter((r) =>
      r.type.startsWith("voiceplatform:index:"),
    );
    expect(recorded.map((r) => r.id).sort()).toEqual(created.map((c) => c.id).sort());
    expect((await stack.tool(["preflight", "--stack", "interrupted"])).code).toBe(0);

    expect(interrupted.stdout + interrupted.stderr).toMatch(
      /not sent: the engine cancelled the deployment \(Ctrl-C, or the engine closing this provider\)/,
    );

    const again = await stack.pulumiUp();
    expect(changeSummary(again.stdout).created).toBe(PROVIDERS.length);
    const names = (await carriers()).map((c) => c.name).sort();
    expect(names).toEqual(["Trunk one 1", "Trunk one 2", "Trunk two 1", "Trunk two 2"]);
  });
});

/**
 * The pids of the processes running `executable` (in `cwd`, when given), oldest first. Linux: read
 * from /proc.
 */
function processesRunning(executable: string, cwd?: string): number[] {
  const started = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/exe`) !== executable) continue;
      if (cwd !== undefined && readlinkSync(`/proc/${entry}/cwd`) !== cwd) continue;
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      // The state (Z: a zombie), then field 22 of proc(5): when it started.
      if (fields[0] !== "Z") started.set(Number(entry), Number(fields[19]));
    } catch {
      // Gone while listing, or not ours to read.
    }
  }
  return [...started].sort(([, a], [, b]) => a - b).map(([pid]) => pid);
}

/** How many Cancel calls the engine's gRPC log holds. */
function cancelsIn(grpcLog: string): number {
  try {
    return readFileSync(grpcLog, "utf8").split("/pulumirpc.ResourceProvider/Cancel").length - 1;
  } catch {
    return 0;
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
