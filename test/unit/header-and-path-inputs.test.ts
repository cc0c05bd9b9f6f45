/**
 * Every input that reaches a header or a request's path is checked at preview, per resource as
 * for the provider: a sub-organization id a header cannot carry as written, an id a path cannot
 * hold. And no check failure shows the value of a secret input.
 */
import * as runtime from "../../provider/runtime";
import { readSettings } from "../../provider/settings/config";
import { carrierInputs, webhookInputs, advancedWebhook } from "../support/builders";
import { everyKind, fixtureOf } from "../support/kind-fixtures";
import { processSettings } from "../support/call-context";

// Every kind takes subOrganizationId, sent as a header (docs/development.md, "Add a resource").
describe.each(everyKind())("%s subOrganizationId", (kind) => {
  const inputs = fixtureOf(kind).inputs;
  it.each([
    ["org-1\r\nx-injected: 1", /must not contain control characters such as line breaks or tabs/],
    ["org\t1", /must not contain control characters/],
    ["org-é", /must hold only printable ASCII characters .* sent in an HTTP header/],
    ["org-😀", /must hold only printable ASCII characters/],
    [" org-1", /must not start or end with white space \(a space, tab or line break\): remove it/],
    ["org-1\n", /must not start or end with white space \(a space, tab or line break\): remove it/],
  ])("%j fails check, naming the field and the fix", async (value, reason) => {
    const { failures } = await runtime[kind].check({}, inputs({ subOrganizationId: value }));
    expect(failures).toEqual([
      { property: "subOrganizationId", reason: expect.stringMatching(reason) },
    ]);
  });

  it("takes an ordinary id", async () => {
    const { failures } = await runtime[kind].check({}, inputs({ subOrganizationId: "sub_a-1" }));
    expect(failures).toEqual([]);
  });
});

test("the provider's own subOrganizationId and apiKey follow the same header rule", () => {
  expect(() =>
    readSettings(processSettings(), { VOICEPLATFORM_SUB_ORGANIZATION_ID: "org-é" }),
  ).toThrow(
    /voiceplatform:subOrganizationId \(or VOICEPLATFORM_SUB_ORGANIZATION_ID\) is "org-é", which must hold only printable ASCII/,
  );
  let message = "";
  try {
    readSettings(processSettings(), { VOICEPLATFORM_API_KEY: "key-é-secret" });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(
    /voiceplatform:apiKey \(or VOICEPLATFORM_API_KEY\) must hold only printable ASCII/,
  );
  expect(message).not.toContain("key-é-secret");
});

test("ids that become path segments fail check when a URL parser would move them", async () => {
  const voice = await runtime.Voice.check({}, { name: "Adopted", existingVoiceId: ".." });
  expect(voice.failures).toEqual([
    { property: "existingVoiceId", reason: expect.stringMatching(/must not be ".."/) },
  ]);
  // A carrier's id becomes the resource's id, which later calls may put in a path.
  const carrier = await runtime.SipCarrier.check({}, carrierInputs({ existingCarrierId: "%2e" }));
  expect(carrier.failures).toEqual([
    { property: "existingCarrierId", reason: expect.stringMatching(/must not be "."/) },
  ]);
});

describe("a check failure on a secret input", () => {
  it("shows [secret] where other inputs show their value", async () => {
    const carrier = await runtime.SipCarrier.check(
      {},
      carrierInputs({ registerPassword: 48151623 }),
    );
    // No property: the engine would print the value of the input it names (core/check forEngine).
    expect(carrier.failures).toEqual([
      { property: "", reason: "registerPassword must be a string, not [secret]" },
    ]);
    const webhook = await runtime.CampaignWebhook.check(
      {},
      webhookInputs({
        isAdvanced: true,
        advancedWebhook: advancedWebhook({
          headers: [{ name: "X-Pin", value: 4711 }],
          parameters: [{ name: "pin", value: true }],
        }),
      }),
    );
    expect(webhook.failures).toEqual([
      { property: "", reason: "advancedWebhook.headers[0].value must be a string, not [secret]" },
      {
        property: "",
        reason: "advancedWebhook.parameters[0].value must be a string, not [secret]",
      },
    ]);
    const whole = await runtime.CampaignWebhook.check(
      {},
      webhookInputs({ isAdvanced: true, advancedWebhook: "https://crm.example.com/T0KEN" }),
    );
    expect(JSON.stringify(whole.failures)).not.toContain("T0KEN");
    expect(JSON.stringify(whole.failures)).toContain("[secret]");
  });
});
