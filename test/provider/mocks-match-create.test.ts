/**
 * The testing entry's mocks (`pulumi-voice-platform/testing`) give a resource the state the
 * provider's own create stores against the platform: each case is created by the dynamic
 * runtime against the emulator (answers as terse as the spec) and by the mocks, and the two
 * states are equal once the ids each platform made up are masked. A mock whose answers or steps
 * drift from the provider's create fails here.
 */
import { SECRET_SIG, SIG_KEY } from "../../provider/core/engine-values";
import * as runtime from "../../provider/runtime";
import { mockIdFormats, voicePlatformMocks } from "../../provider/testing";
import { advancedWebhook, campaignId, writeSample } from "../support/builders";
import { useEmulator } from "./emulator-harness";

const context = useEmulator();

type Kind = "Voice" | "SipCarrier" | "CampaignWebhook";

/**
 * Ids either platform makes up, masked (only their form has to match), and secrets as their
 * values (the mocks hand them back secret, as the engine keeps them).
 */
function masked(value: unknown): unknown {
  if (typeof value === "string") {
    if (mockIdFormats.objectId.test(value)) return "<ObjectId>";
    if (mockIdFormats.webhookId.test(value)) return `${value.slice(0, 24)}/<UUID>`;
    if (mockIdFormats.providerVoiceId.test(value)) return "<provider voice id>";
    return value;
  }
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === "object") {
    const bag = value as Record<string, unknown>;
    if (bag[SIG_KEY] === SECRET_SIG) return masked(bag.value);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item)]));
  }
  return value;
}

async function createdByProvider(kind: Kind, inputs: Record<string, unknown>) {
  const { inputs: checked, failures } = await runtime[kind].check({}, inputs);
  expect(failures).toEqual([]);
  const { id, outs } = await runtime[kind].create(checked);
  return { id, state: outs };
}

async function createdByMocks(kind: Kind, inputs: Record<string, unknown>) {
  const mocks = voicePlatformMocks({ organizationId: "org_emulator" });
  const created = await mocks.newResource({
    type: `voiceplatform:index:${kind}`,
    name: "case",
    inputs,
    custom: true,
  });
  // The mocks read the stack's config as a provider's configure would: point it back.
  context.configure();
  return created as { id: string; state: Record<string, unknown> };
}

const greeting = () => writeSample("mocks-greeting.wav", "greeting sample");
const closing = () => writeSample("mocks-closing.wav", "closing sample");

const cases: [string, Kind, () => Record<string, unknown>][] = [
  [
    "a voice cloned with its required inputs",
    "Voice",
    () => ({ name: "Plain", files: [greeting()] }),
  ],
  [
    "a voice cloned with settings, locales and isMultilingual (a clone, then an update)",
    "Voice",
    () => ({
      name: "Support agent",
      description: "Answers the phone",
      providerType: "CARTESIA",
      supportedLocales: ["es-es", "en-US"],
      stability: 0.4,
      similarityBoost: 0.8,
      speed: 1.1,
      isMultilingual: true,
      files: [closing(), greeting()],
    }),
  ],
  [
    "a carrier with every input",
    "SipCarrier",
    () => ({
      name: "main-trunk",
      requiresRegister: true,
      registerUsername: "acme",
      registerPassword: "s3cret-password",
      registerSipRealm: "sip.example.com",
      techPrefix: "99",
      e164LeadingPlus: true,
      gateways: [
        { inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060, protocol: "udp" },
        { outbound: true, ipv4: "sip.example.com", port: 5061, protocol: "tls" },
      ],
      phoneNumbers: [{ phoneNumber: "+14155550100" }, { phoneNumberSid: "PN1" }],
    }),
  ],
  ["a carrier recorded by id", "SipCarrier", () => ({ name: "old", existingCarrierId: "c-123" })],
  [
    "a simple webhook",
    "CampaignWebhook",
    () => ({
      campaignId: campaignId.toUpperCase(),
      url: "https://hooks.example.com/calls",
      events: ["POST_PROCESSING_FINISHED:WRONG_NUMBER", "POST_PROCESSING_FINISHED:INTERESTED"],
    }),
  ],
  [
    "an advanced webhook",
    "CampaignWebhook",
    () => ({
      campaignId,
      url: "https://hooks.example.com/calls",
      isAdvanced: true,
      advancedWebhook: advancedWebhook(),
    }),
  ],
  [
    "a webhook recorded with alreadySubscribed",
    "CampaignWebhook",
    () => ({ campaignId, url: "https://hooks.example.com/old", alreadySubscribed: true }),
  ],
];

