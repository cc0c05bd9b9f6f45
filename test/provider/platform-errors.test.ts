/**
 * Everything a platform call can end in is an `ApiError`: an answer of the wrong shape included,
 * from every place that reads one. A real local server answers 200 with JSON that is not what the
 * API describes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError, ConfigurationError } from "../../provider";
import { UnsafePathError } from "../../provider/platform/errors";
import * as runtime from "../../provider/runtime";
import { resetProcessState } from "../../provider/settings/process-state";
import { carrierInputs, voiceInputs, webhookInputs } from "../support/builders";
import { setStackConfig } from "./emulator-harness";

let server: Server;
let baseUrl: string;
/** Every request the server got, as `METHOD path`. */
const received: string[] = [];
/** What the server answers with status 200, by path prefix. */
const answers: Array<[string, unknown]> = [
  ["/voices/voice-clone", [{ name: "no id here" }]],
  ["/voices/", { name: "no id either" }],
  ["/organization/sip", { ok: true }],
  ["/campaigns/", { status: "success" }],
];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-shape" });
      if (req.url === "/voices/huge") {
        // 2 MiB of a valid Voice object: only its size is wrong.
        res.end(JSON.stringify({ id: "huge", name: "x".repeat(2 * 1024 * 1024) }));
        return;
      }
      const answer = answers.find(([prefix]) => req.url!.startsWith(prefix))?.[1] ?? {};
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await resetProcessState();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() =>
  setStackConfig({ apiKey: "key-shape-test", baseUrl, campaignsBaseUrl: baseUrl, maxRetries: "0" }),
);

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("a 2xx answer of the wrong shape is an ApiError", () => {
  test("clone voice", async () => {
    const error = await failure(runtime.Voice.create(voiceInputs({ name: "Shape voice" })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, requestId: "req-shape", method: "POST" });
    expect(error.message).toMatch(
      /^clone voice "Shape voice" failed: 200 OK: .*\(POST http:\/\/127\.0\.0\.1:\d+\/voices\/voice-clone, request id req-shape\)\. The platform may have cloned/,
    );
  });

  test("update voice (PUT)", async () => {
    const inputs = voiceInputs({ name: "Shape voice" });
    const error = await failure(runtime.Voice.update("v-1", { ...inputs }, inputs));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, requestId: "req-shape", method: "PUT" });
    expect(error.message).toMatch(/^update voice "Shape voice" \(v-1\) failed: 200 OK: /);
  });

  test("create SIP carrier", async () => {
    const error = await failure(runtime.SipCarrier.create(carrierInputs()));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, requestId: "req-shape", method: "POST" });
    expect(error.message).toMatch(/record it with existingCarrierId/);
    expect(error.message).not.toContain("s3cret-sip-password");
  });

  test("subscribe webhook", async () => {
    const error = await failure(runtime.CampaignWebhook.create(webhookInputs()));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, requestId: "req-shape", method: "POST" });
    expect(error.message).toMatch(/not confirmed/);
  });
});

test("an id that would change the request's address is refused before anything is sent", async () => {
  const inputs = voiceInputs({ name: "Moved voice" });
  const before = received.length;
  for (const id of ["..", "%2E%2E", "."]) {
    const error = await failure(runtime.Voice.update(id, { ...inputs }, inputs));
    expect(error).toBeInstanceOf(UnsafePathError);
    expect(error.message).toMatch(/Nothing was sent; fix the id/);
  }
  const checked = await runtime.Voice.check({}, { name: "Adopted", existingVoiceId: ".." });
  expect(checked.failures).toEqual([
    { property: "existingVoiceId", reason: expect.stringContaining('must not be ".."') },
  ]);
  expect(received.slice(before)).toEqual([]);
});

test("an answer larger than 1 MiB is an ApiError, not memory", async () => {
  const inputs = voiceInputs({ name: "Huge voice" });
  const error = await failure(runtime.Voice.update("huge", { ...inputs }, inputs));
  expect(error).toBeInstanceOf(ApiError);
  expect(error.message).toMatch(/the answer was larger than 1048576 bytes \(1 MiB\)/);
});

describe("configuration problems are one named error", () => {
  test("a bad setting fails the dynamic check, at preview, before any call", async () => {
    setStackConfig({ apiKey: "key-shape-test", baseUrl: "http://api.example.com" });
    const error = await failure(runtime.SipCarrier.check({}, carrierInputs()));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/voiceplatform:baseUrl .* must use https/);
  });

  test("a missing API key names the stack key, the variable and the fix", async () => {
    setStackConfig({ baseUrl, campaignsBaseUrl: baseUrl });
    const saved = process.env.VOICEPLATFORM_API_KEY;
    delete process.env.VOICEPLATFORM_API_KEY;
    try {
      const error = await failure(runtime.SipCarrier.create(carrierInputs()));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        setting: "apiKey",
        key: "voiceplatform:apiKey",
        env: "VOICEPLATFORM_API_KEY",
      });
      expect(error.message).toMatch(/pulumi config set --secret voiceplatform:apiKey/);
    } finally {
      if (saved !== undefined) process.env.VOICEPLATFORM_API_KEY = saved;
    }
  });

  test("a malformed value names both sources and how to fix it", async () => {
    setStackConfig({
      apiKey: "k-config",
      baseUrl,
      campaignsBaseUrl: baseUrl,
      timeoutSeconds: "soon",
    });
    const error = await failure(runtime.SipCarrier.create(carrierInputs()));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ key: "voiceplatform:timeoutSeconds" });
    expect(error.message).toMatch(
      /^voiceplatform:timeoutSeconds \(or VOICEPLATFORM_TIMEOUT_SECONDS\) is "soon"/,
    );
    expect(error.message).toContain("a number from 1 to 600");
  });
});
