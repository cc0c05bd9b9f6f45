/**
 * The check every resource shares: values unknown during preview are never warned about, nor
 * do they fail, in any resource.
 */
import { unknownValue } from "@pulumi/pulumi/runtime";
import * as runtime from "../../provider/runtime";
import { carrierInputs, voiceInputs, webhookInputs } from "../support/builders";

let warned: string[];
beforeEach(() => {
  warned = [];
  jest.spyOn(console, "warn").mockImplementation((text: string) => void warned.push(text));
});
afterEach(() => jest.restoreAllMocks());

const resources = {
  Voice: voiceInputs({ providerType: "FOO", name: unknownValue }),
  SipCarrier: carrierInputs({
    name: unknownValue,
    phoneNumbers: [{ phoneNumber: "+2" }],
  }),
  CampaignWebhook: webhookInputs({ campaignId: unknownValue, url: "http://plain.example.com/x" }),
} as const;

describe.each(Object.keys(resources) as Array<keyof typeof resources>)("%s", (kind) => {
  test("a preview with an unknown value passes and warns about nothing unknown", async () => {
    const result = await runtime[kind].check({}, resources[kind]);
    expect(result.failures).toEqual([]);
    for (const text of warned) expect(text).not.toContain(unknownValue);
  });
});

test("Voice: the warning comes once the name is known", async () => {
  await runtime.Voice.check({}, voiceInputs({ providerType: "FOO", name: "Known voice" }));
  expect(warned).toEqual([
    expect.stringMatching(/^warning: Voice "Known voice": providerType "FOO" is not one/),
  ]);
});
