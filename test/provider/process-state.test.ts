/**
 * Process-wide state follows the settings and is reset in one go: the connection pool grows
 * with maxConcurrency like the limit does, and a reset drops the limit with the pool.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { callApi } from "../../provider/platform/http-client";
import { resetProcessState } from "../../provider/settings/process-state";
import { configureAgainst, type PlatformEndpoint } from "./emulator-harness";
import { callContext } from "../support/call-context";

let server: Server;
/** The server below, standing in for the platform. */
let platform: PlatformEndpoint;
/** Requests the server holds open, and the most it held at once. */
let held: Array<{ req: IncomingMessage; res: ServerResponse }> = [];
let mostHeld = 0;
/** How many requests the server waits for before it answers the ones it holds. */
let releaseAt = 1;

function answerAll(): void {
  for (const { res } of held.splice(0)) res.end(JSON.stringify({ id: "v-1" }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    held.push({ req, res });
    mostHeld = Math.max(mostHeld, held.length);
    if (held.length >= releaseAt) answerAll();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  platform = { apiKey: "key-state-test", baseUrl };
});

afterEach(async () => {
  answerAll();
  held = [];
  mostHeld = 0;
  await resetProcessState();
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const put = (n: number) =>
  callApi(
    {
      operation: `update voice ${n}`,
      method: "PUT",
      origin: "api",
      path: `/voices/v-${n}`,
      json: { name: `voice ${n}` },
      idempotent: true,
    },
    callContext(),
  );

test("raising maxConcurrency after the first call lets that many calls run at once", async () => {
  configureAgainst(platform, { maxConcurrency: "1", timeoutSeconds: "2", maxRetries: "0" });
  releaseAt = 1;
  await put(0);
  configureAgainst(platform, { maxConcurrency: "4", timeoutSeconds: "2", maxRetries: "0" });
  // The server answers only once four requests are in: with a pool of one connection the other
  // three would wait for the first until its deadline.
  releaseAt = 4;
  const results = await Promise.allSettled([1, 2, 3, 4].map(put));
  expect(results.map((result) => result.status)).toEqual(Array(4).fill("fulfilled"));
  expect(mostHeld).toBe(4);
});

test("resetProcessState resets the concurrency limit with the connections", async () => {
  configureAgainst(platform, { maxConcurrency: "1", timeoutSeconds: "3", maxRetries: "0" });
  releaseAt = 2;
  // The first call holds the only slot until a second request reaches the server.
  const first = put(1);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(held).toHaveLength(1);
  const closing = resetProcessState();
  // A reset process starts without configuration, as a new one would.
  configureAgainst(platform, { maxConcurrency: "1", timeoutSeconds: "3", maxRetries: "0" });
  const second = put(2);
  const results = await Promise.allSettled([first, second]);
  await closing;
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
  expect(mostHeld).toBe(2);
});
