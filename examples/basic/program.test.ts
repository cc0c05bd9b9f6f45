/**
 * Unit tests of this program with the package's mocks (`npm test`): no engine, no platform, no
 * key. Each resource gets what `pulumi up` would store, with ids in the platform's forms. An input
 * the provider would refuse fails the run with the message `pulumi preview` prints.
 */
import * as pulumi from "@pulumi/pulumi";
import { mockIdFormats, voicePlatformMocks } from "pulumi-voice-platform/testing";

const PROJECT = "voice-platform-basic";
const secrets = { sipPassword: "unit-test-sip-password", crmToken: "unit-test-crm-token" };

/** Every resource the program declared, with its inputs, as the mocks saw it. */
const declared: pulumi.runtime.MockResourceArgs[] = [];
const mocks = voicePlatformMocks();
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      declared.push(args);
      return mocks.newResource(args);
    },
    call: (args) => mocks.call(args),
  },
  PROJECT,
  "test",
  false,
);
pulumi.runtime.setAllConfig(
  Object.fromEntries(Object.entries(secrets).map(([key, value]) => [`${PROJECT}:${key}`, value])),
  Object.keys(secrets).map((key) => `${PROJECT}:${key}`),
);

// After the mocks: the program's resources register with them.
import * as program from "./index";

const valueOf = <T>(output: pulumi.Output<T>) =>
  new Promise<T>((resolve) => output.apply((value) => resolve(value)));

/** An input as the engine carries it: secret ones wrapped, so they never reach state in plaintext. */
const isSecret = (value: unknown) =>
  (value as Record<string, unknown> | undefined)?.[pulumi.runtime.specialSigKey] ===
  pulumi.runtime.specialSecretSig;

function inputsOf(name: string): Record<string, unknown> {
  const found = declared.find((resource) => resource.name === name);
  if (found === undefined) throw new Error(`the program declared no resource "${name}"`);
  return found.inputs as Record<string, unknown>;
}

beforeAll(() =>
  // Every output resolved: every resource registered.
  Promise.all(
    [
      program.voiceRecordId,
      program.carrierId,
      program.interestedWebhookId,
      program.crmWebhookId,
    ].map(valueOf),
  ),
);

test("the stack's outputs are the platform's ids", async () => {
  expect(await valueOf(program.voiceRecordId)).toMatch(mockIdFormats.objectId);
  expect(await valueOf(program.voiceId)).toMatch(mockIdFormats.providerVoiceId);
  expect(await valueOf(program.carrierId)).toMatch(mockIdFormats.objectId);
  for (const webhookId of [program.interestedWebhookId, program.crmWebhookId]) {
    expect(await valueOf(webhookId)).toMatch(/^65a1f0c2e4b0a1b2c3d4e5f6\//);
  }
});

test("one voice from both samples, one carrier, two webhooks", () => {
  const kinds = declared.map((resource) => `${resource.type.split(":").pop()} ${resource.name}`);
  // In the order they registered, which Pulumi does not fix.
  expect(kinds.sort()).toEqual([
    "CampaignWebhook crm-sync",
    "CampaignWebhook interested-leads",
    "SipCarrier main-trunk",
    "Voice support-voice",
  ]);
  // A path relative to the project (the same state on every machine), and a FileAsset.
  const files = inputsOf("support-voice").files as unknown[];
  expect(files).toEqual(["samples/greeting.wav", expect.any(pulumi.asset.FileAsset)]);
});

test("every webhook calls an https address; the CRM's token travels only as a secret", () => {
  for (const name of ["interested-leads", "crm-sync"]) {
    expect(inputsOf(name).url).toMatch(/^https:\/\//);
  }
  expect(isSecret(inputsOf("crm-sync").advancedWebhook)).toBe(true);
});

test("the carrier registers, with the password from secret config kept secret", () => {
  const carrier = inputsOf("main-trunk");
  expect(carrier).toMatchObject({ requiresRegister: true, registerUsername: "acme-trunk" });
  expect(isSecret(carrier.registerPassword)).toBe(true);
});
