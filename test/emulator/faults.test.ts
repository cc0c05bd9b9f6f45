import { setTimeout as delay } from "node:timers/promises";
import { call, callJson, cloneForm, errorOf, sampleFiles, type SampleFiles } from "./api-calls";
import type { FaultRule, Voice } from "../../provider/emulator";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

let emulator: RunningEmulator;
let samples: SampleFiles;
let sample: string;
const campaignId = "65f1c0ffee0123456789abcd";

beforeAll(async () => {
  emulator = await startEmulator({ seed: 7 });
  samples = await sampleFiles();
  sample = await samples.create("fault.wav", 2048);
});
afterAll(async () => {
  await emulator.stop();
  await samples.remove();
});
beforeEach(() => emulator.reset());

function createCarrier(options: { signal?: AbortSignal } = {}) {
  return callJson(
    "POST",
    `${emulator.baseUrl}/organization/sip`,
    { name: "faulty", register_password: "pw" },
    { apiKey: emulator.apiKey, ...options },
  );
}

async function clone() {
  return call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
    apiKey: emulator.apiKey,
    body: await cloneForm({ name: "Fault voice" }, [sample]),
  });
}

function subscribe() {
  return callJson(
    "POST",
    `${emulator.campaignsBaseUrl}/campaigns/${campaignId}/webhook/subscribe`,
    { url: "https://hooks.example.com" },
    { apiKey: emulator.apiKey },
  );
}

async function stored() {
  const organization = (await emulator.state()).organizations.org_emulator;
  return {
    voices: organization?.voices.length ?? 0,
    carriers: organization?.carriers.length ?? 0,
    subscriptions: Object.values(organization?.subscriptions ?? {}).flat().length,
  };
}

function fault(rule: Omit<FaultRule, "method" | "path"> & Partial<FaultRule>) {
  return emulator.addFault({ method: "POST", path: "/organization/sip", ...rule });
}

