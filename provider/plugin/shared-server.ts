/**
 * The shared server: one process serving every provider of one engine run, so that a preview with
 * many explicit providers does not start, load and warm up a Node.js process per provider (the
 * engine loads providers one after the other, each waiting for the last to answer).
 *
 * The release's `pulumi-resource-voiceplatform` on Linux and macOS is a small native launcher
 * (provider/plugin/launcher) that the engine starts per provider as usual. It connects to this
 * server's Unix socket, private to the user and named after everything that could make two
 * providers' processes differ (the engine's address and arguments, the folder, the environment,
 * the executable), starting the server when there is none. Per connection the server serves a
 * provider of its own on a fresh loopback port, with its own states (settings, connections,
 * secrets to keep out of messages: settings/process-state), and answers the port, which the
 * launcher prints for the engine. When the launcher ends (the engine closing that provider or
 * killing it, or the engine gone), its socket closes and that provider ends at once, as its own
 * process would have: its calls in flight are cut, uploads and waits included, none starts again,
 * and its gRPC server stops, since the engine records nothing that provider returns any more. The
 * shared server exits once no launcher has been connected for `LINGER_MS`.
 */
import type { Server as NetServer, Socket } from "node:net";
import { unlink } from "node:fs/promises";
import { endProvider, type ProviderStates } from "../settings/process-state";
import { forwardConsoleToEngine } from "./engine-log";
import { serve } from "./grpc-server";

/** How long the server waits for another provider of the same run before it exits. */
const LINGER_MS = 1_000;
/** How long a new server waits for the launcher that started it, on a machine however busy. */
const FIRST_PROVIDER_MS = 30_000;

/** The engine's address: the last argument that is not a flag (logging flags come first). */
export function engineAddressIn(args: readonly string[]): string | undefined {
  return [...args].reverse().find((arg) => !arg.startsWith("-"));
}

/** Serves one provider for the launcher on `socket` until that socket closes. */
async function serveLauncher(socket: Socket): Promise<void> {
  const states: ProviderStates = new Map();
  const served = serve(states);
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    // Ends the provider as ending its process would: its calls and connections dropped.
    const ending = endProvider(states);
    served
      .then(({ server }) => server.forceShutdown())
      .finally(() => ending)
      .catch(() => undefined);
  });
  const { port } = await served;
  if (!socket.destroyed) socket.write(`${port}\n`);
}

/** Listens on `path`, taking it over from a server that is gone (a stale socket file). */
async function listenAt(
  net: typeof import("node:net"),
  path: string,
): Promise<NetServer | "taken"> {
  const listen = () =>
    new Promise<NetServer>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(path, () => resolve(server));
    });
  try {
    return await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
  }
  const answered = await new Promise<boolean>((resolve) => {
    const probe = net.connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (answered) return "taken";
  await unlink(path);
  return listen();
}

/**
 * Runs the shared server at `socketPath` for the engine run `engineArgs` came from. It prints
 * "ready" (or "taken" when another server already listens there) on stdout for the launcher that
 * started it, and nothing after: that launcher may be gone.
 */
export async function serveShared(
  socketPath: string,
  engineArgs: readonly string[],
): Promise<void> {
  // Loaded here: a process serving one provider never needs it.
  const net = require("node:net") as typeof import("node:net");
  const listener = await listenAt(net, socketPath);
  if (listener === "taken") {
    process.stdout.write("taken\n");
    return;
  }
  forwardConsoleToEngine(engineAddressIn(engineArgs), { stderr: "when-undelivered" });
  process.stdout.on("error", () => undefined);
  const launchers = new Set<Socket>();
  let linger: NodeJS.Timeout | undefined;
  const lingerThenExit = (waitMs = LINGER_MS) => {
    clearTimeout(linger);
    if (launchers.size > 0) return;
    linger = setTimeout(() => listener.close(() => process.exit(0)), waitMs);
  };
  listener.on("connection", (socket: Socket) => {
    clearTimeout(linger);
    launchers.add(socket);
    socket.on("close", () => {
      launchers.delete(socket);
      lingerThenExit();
    });
    serveLauncher(socket).catch((error: unknown) => {
      socket.end(`error: ${String(error)}\n`);
    });
  });
  lingerThenExit(FIRST_PROVIDER_MS);
  process.stdout.write("ready\n");
}
