/**
 * Pieces of the interrupted-`up` tests (issue 15): a `pulumi up` killed with SIGKILL while creates
 * are in flight, the package's own bin, and the file backend's lock and checkpoint files.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { brokenCheckpointSidecars } from "../../provider/cli/backends/checkpoint-sidecar";
import { EXIT } from "../../provider/cli/commands/command-result";
import { fileBackendDirectory } from "../../provider/cli/backends/stack-lock";
import type { RequestLogEntry, RunningEmulator } from "../../provider/emulator";
import { runToEnd, type CommandResult } from "../support/command-result";
import { cli, type E2EProject } from "./harness";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process below `pid`, read from /proc (Linux, where CI runs). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while listing.
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/**
 * A program declaring `count` dynamic SipCarriers, each with its password from the stack's
 * `e2e:sipPassword` secret and a gateway of its own. `name` is a JS expression of `i`.
 */
export function carriersProgram(options: {
  count: number;
  name: string;
  firstIpv4Octet: number;
  /** Each carrier gets the number `<prefix><1000 + i>`; none when left out. */
  phonePrefix?: string;
}): string {
  const phone =
    options.phonePrefix === undefined
      ? ""
      : `\n    phoneNumbers: [{ phoneNumber: "${options.phonePrefix}" + String(1000 + i) }],`;
  return `"use strict";
const pulumi = require("@pulumi/pulumi");
const { SipCarrier } = require("pulumi-voice-platform");

const config = new pulumi.Config("e2e");
for (let i = 0; i < ${options.count}; i++) {
  const name = ${options.name};
  new SipCarrier(name, {
    name,
    requiresRegister: true,
    registerUsername: "trunk-" + i,
    registerPassword: config.requireSecret("sipPassword"),
    gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113." + (${options.firstIpv4Octet} + i), port: 5060, protocol: "udp" }],${phone}
  });
}
`;
}

/** `pulumi up --yes` as users run it (preview phase included), in the background. */
export function spawnUp(
  stack: string,
  cwd: string,
  env: Record<string, string>,
): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
} {
  const child = spawn(cli!.pulumi, ["up", "--yes", "--non-interactive", "--stack", stack], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

export interface KilledUp {
  /** Create requests the platform had received but not answered when the CLI was killed. */
  inFlightWhenKilled: number;
}

/**
 * Starts `pulumi up` and kills the CLI process alone with SIGKILL once `ready` says so, as in the
 * measurement that opened the issue. The provider process it started is orphaned and finishes
 * the creates it had begun, which is how objects end up on the platform without being in state.
 * Once the platform has been quiet for three latency periods (a request held by a "hang" fault
 * aside), the orphans are ended.
 */
export async function killUpDuringCreates(options: {
  project: E2EProject;
  env: Record<string, string>;
  emulator: RunningEmulator;
  latencyMs: number;
  isCreate: (entry: RequestLogEntry) => boolean;
  ready: (creates: RequestLogEntry[]) => boolean;
}): Promise<KilledUp> {
  const { emulator } = options;
  const { child: up, output, exited } = spawnUp("dev", options.project.dir, options.env);
  const creates = async () => (await emulator.requests()).filter(options.isCreate);
  const started = Date.now();
  while (!options.ready(await creates())) {
    if (up.exitCode !== null) throw new Error(`pulumi up ended before it was killed:\n${output()}`);
    if (Date.now() - started > 120_000)
      throw new Error(`no creates in flight after 120 s:\n${output()}`);
    await sleep(50);
  }
  const orphans = descendants(up.pid!);
  const inFlightWhenKilled = (await creates()).filter((r) => r.status === null).length;
  up.kill("SIGKILL");
  if ((await exited).signal !== "SIGKILL")
    throw new Error(`pulumi up was not killed:\n${output()}`);

  let settled = -1;
  for (let quiet = 0; quiet < 3;) {
    await sleep(options.latencyMs);
    const all = await creates();
    const pending = all.filter((r) => r.status === null && r.fault?.kind !== "hang").length;
    quiet = pending === 0 && all.length === settled ? quiet + 1 : 0;
    settled = all.length;
  }
  for (const pid of orphans) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await followSidecarAdvice(options.project, options.env);
  return { inFlightWhenKilled };
}

/**
 * The kill can land while the file backend rewrites the checkpoint's sidecar, which leaves the
 * stack unreadable (test/e2e/killed-checkpoint-sidecar.test.ts). A user runs preflight and does
 * what it says; so does the test, and goes on with the scenario it is about.
 */
async function followSidecarAdvice(
  project: E2EProject,
  env: Record<string, string>,
): Promise<void> {
  const folder = fileBackendDirectory(project.backendUrl);
  if (folder === undefined || brokenCheckpointSidecars(folder, "dev").length === 0) return;
  const advised = await voicePlatform(project, env, ["preflight", "--stack", "dev"]);
  const sidecar = /`rm '([^']+)'`/.exec(advised.stderr)?.[1];
  if (advised.code !== EXIT.backendUnreadable || sidecar === undefined) {
    throw new Error(`preflight did not name the broken sidecar:\n${advised.stderr}`);
  }
  console.log(`the kill left ${sidecar} empty; removed as preflight advised`);
  rmSync(sidecar);
}

/** The package's own bin, as `npx pulumi-voice-platform` runs it in the project. */
export async function voicePlatform(
  project: E2EProject,
  env: Record<string, string>,
  args: string[],
): Promise<CommandResult> {
  const bin = join(project.dir, "node_modules", ".bin", "pulumi-voice-platform");
  return runToEnd(bin, args, { cwd: project.dir, env });
}

/** Lock files of the file backend (`.pulumi/locks/...`). */
export function lockFiles(project: E2EProject): string[] {
  const locks = join(project.root, "backend", ".pulumi", "locks");
  if (!existsSync(locks)) return [];
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      // The file backend's blob store writes a .attrs file beside each object.
      else if (!entry.name.endsWith(".attrs")) files.push(join(dir, entry.name));
    }
  };
  walk(locks);
  return files;
}

