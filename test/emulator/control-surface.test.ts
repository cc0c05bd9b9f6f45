import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, callJson, cloneForm, sampleFiles, type SampleFiles } from "./api-calls";
import type { Voice } from "../../provider/emulator";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

const campaignId = "65f1c0ffee0123456789abcd";
/** What populate's advanced webhook carries in the fields the provider treats as secret. */
const advancedWebhookSecrets = [
  "hook-url-token-321",
  "hook-token-456",
  "hook-parameter-654",
  "hook-body-987",
];
let samples: SampleFiles;

beforeAll(async () => {
  samples = await sampleFiles();
});
afterAll(() => samples.remove());

async function populate(emulator: RunningEmulator) {
  const sample = await samples.create("control.wav", 3000);
  const clone = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
    apiKey: emulator.apiKey,
    body: await cloneForm({ name: "Logged", stability: "0.6" }, [sample]),
  });
  const carrier = await callJson(
    "POST",
    `${emulator.baseUrl}/organization/sip`,
    { name: "Logged trunk", register_password: "carrier-password-123" },
    { apiKey: emulator.apiKey },
  );
  const subscription = await callJson(
    "POST",
    `${emulator.campaignsBaseUrl}/campaigns/${campaignId}/webhook/subscribe`,
    {
      url: "https://hooks.example.com",
      isAdvanced: true,
      advancedWebhook: {
        url: "https://crm.example.com/hook?token=hook-url-token-321",
        headers: [{ name: "Authorization", value: "hook-token-456" }],
        parameters: [{ name: "key", value: "hook-parameter-654" }],
        body: "hook-body-987",
      },
    },
    { apiKey: emulator.apiKey },
  );
  expect([clone.status, carrier.status, subscription.status]).toEqual([200, 201, 200]);
  // The answer shows what spec 2.1 shows; the stored record holds the samples.
  const voiceId = (clone.json as Voice[])[0]!.id;
  const stored = (await emulator.state()).organizations.org_emulator!.voices;
  return {
    voice: stored.find((voice) => voice.id === voiceId)!,
    carrierId: (carrier.json as { id: string }).id,
  };
}

describe("request log", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: "api-key-789" });
  });
  afterAll(() => emulator.stop());

  test("records every API request with secrets redacted, and no control request", async () => {
    const { voice } = await populate(emulator);
    const log = await emulator.requests();
    expect(log.map((entry) => [entry.method, entry.path, entry.origin, entry.status])).toEqual([
      ["POST", "/voices/voice-clone", "api", 200],
      ["POST", "/organization/sip", "api", 201],
      ["POST", `/campaigns/${campaignId}/webhook/subscribe`, "campaigns", 200],
    ]);
    const [cloneEntry, carrierEntry, subscribeEntry] = log;
    expect(cloneEntry?.multipart).toEqual({
      fields: { name: "Logged", stability: "0.6" },
      files: [{ field: "files", ...voice.samples[0] }],
    });
    expect(carrierEntry?.headers.authorization).toBe("[redacted]");
    expect(carrierEntry?.body).toEqual({
      name: "Logged trunk",
      register_password: "[redacted]",
    });
    expect(subscribeEntry?.body).toMatchObject({
      advancedWebhook: {
        url: "[redacted]",
        headers: [{ name: "Authorization", value: "[redacted]" }],
        parameters: [{ name: "key", value: "[redacted]" }],
        body: "[redacted]",
      },
    });
    for (const entry of log) expect(entry.requestId).toMatch(/^req_/);
    const text = JSON.stringify(log) + JSON.stringify(await emulator.state());
    for (const secret of ["api-key-789", "carrier-password-123", ...advancedWebhookSecrets]) {
      expect(text).not.toContain(secret);
    }
  });

  test("redacts secrets in bodies that fail validation too", async () => {
    await emulator.reset();
    await callJson(
      "POST",
      `${emulator.baseUrl}/organization/sip`,
      { name: 5, register_password: "rejected-password" },
      { apiKey: emulator.apiKey },
    );
    const [entry] = await emulator.requests();
    expect(entry).toMatchObject({ status: 400, body: { register_password: "[redacted]" } });
  });
});

describe("reset and settings", () => {
  test("reset clears objects, log, faults and settings but keeps the keys", async () => {
    const emulator = await startEmulator({ latencyMs: 0 });
    try {
      await populate(emulator);
      await emulator.addFault({ method: "*", path: "/x", action: { kind: "hang" } });
      await emulator.settings({ latencyMs: 50, rateLimit: 100 });
      await emulator.reset();
      expect(await emulator.state()).toEqual({
        organizations: { org_emulator: { voices: [], carriers: [], subscriptions: {} } },
      });
      expect(await emulator.requests()).toEqual([]);
      expect(await emulator.faults()).toEqual([]);
      const settings = await call("GET", `${emulator.baseUrl}/__emulator/settings`);
      expect(settings.json).toMatchObject({ latencyMs: 0, rateLimit: null });
      const carrier = await callJson(
        "POST",
        `${emulator.baseUrl}/organization/sip`,
        { name: "after reset" },
        { apiKey: emulator.apiKey },
      );
      expect(carrier.status).toBe(201);
    } finally {
      await emulator.stop();
    }
  });

  test("settings are validated", async () => {
    const emulator = await startEmulator();
    try {
      await expect(emulator.settings({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
      await expect(emulator.settings({ rateLimit: 0 })).rejects.toThrow(/rateLimit/);
      expect(await emulator.settings({ latencyMs: 5 })).toMatchObject({ latencyMs: 5 });
    } finally {
      await emulator.stop();
    }
  });
});

describe("--state persistence", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "emulator-state-"));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  test("objects survive a restart; the file never holds a secret", async () => {
    const stateFile = join(directory, "state.json");
    const first = await startEmulator({ stateFile });
    const { voice } = await populate(first);
    const before = await first.state();
    await first.stop();

    expect(await readdir(directory)).toEqual(["state.json"]);
    const onDisk = await readFile(stateFile, "utf8");
    for (const secret of ["carrier-password-123", ...advancedWebhookSecrets]) {
      expect(onDisk).not.toContain(secret);
    }

    const second = await startEmulator({ stateFile });
    try {
      expect(await second.state()).toEqual(before);
      const update = await callJson(
        "PUT",
        `${second.baseUrl}/voices/${voice.id}`,
        { name: "Renamed after restart" },
        { apiKey: second.apiKey },
      );
      expect(update.status).toBe(200);
      await second.reset();
      expect(JSON.parse(await readFile(stateFile, "utf8"))).toMatchObject({
        organizations: { org_emulator: { voices: [] } },
      });
    } finally {
      await second.stop();
    }
  });

  test("a missing state file starts empty and is created on the first change", async () => {
    const stateFile = join(directory, "fresh.json");
    const emulator = await startEmulator({ stateFile });
    try {
      expect(existsSync(stateFile)).toBe(false);
      await callJson(
        "POST",
        `${emulator.baseUrl}/organization/sip`,
        { name: "first" },
        { apiKey: emulator.apiKey },
      );
      expect(existsSync(stateFile)).toBe(true);
    } finally {
      await emulator.stop();
    }
  });
});

test("startEmulator refuses ambiguous organization options", async () => {
  await expect(
    startEmulator({ apiKey: "k", organizations: [{ id: "o", apiKey: "k" }] }),
  ).rejects.toThrow(/either organizations or apiKey/);
  await expect(
    startEmulator({
      organizations: [
        { id: "o1", apiKey: "same" },
        { id: "o2", apiKey: "same" },
      ],
    }),
  ).rejects.toThrow(/each organization needs its own/);
});
