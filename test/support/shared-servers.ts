/**
 * The plugin's shared servers (provider/plugin/shared-server.ts) a test started, found by their
 * command line (`--shared <socket>`), whose socket lies under the runtime folder the test gave its
 * launchers. Linux only: read from /proc.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The pids of the shared servers listening under `runtime`. */
export async function sharedServerPids(runtime: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(join("/proc", entry, "cmdline"), "utf8").catch(() => "");
    const args = cmdline.split("\0");
    if (args.includes("--shared") && args.some((arg) => arg.startsWith(runtime))) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Waits (up to 20 s) for the servers under `runtime` to exit; the pids still running. */
export async function sharedServersLeft(runtime: string): Promise<number[]> {
  const deadline = Date.now() + 20_000;
  let pids = await sharedServerPids(runtime);
  while (pids.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    pids = await sharedServerPids(runtime);
  }
  return pids;
}
