import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { handleApiRequest } from "./api-pipeline";
import type { EmulatorOrigin } from "./control-types";
import { CONTROL_PREFIX, handleControlRequest } from "./control-routes";
import { ErrorAnswer } from "./errors";
import { newRequestId } from "./ids";
import { sendError } from "./responses";
import type { EmulatorRuntime } from "./runtime";

export const HOST = "127.0.0.1";

export interface ListeningServers {
  baseUrl: string;
  campaignsBaseUrl: string;
  close(): Promise<void>;
}

/** The campaign operation lives on its own origin, as in the contract, hence two servers. */
export async function listen(
  runtime: EmulatorRuntime,
  ports: { port: number; campaignsPort: number },
): Promise<ListeningServers> {
  const api = createServer(requestListener(runtime, "api"));
  const campaigns = createServer(requestListener(runtime, "campaigns"));
  try {
    await listenOn(api, ports.port);
    await listenOn(campaigns, ports.campaignsPort);
  } catch (error) {
    await Promise.all([closeServer(api), closeServer(campaigns)]);
    throw error;
  }
  return {
    baseUrl: urlOf(api),
    campaignsBaseUrl: urlOf(campaigns),
    close: async () => {
      runtime.shutdown();
      await Promise.all([closeServer(api), closeServer(campaigns)]);
    },
  };
}

function requestListener(runtime: EmulatorRuntime, origin: EmulatorOrigin) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newRequestId();
    res.setHeader("x-request-id", requestId);
    const path = (req.url ?? "/").split(/[?#]/)[0] ?? "/";
    const handling =
      origin === "api" && path.startsWith(CONTROL_PREFIX)
        ? handleControlRequest(runtime, req, res, path)
        : handleApiRequest(runtime, origin, req, res, path, requestId);
    handling.catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (error instanceof ErrorAnswer) {
        sendError(res, error);
        return;
      }
      console.error(`emulator: ${req.method} ${path} failed`, error);
      sendError(
        res,
        new ErrorAnswer(500, "internal_error", "The emulator failed; see its output."),
      );
    });
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function urlOf(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://${HOST}:${port}`;
}

/** Destroys open sockets too: hanging and keep-alive connections would hold the process open. */
function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
