import { callJson, errorOf } from "./api-calls";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

let emulator: RunningEmulator;
const campaignId = "65f1c0ffee0123456789abcd";

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.reset());

function subscribe(body: unknown, id = campaignId, baseUrl = emulator.campaignsBaseUrl) {
  return callJson("POST", `${baseUrl}/campaigns/${id}/webhook/subscribe`, body, {
    apiKey: emulator.apiKey,
  });
}

test("subscribes on the campaigns origin and stores the subscription per campaign", async () => {
  const simple = await subscribe({
    url: "https://hooks.example.com/simple",
    events: ["POST_PROCESSING_FINISHED:INTERESTED", "POST_PROCESSING_FINISHED:DO_NOT_CALL"],
  });
  expect(simple.status).toBe(200);
  expect(simple.json).toEqual({ status: "success", data: true });

  const advanced = await subscribe({
    url: "https://hooks.example.com/advanced",
    isAdvanced: true,
    advancedWebhook: {
      url: "https://hooks.example.com/advanced",
      method: "GET",
      headers: [{ name: "X-Token", value: "hook-secret" }],
      parameters: [{ name: "source", value: "emulator" }],
      body: "",
    },
  });
  expect(advanced.status).toBe(200);

  const subscriptions = (await emulator.state()).organizations.org_emulator?.subscriptions[
    campaignId
  ];
  expect(subscriptions).toMatchObject([
    {
      campaignId,
      url: "https://hooks.example.com/simple",
      events: ["POST_PROCESSING_FINISHED:INTERESTED", "POST_PROCESSING_FINISHED:DO_NOT_CALL"],
      isAdvanced: false,
      advancedWebhook: null,
    },
    {
      url: "https://hooks.example.com/advanced",
      events: null,
      isAdvanced: true,
      // What the provider treats as secret: the url, the body, header and parameter values.
      advancedWebhook: {
        url: "[redacted]",
        method: "GET",
        headers: [{ name: "X-Token", value: "[redacted]" }],
        parameters: [{ name: "source", value: "[redacted]" }],
        body: "[redacted]",
      },
    },
  ]);
});

test("is not served on the main origin, and the main operations not on this one", async () => {
  const onMain = await subscribe({ url: "https://x" }, campaignId, emulator.baseUrl);
  expect(errorOf(onMain)).toMatchObject({ status: 404, code: "not_found" });
  const sipOnCampaigns = await callJson(
    "POST",
    `${emulator.campaignsBaseUrl}/organization/sip`,
    { name: "x" },
    { apiKey: emulator.apiKey },
  );
  expect(sipOnCampaigns.status).toBe(404);
});

test("accepts every one of the five events", async () => {
  const events = [
    "POST_PROCESSING_FINISHED:INTERESTED",
    "POST_PROCESSING_FINISHED:NOT_INTERESTED",
    "POST_PROCESSING_FINISHED:CALL_ME_LATER",
    "POST_PROCESSING_FINISHED:WRONG_NUMBER",
    "POST_PROCESSING_FINISHED:DO_NOT_CALL",
  ];
  expect((await subscribe({ url: "https://x", events })).status).toBe(200);
});

test("rejects an event outside the five", async () => {
  const result = await subscribe({
    url: "https://x",
    events: ["POST_PROCESSING_FINISHED:INTERESTED", "CALL_FINISHED"],
  });
  const error = errorOf(result);
  expect(error).toMatchObject({ status: 400, code: "invalid_field", field: "events[1]" });
  expect(error.message).toContain("POST_PROCESSING_FINISHED:WRONG_NUMBER");
});

test.each(["not-an-object-id", "65f1c0ffee0123456789abc", "65f1c0ffee0123456789abcg"])(
  "rejects campaignId %s",
  async (id) => {
    expect(errorOf(await subscribe({ url: "https://x" }, id))).toMatchObject({
      status: 400,
      code: "invalid_campaign_id",
      field: "campaignId",
    });
  },
);

test.each([
  [{}, "missing_field", "url"],
  [{ url: 42 }, "invalid_field", "url"],
  [{ url: "https://x", isAdvanced: "false" }, "invalid_field", "isAdvanced"],
  [{ url: "https://x", events: "POST_PROCESSING_FINISHED:INTERESTED" }, "invalid_field", "events"],
  [
    { url: "https://x", advancedWebhook: { headers: [{ name: "a", value: 1 }] } },
    "invalid_field",
    "advancedWebhook.headers[0].value",
  ],
  [{ url: "https://x", secret: "s" }, "unknown_field", "secret"],
  [{ url: "https://x", advancedWebhook: { verb: "GET" } }, "unknown_field", "advancedWebhook.verb"],
])("rejects %j", async (body, code, field) => {
  expect(errorOf(await subscribe(body))).toMatchObject({ status: 400, code, field });
  expect((await emulator.state()).organizations.org_emulator?.subscriptions).toEqual({});
});
