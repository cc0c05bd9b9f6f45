import { call, callJson, errorOf } from "./api-calls";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({
    organizations: [
      { id: "org_a", apiKey: "key-a", subOrganizationIds: ["sub_a"] },
      { id: "org_b", apiKey: "key-b", subOrganizationIds: ["sub_b"] },
    ],
  });
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.reset());

function createCarrier(headers: Record<string, string>) {
  return callJson("POST", `${emulator.baseUrl}/organization/sip`, { name: "auth" }, { headers });
}

describe("authentication", () => {
  test("accepts the key bare and after a scheme word", async () => {
    expect((await createCarrier({ authorization: "key-a" })).status).toBe(201);
    expect((await createCarrier({ authorization: "Bearer key-a" })).status).toBe(201);
    expect((await createCarrier({ authorization: "Token key-b" })).status).toBe(201);
    const state = await emulator.state();
    expect(state.organizations.org_a?.carriers).toHaveLength(2);
    expect(state.organizations.org_b?.carriers).toHaveLength(1);
  });

  test.each([
    ["missing", {}, "missing_api_key"],
    ["unknown", { authorization: "Bearer key-z" }, "invalid_api_key"],
    ["scheme only", { authorization: "Bearer" }, "invalid_api_key"],
    ["three words", { authorization: "Bearer key-a extra" }, "invalid_api_key"],
  ])("answers 401 to a %s key", async (_label, headers, code) => {
    const result = await createCarrier(headers);
    expect(errorOf(result)).toMatchObject({ status: 401, code });
  });

  test("checks the key on the campaigns origin too", async () => {
    const result = await callJson(
      "POST",
      `${emulator.campaignsBaseUrl}/campaigns/65f1c0ffee0123456789abcd/webhook/subscribe`,
      { url: "https://x" },
    );
    expect(errorOf(result)).toMatchObject({ status: 401 });
  });

  test("answers 403 to a sub-organization of another organization", async () => {
    const result = await createCarrier({
      authorization: "key-a",
      "x-sub-organization-id": "sub_b",
    });
    const error = errorOf(result);
    expect(error).toMatchObject({ status: 403, code: "forbidden_sub_organization" });
    expect(error.message).toContain("sub_b");
    const allowed = await createCarrier({
      authorization: "key-b",
      "x-sub-organization-id": "sub_b",
    });
    expect(allowed.status).toBe(201);
  });
});

describe("routing", () => {
  test("answers 404 to an unknown path", async () => {
    const result = await call("GET", `${emulator.baseUrl}/voices`, { apiKey: "key-a" });
    expect(errorOf(result)).toMatchObject({ status: 404, code: "not_found" });
    expect((await call("GET", `${emulator.baseUrl}/__emulator/nothing`)).status).toBe(404);
  });

  test("answers 405 with Allow to a wrong method", async () => {
    const result = await call("GET", `${emulator.baseUrl}/organization/sip`, { apiKey: "key-a" });
    expect(errorOf(result)).toMatchObject({ status: 405, code: "method_not_allowed" });
    expect(result.headers.allow).toBe("POST");
    const control = await call("DELETE", `${emulator.baseUrl}/__emulator/state`);
    expect(control.status).toBe(405);
  });

  test("ignores the query string when routing", async () => {
    const withQuery = await callJson(
      "POST",
      `${emulator.baseUrl}/organization/sip?trace=1`,
      { name: "q" },
      { apiKey: "key-a" },
    );
    expect(withQuery.status).toBe(201);
  });
});

describe("responses", () => {
  test("carry a unique x-request-id, on successes, errors and the control surface", async () => {
    const results = [
      await createCarrier({ authorization: "key-a" }),
      await createCarrier({}),
      await call("GET", `${emulator.baseUrl}/nowhere`),
      await call("GET", `${emulator.campaignsBaseUrl}/nowhere`),
      await call("GET", `${emulator.baseUrl}/__emulator/state`),
    ];
    const ids = results.map((result) => result.headers["x-request-id"]);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const logged = (await emulator.requests()).map((entry) => entry.requestId);
    expect(logged).toEqual(ids.slice(0, 4));
  });

  test("errors share one shape", async () => {
    const result = await createCarrier({ authorization: "key-a", "content-type": "text/plain" });
    expect(result.json).toEqual({
      error: {
        status: 415,
        code: "unsupported_media_type",
        message: expect.stringContaining("application/json") as unknown,
      },
    });
    const fieldError = await callJson(
      "POST",
      `${emulator.baseUrl}/organization/sip`,
      { name: 1 },
      { apiKey: "key-a" },
    );
    expect(Object.keys((fieldError.json as { error: object }).error).sort()).toEqual([
      "code",
      "field",
      "message",
      "status",
    ]);
  });
});
