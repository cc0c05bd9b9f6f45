import { call, callJson, errorOf } from "./api-calls";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ subOrganizationIds: ["sub_1"] });
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.reset());

const fullCarrier = {
  name: "Main trunk",
  register_username: "trunk-user",
  register_password: "trunk-secret",
  requires_register: true,
  register_sip_realm: "sip.example.com",
  register_from_user: "trunk-user",
  register_from_domain: "sip.example.com",
  register_public_ip_in_contact: false,
  tech_prefix: "99",
  diversion: "+15550100",
  e164_leading_plus: true,
  gateways: [
    {
      outbound: true,
      inbound: true,
      ipv4: "192.0.2.10",
      netmask: 32,
      port: 5060,
      protocol: "udp",
      send_options_ping: true,
      use_sips_scheme: false,
      pad_crypto: false,
      sip_gateway_sid: "gw-1",
    },
  ],
  phoneNumbers: [{ phone_number_sid: "pn-1", phone_number: "+15550123" }],
  outbound_sip_proxy: "proxy.example.com",
  updatedBy: "tests",
};

function createCarrier(body: unknown, headers: Record<string, string> = {}) {
  return callJson("POST", `${emulator.baseUrl}/organization/sip`, body, {
    apiKey: emulator.apiKey,
    headers,
  });
}

test("creates a carrier: 201 with an id, stored with everything but the password", async () => {
  const result = await createCarrier(fullCarrier, { "x-sub-organization-id": "sub_1" });
  expect(result.status).toBe(201);
  const { id } = result.json as { id: string };
  expect(result.json).toEqual({ id });
  expect(id).toMatch(/^[0-9a-f]{24}$/);
  const state = await emulator.state();
  expect(state.organizations.org_emulator?.carriers).toEqual([
    {
      ...fullCarrier,
      id,
      organizationId: "org_emulator",
      subOrganizationId: "sub_1",
      register_password: "[redacted]",
    },
  ]);
  expect(JSON.stringify(state)).not.toContain("trunk-secret");
});

test.each([
  [{ gateways: [{ netmask: 24.5 }] }, "gateways[0].netmask"],
  [{ gateways: [{ netmask: "32" }] }, "gateways[0].netmask"],
  [{ gateways: [{ port: "5060" }] }, "gateways[0].port"],
  [{ gateways: [{}, { inbound: "yes" }] }, "gateways[1].inbound"],
  [{ requires_register: "true" }, "requires_register"],
  [{ register_password: 1234 }, "register_password"],
  [{ phoneNumbers: [{ phone_number: 15550123 }] }, "phoneNumbers[0].phone_number"],
  [{ gateways: {} }, "gateways"],
])("rejects the mistyped field in %j", async (fields, field) => {
  const result = await createCarrier({ name: "Typed", ...fields });
  expect(result.status).toBe(400);
  expect(errorOf(result)).toMatchObject({ status: 400, code: "invalid_field", field });
  expect((await emulator.state()).organizations.org_emulator?.carriers).toEqual([]);
});

test("rejects unknown fields, also inside gateways and phone numbers", async () => {
  expect(errorOf(await createCarrier({ name: "x", registerPassword: "p" }))).toMatchObject({
    code: "unknown_field",
    field: "registerPassword",
  });
  expect(errorOf(await createCarrier({ name: "x", gateways: [{ ip: "1.2.3.4" }] }))).toMatchObject({
    code: "unknown_field",
    field: "gateways[0].ip",
  });
  expect(
    errorOf(await createCarrier({ name: "x", phoneNumbers: [{ number: "+1" }] })),
  ).toMatchObject({ code: "unknown_field", field: "phoneNumbers[0].number" });
});

test("requires a name", async () => {
  expect(errorOf(await createCarrier({ tech_prefix: "1" }))).toMatchObject({
    code: "missing_field",
    field: "name",
  });
});

test("rejects malformed JSON, an empty body and a form body", async () => {
  expect(errorOf(await createCarrier('{"name": "x",}'))).toMatchObject({
    status: 400,
    code: "malformed_json",
  });
  expect(errorOf(await createCarrier(""))).toMatchObject({ status: 400, code: "malformed_json" });
  const form = await call("POST", `${emulator.baseUrl}/organization/sip`, {
    apiKey: emulator.apiKey,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "name=x",
  });
  expect(errorOf(form)).toMatchObject({ status: 415, code: "unsupported_media_type" });
});

test("accepts a JSON content type with a charset", async () => {
  const result = await call("POST", `${emulator.baseUrl}/organization/sip`, {
    apiKey: emulator.apiKey,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ name: "charset" }),
  });
  expect(result.status).toBe(201);
});