/** The file backend's own checkpoint of the stack `dev`, as stored (not through `stack export`). */
export function checkpointText(project: E2EProject, projectName: string): string {
  return readFileSync(
    join(project.root, "backend", ".pulumi", "stacks", projectName, "dev.json"),
    "utf8",
  );
}

/**
 * The `URN=ID` arguments of the recover command that preflight printed, in order; an id preflight
 * could not know is left as its `<...>` placeholder.
 */
export function printedAssignments(preflightOutput: string): { urn: string; id: string }[] {
  const command = preflightOutput.slice(
    preflightOutput.indexOf("npx pulumi-voice-platform recover"),
  );
  return [...command.matchAll(/^\s+'(urn:pulumi:[^']+)'/gm)].map(([, assignment]) => {
    const at = assignment!.lastIndexOf("=");
    return { urn: assignment!.slice(0, at), id: assignment!.slice(at + 1) };
  });
}

/** The parts of `pulumi stack export` these tests read. */
export interface ExportedDeployment {
  deployment: {
    resources?: { urn: string; type: string; id?: string }[];
    pending_operations?: { type: string; resource: { urn: string } }[];
  };
}

/**
 * recover's arguments for interrupted creates: `URN=ID` for each whose carrier the platform holds
 * (found by the name the URN ends in), `--forget URN` for each it never stored.
 */
export function recoverArguments(
  pendingUrns: readonly string[],
  onPlatform: readonly { name: string; id: string }[],
): { assignments: string[]; forget: string[] } {
  const byName = new Map(onPlatform.map((c) => [c.name, c.id]));
  const assignments: string[] = [];
  const forget: string[] = [];
  for (const urn of pendingUrns) {
    const id = byName.get(urn.split("::").at(-1)!);
    if (id === undefined) forget.push("--forget", urn);
    else assignments.push(`${urn}=${id}`);
  }
  return { assignments, forget };
}
