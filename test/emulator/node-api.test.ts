/**
 * `pulumi-voice-platform/emulator` as a team's test uses it: the request log answers "what did
 * this step send" (filters, newRequests, the organization and sub-organization of each request,
 * faulted or not), fault profiles by name (at start, again after a reset, replaced at once over
 * the control surface), the environment that points a `pulumi` at it, and errors that say what
 * was wrong.
 */
import {
  connectEmulator,
  EmulatorError,
  faultProfiles,
  startEmulator,
  type RunningEmulator,
  type StartEmulatorOptions,
} from "../../provider/emulator";
import { VoicePlatformError } from "../../provider/settings/errors";
import { call, callJson, errorOf } from "./api-calls";

const KEY = "node-api-key-1";
const OTHER_KEY = "node-api-key-2";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({
    organizations: [
      { id: "org_one", apiKey: KEY, subOrganizationIds: ["sub-a"] },
      { id: "org_two", apiKey: OTHER_KEY },
    ],
  });
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.reset());

const carrier = (apiKey: string, headers: Record<string, string> = {}) =>
  callJson("POST", `${emulator.baseUrl}/organization/sip`, { name: "t" }, { apiKey, headers });
const update = (id: string) =>
  callJson("PUT", `${emulator.baseUrl}/voices/${id}`, { name: "n" }, { apiKey: KEY });

test("each log entry names its organization and sub-organization, null where the key is unknown", async () => {
  await carrier(KEY);
  await carrier(KEY, { "x-sub-organization-id": "sub-a" });
  await carrier(OTHER_KEY);
  await carrier("not-a-key");
  await carrier(OTHER_KEY, { "x-sub-organization-id": "sub-a" });
  const log = await emulator.requests();
  expect(log.map((r) => [r.status, r.organizationId, r.subOrganizationId])).toEqual([
    [201, "org_one", null],
    [201, "org_one", "sub-a"],
    [201, "org_two", null],
    [401, null, null],
    // sub-a is not org_two's: refused, and not logged as its sub-organization.
    [403, "org_two", null],
  ]);
  expect(log.every((r) => !Number.isNaN(Date.parse(r.receivedAt)))).toBe(true);
});

test("a request a fault answers before authentication still names its organization", async () => {
  await emulator.setFaults("rate-limited");
  await carrier(KEY, { "x-sub-organization-id": "sub-a" });
  expect(await emulator.requests()).toMatchObject([
    {
      status: 429,
      organizationId: "org_one",
      subOrganizationId: "sub-a",
      fault: { kind: "status" },
    },
  ]);
});

test("requests(filter) selects by method, path pattern, status, organization, fault or a function", async () => {
  await emulator.addFault({
    method: "PUT",
    path: "/voices/*",
    times: 1,
    action: { kind: "status", status: 500 },
  });
  await carrier(KEY);
  await carrier(OTHER_KEY);
  await update("65f1c0ffee0123456789abcd");
  await update("65f1c0ffee0123456789abce");
  const lines = (filter: Parameters<RunningEmulator["requests"]>[0]) =>
    emulator.requests(filter).then((log) => log.map((r) => `${r.method} ${r.path} ${r.status}`));

  expect(await lines({ method: "post", path: "/organization/sip" })).toEqual([
    "POST /organization/sip 201",
    "POST /organization/sip 201",
  ]);
  expect(await lines({ path: "/voices/*" })).toEqual([
    "PUT /voices/65f1c0ffee0123456789abcd 500",
    "PUT /voices/65f1c0ffee0123456789abce 404",
  ]);
  expect(await lines({ organizationId: "org_two" })).toEqual(["POST /organization/sip 201"]);
  expect(await lines({ faulted: true })).toEqual(["PUT /voices/65f1c0ffee0123456789abcd 500"]);
  expect(await lines({ status: 404, origin: "api" })).toEqual([
    "PUT /voices/65f1c0ffee0123456789abce 404",
  ]);
  expect(await lines((r) => r.method === "PUT" && r.fault === null)).toEqual([
    "PUT /voices/65f1c0ffee0123456789abce 404",
  ]);
  expect(await lines({ path: "/campaigns/*/webhook/subscribe" })).toEqual([]);
});