async function elapsedMs(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

test("status answers before processing, with Retry-After when asked", async () => {
  const id = await fault({ action: { kind: "status", status: 503, retryAfterSeconds: 2 } });
  const result = await createCarrier();
  expect(errorOf(result)).toMatchObject({ status: 503, code: "injected_fault" });
  expect(result.headers["retry-after"]).toBe("2");
  expect(await stored()).toMatchObject({ carriers: 0 });
  const [entry] = await emulator.requests();
  expect(entry).toMatchObject({ status: 503, fault: { ruleId: id, kind: "status" } });
});

test("status 429 uses the rate-limit code", async () => {
  await fault({ action: { kind: "status", status: 429 } });
  const result = await createCarrier();
  expect(errorOf(result)).toMatchObject({ status: 429, code: "rate_limited" });
  expect(result.headers["retry-after"]).toBeUndefined();
});

test("latency delays the answer and then processes normally", async () => {
  await fault({ action: { kind: "latency", ms: 300 } });
  let status = 0;
  const elapsed = await elapsedMs(async () => {
    status = (await createCarrier()).status;
  });
  expect(status).toBe(201);
  expect(elapsed).toBeGreaterThanOrEqual(290);
  expect(await stored()).toMatchObject({ carriers: 1 });
});

test("clearing the faults ends a latency early; the held request then processes normally", async () => {
  await fault({ times: 1, action: { kind: "latency", ms: 600_000 } });
  const held = createCarrier();
  while ((await emulator.requests()).length === 0) await delay(20);
  expect(await stored()).toMatchObject({ carriers: 0 });
  // The rule is spent (times: 1) and gone from the list; its wait still ends.
  expect(await emulator.faults()).toEqual([]);
  await emulator.clearFaults();
  expect((await held).status).toBe(201);
  expect(await stored()).toMatchObject({ carriers: 1 });
});

test.each([
  ["a latency fault", () => fault({ action: { kind: "latency", ms: 800 } })],
  ["the latency setting", () => emulator.settings({ latencyMs: 800 })],
])(
  "a client that leaves during %s stores nothing, also once the latency is over",
  async (_latency, addLatency) => {
    await addLatency();
    await expect(createCarrier({ signal: AbortSignal.timeout(200) })).rejects.toThrow();
    // Sent after the one that left, and held as long: its answer comes after that one's would.
    expect((await createCarrier()).status).toBe(201);
    expect(await stored()).toMatchObject({ carriers: 1 });
    const [left, waited] = await emulator.requests();
    expect(left).toMatchObject({ status: null, abandoned: true });
    expect(waited).toMatchObject({ status: 201 });
    expect(waited!.abandoned).toBeUndefined();
  },
);

test("hang never answers; the client's abort ends it and nothing is stored", async () => {
  await fault({ action: { kind: "hang" } });
  await expect(createCarrier({ signal: AbortSignal.timeout(300) })).rejects.toThrow();
  expect(await stored()).toMatchObject({ carriers: 0 });
  const [entry] = await emulator.requests();
  expect(entry).toMatchObject({ status: null, abandoned: true, fault: { kind: "hang" } });
  await emulator.clearFaults();
  expect((await createCarrier()).status).toBe(201);
});

test("close() ends hanging requests instead of waiting for them", async () => {
  const own = await startEmulator();
  await own.addFault({ method: "*", path: "/organization/sip", action: { kind: "hang" } });
  const hanging = callJson(
    "POST",
    `${own.baseUrl}/organization/sip`,
    { name: "x" },
    { apiKey: own.apiKey },
  );
  const outcome = hanging.then(
    () => "answered",
    () => "failed",
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closing = await elapsedMs(() => own.stop());
  expect(await outcome).toBe("failed");
  expect(closing).toBeLessThan(2000);
});

test("reset-before destroys the connection and stores nothing", async () => {
  await fault({ action: { kind: "reset-before" } });
  await expect(createCarrier()).rejects.toThrow();
  expect(await stored()).toMatchObject({ carriers: 0 });
  const [entry] = await emulator.requests();
  expect(entry).toMatchObject({ status: null, fault: { kind: "reset-before" } });
  // Cut by the emulator, not left by the client.
  expect(entry!.abandoned).toBeUndefined();
});

test("reset-after stores the object, then loses the response", async () => {
  await fault({ action: { kind: "reset-after" } });
  await emulator.addFault({
    method: "POST",
    path: "/voices/voice-clone",
    action: { kind: "reset-after" },
  });
  await expect(createCarrier()).rejects.toThrow();
  await expect(clone()).rejects.toThrow();
  expect(await stored()).toMatchObject({ carriers: 1, voices: 1 });
});

test("malformed-json stores the object and answers a truncated body", async () => {
  await fault({ action: { kind: "malformed-json" } });
  const result = await createCarrier();
  expect(result.status).toBe(201);
  expect(result.headers["content-type"]).toMatch(/^application\/json/);
  expect(result.text.length).toBeGreaterThan(0);
  expect(() => JSON.parse(result.text) as unknown).toThrow();
  expect(await stored()).toMatchObject({ carriers: 1 });
});

test("after-processing faults leave requests that fail validation alone", async () => {
  await fault({ times: 1, action: { kind: "malformed-json" } });
  const invalid = await callJson(
    "POST",
    `${emulator.baseUrl}/organization/sip`,
    { name: 1 },
    { apiKey: emulator.apiKey },
  );
  expect(errorOf(invalid)).toMatchObject({ status: 400, field: "name" });
  const valid = await createCarrier();
  expect(valid.status).toBe(201);
  expect(valid.json).toBeUndefined();
});

test("empty-clone answers [] and stores nothing; other operations ignore it", async () => {
  await emulator.addFault({ method: "*", path: "/*/*", action: { kind: "empty-clone" } });
  const result = await clone();
  expect(result.status).toBe(200);
  expect(result.json).toEqual([]);
  expect((await createCarrier()).status).toBe(201);
  expect(await stored()).toMatchObject({ voices: 0, carriers: 1 });
});

test("data-false answers data:false on the campaigns origin and stores nothing", async () => {
  await emulator.addFault({
    method: "POST",
    path: "/campaigns/*/webhook/subscribe",
    action: { kind: "data-false" },
  });
  const result = await subscribe();
  expect(result.status).toBe(200);
  expect(result.json).toEqual({ status: "success", data: false });
  expect(await stored()).toMatchObject({ subscriptions: 0 });
});

test("faults match the campaigns origin by path", async () => {
  await emulator.addFault({
    method: "POST",
    path: `/campaigns/${campaignId}/webhook/subscribe`,
    times: 1,
    action: { kind: "status", status: 502 },
  });
  expect((await subscribe()).status).toBe(502);
  expect((await subscribe()).status).toBe(200);
});

test("a path pattern with * matches one segment", async () => {
  const created = await clone();
  const voice = (created.json as Voice[])[0] as Voice;
  await emulator.addFault({
    method: "PUT",
    path: "/voices/*",
    action: { kind: "status", status: 500 },
  });
  const update = await callJson(
    "PUT",
    `${emulator.baseUrl}/voices/${voice.id}`,
    {},
    { apiKey: emulator.apiKey },
  );
  expect(update.status).toBe(500);
  expect((await clone()).status).toBe(200);
});

test("times applies the fault to the next N matching requests, then the rule expires", async () => {
  await fault({ times: 2, action: { kind: "status", status: 500 } });
  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await createCarrier()).status);
  expect(statuses).toEqual([500, 500, 201]);
  expect(await emulator.faults()).toEqual([]);
});

