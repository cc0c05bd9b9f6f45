/**
 * The `pulumi-resource-voiceplatform` plugin process. The engine starts it with its own address
 * as the argument (one process per provider instance), reads the port printed on the first line
 * of stdout, and talks gRPC to it until it is killed. Started as `--shared <socket> <engine
 * arguments>` by the release's native launcher, it is instead the shared server of one engine
 * run (shared-server.ts). `--version` prints its version and what runs it (version-line.ts).
 */
import { forwardConsoleToEngine } from "./engine-log";
import { serve } from "./grpc-server";
import { engineAddressIn, serveShared } from "./shared-server";
import { versionLine } from "./version-line";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--version") {
    process.stdout.write(versionLine());
    return;
  }
  if (args[0] === "--shared" && args[1] !== undefined) {
    await serveShared(args[1], args.slice(2));
    return;
  }
  // The engine's pid, taken before the port is printed: an engine may read the port and be gone
  // at once, and a parent read after that would be the orphan's new one.
  exitWhenOrphaned(process.ppid);
  forwardConsoleToEngine(engineAddressIn(args));
  const { port } = await serve();
  // The engine reads the port from the first line; anything printed before it would break that.
  process.stdout.write(`${port}\n`);
}

/**
 * Ends the process, and so its calls in flight, once the engine that started it is gone (killed)
 * without ending it: nothing records what the provider returns any more. The native launcher does
 * the same for a provider of the shared server. (On Windows an orphan keeps its parent's id, so
 * this never fires there.)
 */
function exitWhenOrphaned(engine: number): void {
  setInterval(() => {
    if (process.ppid !== engine) process.exit(0);
  }, 1000).unref();
}

main().catch((error: unknown) => {
  console.error(`pulumi-resource-voiceplatform could not start: ${String(error)}`);
  process.exit(1);
});
