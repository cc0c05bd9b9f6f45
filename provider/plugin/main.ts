/**
 * The `pulumi-resource-voiceplatform` plugin process. The engine starts it with its own address
 * as the argument (one process per provider instance), reads the port printed on the first line
 * of stdout, and talks gRPC to it until it is killed.
 */
import { forwardConsoleToEngine } from "./engine-log";
import { serve } from "./grpc-server";

async function main(): Promise<void> {
  forwardConsoleToEngine(process.argv[2]);
  const { port } = await serve();
  // The engine reads the port from the first line; anything printed before it would break that.
  process.stdout.write(`${port}\n`);
}

main().catch((error: unknown) => {
  console.error(`pulumi-resource-voiceplatform could not start: ${String(error)}`);
  process.exit(1);
});
