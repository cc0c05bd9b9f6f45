import { UNKNOWN } from "../../provider/core/engine-values";
import {
  CampaignWebhookInputs,
  campaignWebhook,
  toSubscribeBody,
} from "../../provider/resources/campaign-webhook";
import { advancedWebhook, campaignId, webhookInputs } from "../support/builders";
import { callContext } from "../support/call-context";

const { check, diff } = campaignWebhook;

describe("CampaignWebhook check", () => {
  it("accepts a simple and an advanced webhook, with events as a sorted set", async () => {
    const simple = await check(
      callContext(),
      {},
      webhookInputs({
        events: [
          "POST_PROCESSING_FINISHED:WRONG_NUMBER",
          "POST_PROCESSING_FINISHED:INTERESTED",
          "POST_PROCESSING_FINISHED:INTERESTED",
        ],
      }),
    );
    expect(simple.failures).toEqual([]);
    expect(simple.inputs.events).toEqual([
      "POST_PROCESSING_FINISHED:INTERESTED",
      "POST_PROCESSING_FINISHED:WRONG_NUMBER",
    ]);
    const advanced = await check(
      callContext(),
      {},
      webhookInputs({ isAdvanced: true, advancedWebhook: advancedWebhook() }),
    );
    expect(advanced.failures).toEqual([]);
  });

  it.each([
    [
      "campaignId",
      { campaignId: "campaign-1" },
      "must be a campaign ObjectId: 24 hexadecimal characters",
    ],
    [
      "url",
      { url: "hooks.example.com" },
      "must be an absolute http(s) URL such as https://hooks.example.com/calls",
    ],
    ["url", { url: undefined }, "is required: set it to a string"],
    [
      "events[0]",
      { events: ["CALL_FINISHED"] },
      expect.stringMatching(
        /^must be one of "POST_PROCESSING_FINISHED:INTERESTED", .*, not "CALL_FINISHED"$/,
      ),
    ],
    [
      "advancedWebhook",
      { isAdvanced: true },
      "is required when isAdvanced is true: describe the outgoing request, or set isAdvanced to false",
    ],
    [
      "isAdvanced",
      { advancedWebhook: advancedWebhook() },
      "must be true when advancedWebhook is given, or the platform ignores the request description: set isAdvanced: true",
    ],
    [
      "advancedWebhook.headers[0].name",
      {
        isAdvanced: true,
        advancedWebhook: advancedWebhook({ headers: [{ name: "Bad Header", value: "v" }] }),
      },
      "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)",
    ],
    [
      "advancedWebhook.headers[0].value",
      {
        isAdvanced: true,
        advancedWebhook: advancedWebhook({
          headers: [{ name: "X-Ok", value: "a\r\nInjected: yes" }],
        }),
      },
      "must not contain line breaks or NUL characters",
    ],
    [
      "advancedWebhook.url",
      { isAdvanced: true, advancedWebhook: advancedWebhook({ url: "/relative" }) },
      "must be an absolute http(s) URL such as https://hooks.example.com/calls",
    ],
  ])("reports %s", async (property, overrides, reason) => {
    const { failures } = await check(callContext(), {}, webhookInputs(overrides));
    expect(failures).toContainEqual({ property, reason });
  });

  it("never puts a header value into a failure", async () => {
    const secret = "header-secret-with\nnewline";
    const { failures } = await check(
      callContext(),
      {},
      webhookInputs({
        isAdvanced: true,
        advancedWebhook: advancedWebhook({ headers: [{ name: "X", value: secret }] }),
      }),
    );
    expect(JSON.stringify(failures)).not.toContain("header-secret");
  });

  it("lets preview's unknown values through", async () => {
    expect(
      (await check(callContext(), {}, webhookInputs({ campaignId: UNKNOWN, url: UNKNOWN })))
        .failures,
    ).toEqual([]);
  });

  it("normalizes the campaign id to lower case", async () => {
    expect(
      (await check(callContext(), {}, webhookInputs({ campaignId: campaignId.toUpperCase() })))
        .inputs.campaignId,
    ).toBe(campaignId);
  });
});

describe("CampaignWebhook wire mapping and id", () => {
  it("sends exactly the spec's body", () => {
    const inputs = CampaignWebhookInputs.parse(
      webhookInputs({ isAdvanced: true, advancedWebhook: advancedWebhook({ body: "{}" }) }),
    );
    expect(toSubscribeBody(inputs)).toEqual({
      url: "https://hooks.example.com/calls",
      events: ["POST_PROCESSING_FINISHED:INTERESTED"],
      isAdvanced: true,
      advancedWebhook: {
        url: "https://crm.example.com/hook",
        method: "GET",
        headers: [{ name: "X-Api-Token", value: "webhook-header-secret-value" }],
        parameters: [{ name: "source", value: "voice" }],
        body: "{}",
      },
    });
  });

  it("gets a random id at create: the campaign and a UUID, nothing derived from any input", async () => {
    // Recorded without a call, as an existing subscription is: create makes up its id the same way.
    const recorded = async (pin: string) =>
      (
        await campaignWebhook.create(
          callContext(),
          webhookInputs({
            alreadySubscribed: true,
            isAdvanced: true,
            advancedWebhook: advancedWebhook({ parameters: [{ name: "pin", value: pin }] }),
          }),
        )
      ).id;
    const ids = [await recorded("4711"), await recorded("4711"), await recorded("0815")];
    for (const id of ids) {
      expect(id).toMatch(
        /^[0-9a-f]{24}\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(id.startsWith(`${campaignId}/`)).toBe(true);
    }
    // The same inputs give different ids: an id cannot be matched against guessed inputs.
    expect(new Set(ids).size).toBe(3);
  });
});

describe("CampaignWebhook diff", () => {
  it("sees no change for reordered events and replaces on anything else", async () => {
    const events = ["POST_PROCESSING_FINISHED:INTERESTED", "POST_PROCESSING_FINISHED:DO_NOT_CALL"];
    const olds = {
      ...(await check(callContext(), {}, webhookInputs({ events }))).inputs,
      status: "success",
      data: true,
      stateVersion: 1,
    };
    expect(
      (
        await diff(
          callContext(),
          "id",
          olds,
          (await check(callContext(), {}, webhookInputs({ events: [...events].reverse() }))).inputs,
        )
      ).changes,
    ).toBe(false);
    expect(
      (
        await diff(
          callContext(),
          "id",
          olds,
          (
            await check(
              callContext(),
              {},
              webhookInputs({ events, url: "https://new.example.com" }),
            )
          ).inputs,
        )
      ).replaces,
    ).toEqual(["url"]);
  });
});
