/**
 * The download server of a `pluginDownloadURL`, for tests: a real HTTP server on 127.0.0.1 that
 * answers GET /<file> with the file of that name in one folder (404 otherwise) and records every
 * path asked for, so a test can tell that the engine fetched the plugin from it.
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";

export interface PluginServer {
  /** `http://127.0.0.1:<port>/`: what the schema's pluginDownloadURL is set to. */
  url: string;
  /** Every request as `<method> <path> <status>`, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function servePluginFolder(folder: string): Promise<PluginServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const file = join(folder, basename(path));
    const found = request.method === "GET" && existsSync(file) && statSync(file).isFile();
    requests.push(`${request.method} ${path} ${found ? 200 : 404}`);
    if (!found) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`no ${path} here\n`);
      return;
    }
    response.writeHead(200, {
      "content-type": "application/gzip",
      "content-length": statSync(file).size,
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
