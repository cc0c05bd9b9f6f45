/**
 * Unit tests of this program with the package's mocks (`npm test`): no engine, no plugin
 * process, no platform, no key. The mocks serve the SDK's types (`voiceplatform:index:*`) as they
 * serve the dynamic resources', and an input the provider would refuse fails the run with the
 * message `pulumi preview` prints.
 */
import * as pulumi from "@pulumi/pulumi";
import { mockIdFormats, voicePlatformMocks } from "pulumi-voice-platform/testing";

const PROJECT = "voice-platform-plugin-typescript";

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
  {
    [`${PROJECT}:sipPassword`]: "unit-test-sip-password",
    [`${PROJECT}:carrierPort`]: "5080",
  },
  [`${PROJECT}:sipPassword`],
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

beforeAll(() => Promise.all([program.voiceId, program.carrierId, program.webhookId].map(valueOf)));

test("the stack's outputs are the platform's ids; nothing is adopted unless asked", async () => {
  expect(await valueOf(program.voiceId)).toMatch(mockIdFormats.providerVoiceId);
  expect(await valueOf(program.carrierId)).toMatch(mockIdFormats.objectId);
  expect(await valueOf(program.webhookId)).toMatch(/^65a1f0c2e4b0a1b2c3d4e5f6\//);
  expect(program.adoptedCarrierId).toBeUndefined();
});

test("the resources are the plugin's, one of each kind", () => {
  expect(declared.map((resource) => resource.type).sort()).toEqual([
    "voiceplatform:index:CampaignWebhook",
    "voiceplatform:index:SipCarrier",
    "voiceplatform:index:Voice",
  ]);
});

test("the gateway takes its port from config, the password stays secret", () => {
  const carrier = inputsOf("main-trunk");
  expect(carrier.gateways).toEqual([expect.objectContaining({ ipv4: "203.0.113.10", port: 5080 })]);
  expect(isSecret(carrier.registerPassword)).toBe(true);
});

test("the webhook calls an https address", () => {
  expect(inputsOf("interested-leads").url).toMatch(/^https:\/\//);
});
