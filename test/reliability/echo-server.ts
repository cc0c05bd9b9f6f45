/**
 * A stand-in for a platform that echoes what it was sent in its error answers: the request body
 * and the Authorization header, in the message, in other fields, as object keys, as plain text
 * and as HTML. The secrets test points the provider at it to prove that nothing echoed back
 * reaches the user unredacted.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const echoModes = ["json-message", "json-fields", "json-keys", "text", "html"] as const;
export type EchoMode = (typeof echoModes)[number];

export interface EchoServer {
  /** Base URL for one answer style; every path under it answers that way. */
  url(mode: EchoMode, status?: number): string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startEchoServer(): Promise<EchoServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const [, mode = "json-message", statusText = "400"] = (req.url ?? "").split("/");
      const status = Number(statusText);
      const auth = req.headers.authorization ?? "";
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // a form upload: echoed as text
      }
      let body: string;
      let type = "application/json";
      switch (mode as EchoMode) {
        case "json-message":
          body = JSON.stringify({
            error: { message: `Request rejected. You sent ${raw} with Authorization ${auth}` },
          });
          break;
        case "json-fields":
          body = JSON.stringify({
            message: "validation failed",
            received: parsed,
            headers: req.headers,
            detail: `authorization=${auth}`,
          });
          break;
        case "json-keys": {
          // Secrets as object keys, where a redactor that only looks at values misses them.
          const keys: Record<string, string> = { [auth]: "unknown key" };
          for (const match of raw.matchAll(
            /"(?:value|register_password)"\s*:\s*"((?:[^"\\]|\\.)*)"/g,
          )) {
            keys[JSON.parse(`"${match[1]}"`) as string] = "not allowed here";
          }
          body = JSON.stringify({ errors: keys });
          break;
        }
        case "text":
          type = "text/plain";
          body = `bad request: ${raw}\nauthorization: ${auth}`;
          break;
        case "html":
          type = "text/html";
          body = `<html><body><h1>Error</h1><pre>${raw}</pre><p>${auth}</p></body></html>`;
          break;
        default:
          body = "{}";
      }
      res.writeHead(status, { "content-type": type, "x-request-id": "echo-request" });
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (mode, status = 400) => `http://127.0.0.1:${port}/${mode}/${status}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