test.each(cases)("%s: the mocks store what the provider's create stores", async (_, kind, make) => {
  const inputs = make();
  const provider = await createdByProvider(kind, inputs);
  const mocked = await createdByMocks(kind, inputs);
  expect(masked(mocked.state)).toEqual(masked(provider.state));
  expect(masked(mocked.id)).toEqual(masked(provider.id));
});

test("a voice adopted with existingVoiceId: the mocks store what the provider's adoption stores", async () => {
  const clone = await createdByProvider("Voice", { name: "Existing", files: [greeting()] });
  const inputs = { name: "Adopted", existingVoiceId: clone.id, supportedLocales: ["en-GB"] };
  const provider = await createdByProvider("Voice", inputs);
  const mocked = await createdByMocks("Voice", inputs);
  expect(mocked.id).toBe(clone.id);
  expect(masked(mocked.state)).toEqual(masked(provider.state));
});

test("the secret inputs come back secret, and only those", async () => {
  const carrier = await createdByMocks("SipCarrier", { name: "s", registerPassword: "pw" });
  expect(carrier.state.registerPassword).toEqual({ [SIG_KEY]: SECRET_SIG, value: "pw" });
  const webhook = await createdByMocks("CampaignWebhook", {
    campaignId,
    url: "https://hooks.example.com/calls",
    isAdvanced: true,
    advancedWebhook: advancedWebhook(),
  });
  const secretOutputs = Object.entries(webhook.state)
    .filter(([, value]) => (value as Record<string, unknown>)?.[SIG_KEY] === SECRET_SIG)
    .map(([key]) => key);
  expect(secretOutputs).toEqual(["advancedWebhook"]);
});

test("the ids have the platform's forms", async () => {
  const voice = await createdByMocks("Voice", { name: "Ids voice", files: [greeting()] });
  const carrier = await createdByMocks("SipCarrier", { name: "ids" });
  const webhook = await createdByMocks("CampaignWebhook", {
    campaignId,
    url: "https://hooks.example.com/ids",
  });
  expect(voice.id).toMatch(mockIdFormats.objectId);
  expect(voice.state.voiceId).toMatch(mockIdFormats.providerVoiceId);
  expect(carrier.id).toMatch(mockIdFormats.objectId);
  expect(carrier.state.carrierId).toBe(carrier.id);
  expect(webhook.id).toMatch(mockIdFormats.webhookId);
  expect(webhook.id.startsWith(`${campaignId}/`)).toBe(true);
});

test("inputs the provider's check refuses fail the resource with the messages a preview prints", async () => {
  const mocks = voicePlatformMocks();
  const created = mocks.newResource({
    type: "pulumi-nodejs:dynamic/voiceplatform:SipCarrier",
    name: "bad-trunk",
    inputs: {
      name: "",
      registerPassword: "never-shown-71",
      gateways: [{ ipv4: "203.0.113.1", port: 70000 }],
    },
    custom: true,
  });
  const failure = await Promise.resolve(created).catch((error: Error) => error);
  expect(failure).toBeInstanceOf(Error);
  const { message } = failure as Error;
  expect(message).toMatch(/^SipCarrier "bad-trunk" has inputs `pulumi preview` would refuse:\n/);
  expect(message).toContain("\n  name must not be empty:");
  expect(message).toContain("remove it or give a value\n");
  expect(message).toMatch(/\n {2}gateways\[0\]\.port must be at most 65535, not number 70000$/);
  expect(message).not.toContain("never-shown-71");
  context.configure();
});
