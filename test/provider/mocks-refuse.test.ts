/**
 * With `pulumi-voice-platform/testing`'s mocks, an input check refuses rejects the resource's
 * outputs with the refusal `pulumi preview` prints, so a unit test can `await expect(...).rejects`
 * (testing's `outputValue`) instead of waiting for jest's timeout; the test process goes on.
 */
import * as pulumi from "@pulumi/pulumi";
import { CampaignWebhook, SipCarrier } from "../../provider";
import { outputValue, voicePlatformMocks } from "../../provider/testing";

pulumi.runtime.setMocks(voicePlatformMocks(), "mocks-refuse", "test", false);

test("a refused input rejects the outputs with the preview's message; a good resource resolves", async () => {
  const started = Date.now();
  const refused = new SipCarrier("bad-port", {
    name: "t",
    gateways: [{ ipv4: "203.0.113.10", port: 70000 }],
  });
  const message =
    'SipCarrier "bad-port" has inputs `pulumi preview` would refuse:\n  gateways[0].port must be at most 65535, not number 70000';
  await expect(outputValue(refused.id)).rejects.toThrow(message);
  await expect(outputValue(refused.gateways)).rejects.toThrow(message);
  const webhook = new CampaignWebhook("good", {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/x",
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
  });
  expect(await outputValue(webhook.url)).toBe("https://hooks.example.com/x");
  expect(Date.now() - started).toBeLessThan(5000);
});

test("a value the program made secret is not quoted in the refusal, as preview's check does not quote it", async () => {
  const refused = new SipCarrier("secret-gateway", {
    name: "t",
    gateways: pulumi.secret([{ ipv4: "not a host!", port: 5060 }]),
  });
  await expect(outputValue(refused.id)).rejects.toThrow(
    'SipCarrier "secret-gateway" has inputs `pulumi preview` would refuse:\n  gateways[0].ipv4 ([secret]) must be a hostname or an IPv4 address such as sip.example.com or 203.0.113.10',
  );
});

test("an input that is not the resource's, or the import's marker written by the program, is refused in the check's words, not zod's", async () => {
  const misspelt = new SipCarrier("misspelt", {
    name: "t",
    phone_numbers: [{ phoneNumber: "+14155550100" }],
  } as never);
  await expect(outputValue(misspelt.id)).rejects.toThrow(
    'SipCarrier "misspelt" has inputs `pulumi preview` would refuse:\n  phone_numbers is not an input of SipCarrier (did you mean "phoneNumbers"?); remove it or fix its name',
  );
  // The marker an import's read leaves waives a required input only where something was read.
  const marked = new CampaignWebhook("marked", {
    __adopted: true,
    url: "https://hooks.example.com/x",
  } as never);
  await expect(outputValue(marked.id)).rejects.toThrow(
    'CampaignWebhook "marked" has inputs `pulumi preview` would refuse:\n  campaignId is required: set it to a string',
  );
});
