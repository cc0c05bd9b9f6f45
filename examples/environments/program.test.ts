/**
 * Unit tests of this program with the package's mocks (`npm test`): no engine, no platform, no
 * key. The program runs with a stack's config as `pulumi up` would give it, and each resource
 * gets what `pulumi up` would store, with ids in the platform's forms.
 */
import * as pulumi from "@pulumi/pulumi";
import { mockIdFormats, voicePlatformMocks } from "pulumi-voice-platform/testing";

const PROJECT = "voice-platform-environments";

/** A stack's config like Pulumi.prod.yaml's, and its SIP password. */
const prodConfig = {
  "voiceplatform:subOrganizationId": "sub-prod",
  [`${PROJECT}:locales`]: JSON.stringify(["en-US", "es-ES", "fr-FR"]),
  [`${PROJECT}:stability`]: "0.6",
  [`${PROJECT}:hookBaseUrl`]: "https://hooks.example.com",
  [`${PROJECT}:campaignId`]: "65a1f0c2e4b0a1b2c3d4e5f3",
  [`${PROJECT}:gateways`]: JSON.stringify([
    { ipv4: "203.0.113.30", port: 5060 },
    { ipv4: "203.0.113.31", port: 5060 },
  ]),
};

/** Every resource the last run declared, with its inputs, as the mocks saw it. */
let declared: pulumi.runtime.MockResourceArgs[] = [];

/** Runs the program afresh under the mocks as stack `stack`, with this config. */
function runProgram(stack: string, config: Record<string, string>, secretKeys: string[] = []) {
  declared = [];
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
    stack,
    false,
  );
  pulumi.runtime.setAllConfig(config, secretKeys);
  let program: typeof import("./index") | undefined;
  jest.isolateModules(() => {
    program = require("./index") as typeof import("./index");
  });
  return program!;
}

const valueOf = <T>(output: pulumi.Output<T>) =>
  new Promise<T>((resolve) => output.apply((value) => resolve(value)));

function inputsOf(name: string): Record<string, unknown> {
  const found = declared.find((resource) => resource.name === name);
  if (found === undefined) throw new Error(`the program declared no resource "${name}"`);
  return found.inputs as Record<string, unknown>;
}

test("prod: the stack's locales, gateways and hooks; the platform's ids", async () => {
  const program = runProgram(
    "prod",
    { ...prodConfig, [`${PROJECT}:sipPassword`]: "unit-test-sip-password" },
    [`${PROJECT}:sipPassword`],
  );
  expect(await valueOf(program.voiceId)).toMatch(mockIdFormats.providerVoiceId);
  expect(await valueOf(program.carrierId)).toMatch(mockIdFormats.objectId);
  expect(inputsOf("agent-voice")).toMatchObject({
    name: "Agent (prod)",
    supportedLocales: ["en-US", "es-ES", "fr-FR"],
    stability: 0.6,
  });
  expect(inputsOf("trunk")).toMatchObject({
    name: "trunk-prod",
    gateways: [
      { ipv4: "203.0.113.30", port: 5060, inbound: true, outbound: true, protocol: "udp" },
      { ipv4: "203.0.113.31", port: 5060, inbound: true, outbound: true, protocol: "udp" },
    ],
  });
  expect(inputsOf("outcomes")).toMatchObject({
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f3",
    url: "https://hooks.example.com/voice/outcomes",
  });
});

test("the SIP password comes from SIP_PASSWORD when the stack has none, and stays secret", async () => {
  process.env.SIP_PASSWORD = "unit-test-from-environment";
  try {
    const program = runProgram("prod", prodConfig);
    await valueOf(program.carrierId);
    const password = inputsOf("trunk").registerPassword as Record<string, unknown>;
    expect(password[pulumi.runtime.specialSigKey]).toBe(pulumi.runtime.specialSecretSig);
  } finally {
    delete process.env.SIP_PASSWORD;
  }
});

test("without a SIP password anywhere the program stops, saying how to set one", () => {
  expect(() => runProgram("prod", prodConfig)).toThrow(
    "sipPassword is not set: run `pulumi config set --secret sipPassword <password>`, or export SIP_PASSWORD",
  );
});