test("probability draws from the seeded PRNG: the same seed gives the same faults", async () => {
  async function run(): Promise<number[]> {
    await fault({ probability: 0.5, action: { kind: "status", status: 500 } });
    const statuses = [];
    for (let i = 0; i < 24; i += 1) statuses.push((await createCarrier()).status);
    return statuses;
  }
  const first = await run();
  await emulator.reset();
  const second = await run();
  expect(second).toEqual(first);
  const faulted = first.filter((status) => status === 500).length;
  expect(faulted).toBeGreaterThan(2);
  expect(faulted).toBeLessThan(22);
  await emulator.settings({ seed: 8 });
  await emulator.clearFaults();
  expect(await run()).not.toEqual(first);
});

test("global latency delays every API request", async () => {
  await emulator.settings({ latencyMs: 250 });
  expect(await elapsedMs(() => createCarrier())).toBeGreaterThanOrEqual(240);
  expect(await elapsedMs(() => subscribe())).toBeGreaterThanOrEqual(240);
  expect(await elapsedMs(() => emulator.state())).toBeLessThan(240);
});

test("rate limit answers 429 with Retry-After before processing", async () => {
  await emulator.settings({ rateLimit: 1 });
  const first = await createCarrier();
  const second = await createCarrier();
  expect(first.status).toBe(201);
  expect(errorOf(second)).toMatchObject({ status: 429, code: "rate_limited" });
  expect(second.headers["retry-after"]).toBe("1");
  expect(await stored()).toMatchObject({ carriers: 1 });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await createCarrier()).status).toBe(201);
  await emulator.settings({ rateLimit: null });
  const burst = await Promise.all([createCarrier(), createCarrier(), createCarrier()]);
  expect(burst.map((result) => result.status)).toEqual([201, 201, 201]);
});

test("invalid fault rules are refused with the field named", async () => {
  await expect(
    emulator.addFault({
      method: "POST",
      path: "/x",
      action: { kind: "explode" } as unknown as FaultRule["action"],
    }),
  ).rejects.toThrow(/400/);
  const result = await callJson("POST", `${emulator.baseUrl}/__emulator/faults`, {
    method: "POST",
    path: "/x",
    probability: 2,
    action: { kind: "hang" },
  });
  expect(errorOf(result)).toMatchObject({ status: 400, field: "probability" });
});