test("newRequests hands out each request once, filtered, and starts afresh after a reset", async () => {
  await carrier(KEY);
  expect((await emulator.newRequests()).map((r) => r.status)).toEqual([201]);
  expect(await emulator.newRequests()).toEqual([]);
  await carrier(KEY);
  await carrier("not-a-key");
  // The filter selects among the new ones; the unmatched one is handed out all the same.
  expect((await emulator.newRequests({ status: 401 })).map((r) => r.status)).toEqual([401]);
  expect(await emulator.newRequests()).toEqual([]);
  await emulator.reset();
  await carrier(KEY);
  expect((await emulator.newRequests()).map((r) => r.status)).toEqual([201]);
});

test("setFaults: a profile, or profiles and rules in order, replacing what was there", async () => {
  await emulator.addFault({ method: "*", path: "/x", action: { kind: "hang" } });
  const replaced = await emulator.setFaults([
    {
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "status", status: 502 },
    },
    "server-errors",
  ]);
  expect(replaced.map((rule) => rule.path)).toEqual([
    "/organization/sip",
    ...faultProfiles["server-errors"].rules.map((rule) => rule.path),
  ]);
  expect(await emulator.faults()).toEqual(replaced);
  expect((await carrier(KEY)).status).toBe(502);
  expect((await carrier(KEY)).status).toBe(500);
  expect((await carrier(KEY)).status).toBe(201);
  await emulator.clearFaults();
  expect(await emulator.faults()).toEqual([]);
});

test("the control surface lists the profiles and refuses an unknown one or a body that is no list", async () => {
  const listed = await call("GET", `${emulator.baseUrl}/__emulator/fault-profiles`);
  expect(listed.json).toEqual(JSON.parse(JSON.stringify(faultProfiles)));
  const unknown = await callJson("PUT", `${emulator.baseUrl}/__emulator/faults`, ["flaky"]);
  expect(errorOf(unknown)).toMatchObject({
    status: 400,
    code: "unknown_fault_profile",
    message:
      'No fault profile "flaky"; the profiles are latency, rate-limited, server-errors, lost-answer, echo.',
  });
  const notAList = await callJson("PUT", `${emulator.baseUrl}/__emulator/faults`, {
    profile: "echo",
  });
  expect(errorOf(notAList)).toMatchObject({ status: 400, code: "invalid_body" });
  const badRule = await callJson("PUT", `${emulator.baseUrl}/__emulator/faults`, [
    { method: "GET", path: "no-slash", action: { kind: "hang" } },
  ]);
  expect(errorOf(badRule)).toMatchObject({ status: 400, field: "path" });
  // A refused replacement changes nothing.
  expect(await emulator.faults()).toEqual([]);
  await expect(emulator.setFaults(["flaky" as "echo"])).rejects.toThrow(EmulatorError);
});

test("faults given at start are in force, and a reset brings them back with their counts afresh", async () => {
  const own = await startEmulator({ faults: "rate-limited" });
  try {
    const once = () =>
      callJson("POST", `${own.baseUrl}/organization/sip`, { name: "t" }, { apiKey: own.apiKey });
    expect([(await once()).status, (await once()).status]).toEqual([429, 201]);
    await own.reset();
    expect([(await once()).status, (await once()).status]).toEqual([429, 201]);
  } finally {
    await own.stop();
  }
});

test("env points a pulumi at it; connectEmulator controls it from elsewhere", async () => {
  expect(emulator.env).toEqual({
    VOICEPLATFORM_BASE_URL: emulator.baseUrl,
    VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    VOICEPLATFORM_API_KEY: KEY,
  });
  await carrier(KEY);
  const elsewhere = connectEmulator(`${emulator.baseUrl}/`);
  expect((await elsewhere.requests()).map((r) => r.status)).toEqual([201]);
  await elsewhere.reset();
  expect(await emulator.requests()).toEqual([]);
});

test("options it cannot use are EmulatorErrors (VoicePlatformErrors) saying what to change", async () => {
  const refusals = [
    [{ faults: "flaky" as "echo" }, 'No fault profile "flaky"; the profiles are latency,'],
    [
      { faults: [{ method: "GET", path: "/x", action: { kind: "explode" } }] as never },
      "a fault rule cannot be used",
    ],
    [{ organizations: [] }, "organizations is empty"],
  ] as const satisfies readonly (readonly [StartEmulatorOptions, string])[];
  for (const [options, message] of refusals) {
    const refused = await startEmulator(options).then(
      (started) => started.stop().then(() => new Error("started")),
      (error: unknown) => error as Error,
    );
    expect(refused).toBeInstanceOf(EmulatorError);
    expect(refused).toBeInstanceOf(VoicePlatformError);
    expect(refused.message).toContain(message);
  }
});
