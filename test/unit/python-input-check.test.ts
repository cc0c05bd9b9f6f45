/**
 * The Python SDK's input check (pulumi_voiceplatform/_input_check.py, generated from the resources'
 * schemas) refuses what the TypeScript mocks refuse, with the same words: each case's refusal is
 * taken from voicePlatformMocks (the provider's check) and a pytest session over the module alone
 * (it imports nothing of pulumi) expects exactly it, and no refusal for good inputs. The mocks'
 * InputError from `new_resource` is held in test/examples/mocks-outside.test.ts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { ASSET_SIG, SECRET_SIG, SIG_KEY, UNKNOWN } from "../../provider/core/engine-values";
import { pythonInputCheckModule, uncheckedRules } from "../../provider/codegen/python-input-check";
import { voicePlatformMocks } from "../../provider/testing";

const run = promisify(execFile);
const REPO = resolve(__dirname, "../..");
const MODULE = join(REPO, "provider/sdk/python/pulumi_voiceplatform/_input_check.py");
const OBJECT_ID = "65a1f0c2e4b0a1b2c3d4e5f6";
const HOOK = "https://hooks.example.com/calls";

interface Case {
  readonly kind: "Voice" | "SipCarrier" | "CampaignWebhook";
  readonly inputs: Record<string, unknown>;
  /** Top-level inputs whose values the program made secret. */
  readonly marked?: readonly string[];
  /** Good inputs: neither check refuses them. */
  readonly passes?: true;
}

/** Bad inputs break only rules the Python check carries. */
const cases: Case[] = [
  {
    kind: "SipCarrier",
    inputs: { name: "main-trunk", gateways: [{ ipv4: "203.0.113.10", port: 70000 }] },
  },
  {
    kind: "SipCarrier",
    inputs: {
      name: "c",
      gateways: [{ ipv4: "sip.example.com", port: 5060, sip_gateway_sid: "x", portt: 1 }],
      register_password: "p",
    },
  },
  {
    kind: "SipCarrier",
    inputs: {
      gateways: [
        { ipv4: "", port: 1.5, netmask: 40, protocol: "" },
        { ipv4: "a..b", port: "5060" },
      ],
      phoneNumbers: "x",
      requiresRegister: "yes",
    },
  },
  { kind: "SipCarrier", inputs: { name: "c", registerPassword: 5 } },
  { kind: "SipCarrier", inputs: { name: 5 }, marked: ["name"] },
  {
    kind: "Voice",
    inputs: {
      name: "",
      existingVoiceId: OBJECT_ID,
      supportedLocales: ["english", 3, "en-us"],
      stability: "high",
      isMultilingual: "yes",
    },
  },
  { kind: "Voice", inputs: { name: "v", files: [5, {}] } },
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: "nope",
      url: HOOK,
      events: ["CALLED", "POST_PROCESSING_FINISHED:INTERESTED"],
    },
  },
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: OBJECT_ID,
      url: HOOK,
      isAdvanced: true,
      advancedWebhook: {
        url: 5,
        method: "G E T",
        headers: [{ name: "bad name", value: "v" }, { name: "X-Token" }],
        parameters: [{}],
        bodyy: "x",
      },
    },
  },
  { kind: "CampaignWebhook", inputs: { url: HOOK, alreadySubscribed: 1 } },
  // The rules between fields and the URLs (core/declared-rules.ts).
  {
    kind: "SipCarrier",
    inputs: {
      name: "c",
      gateways: [{ inbound: true, ipv4: "sip.example.com" }, { port: 5060 }, { inbound: true }],
      phoneNumbers: [{}, { phoneNumberSid: "PN1" }],
    },
  },
  { kind: "SipCarrier", inputs: { name: "c", gateways: [{ inbound: true, ipv4: "1.2.3" }] } },
  {
    kind: "CampaignWebhook",
    inputs: { campaignId: OBJECT_ID, url: "https:hooks.example.com", isAdvanced: true },
  },
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: OBJECT_ID,
      url: "http://hooks.example.com:99999/calls",
      isAdvanced: false,
      advancedWebhook: {
        url: "https://exa<mple.com/x",
        headers: [{ name: "X-Token", value: "a\r\nb" }],
      },
    },
  },
  {
    kind: "CampaignWebhook",
    inputs: { campaignId: OBJECT_ID, url: "http://999.1.1.1/", advancedWebhook: { url: HOOK } },
  },
  { kind: "Voice", inputs: { name: "v" } },
  { kind: "Voice", inputs: { name: "v", files: [] } },
  {
    kind: "Voice",
    inputs: {
      name: "v",
      existingVoiceId: "f".repeat(70),
      description: "d",
      providerType: "ELEVENLABS",
      subAccounts: false,
    },
  },
  // Numbers that are not finite, named as JavaScript names them.
  {
    kind: "SipCarrier",
    inputs: { name: "c", gateways: [{ ipv4: "203.0.113.10", port: NaN, netmask: Infinity }] },
  },
  {
    kind: "Voice",
    inputs: { name: "v", existingVoiceId: OBJECT_ID, stability: -Infinity, speed: NaN },
  },
  // Host names the URL parser's IDNA mapping refuses without its tables: an xn-- label that is no
  // punycode or decodes to a control character, a zero-width joiner not after a virama.
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: OBJECT_ID,
      url: "https://xn--zz.example.com/calls",
      isAdvanced: true,
      advancedWebhook: { url: "https://a\u200db.example.com/x" },
    },
  },
  { kind: "CampaignWebhook", inputs: { campaignId: OBJECT_ID, url: "https://xn--a.example/x" } },
  { kind: "CampaignWebhook", inputs: { campaignId: OBJECT_ID, url: "https://xn--.example/x" } },
  {
    kind: "CampaignWebhook",
    passes: true,
    inputs: {
      campaignId: OBJECT_ID,
      url: "https://XN--BCHER-KVA.example/calls",
      isAdvanced: true,
      advancedWebhook: { url: "https://\u0915\u094d\u200d\u0937.b\u00fccher.example/x" },
    },
  },
  {
    kind: "CampaignWebhook",
    passes: true,
    inputs: { campaignId: OBJECT_ID, url: "https://xn--a-.example/x" },
  },
  // Ids in a request's path, and the sub-organization in its header.
  { kind: "Voice", inputs: { name: "v", existingVoiceId: "%2E%2e", subOrganizationId: " sub" } },
  {
    kind: "SipCarrier",
    inputs: { name: "c", existingCarrierId: "a%0Ab", subOrganizationId: "a\u001fb" },
  },
  {
    kind: "CampaignWebhook",
    inputs: { campaignId: OBJECT_ID, url: HOOK, subOrganizationId: "süd" },
  },
  {
    kind: "SipCarrier",
    passes: true,
    inputs: { name: "c", existingCarrierId: "a%zz.", subOrganizationId: "sub-1" },
  },
  {
    kind: "SipCarrier",
    passes: true,
    inputs: {
      name: "main-trunk",
      registerPassword: "pw",
      gateways: [{ inbound: true, ipv4: "203.0.113.10", port: 5060, netmask: 32 }],
      phoneNumbers: [{ phoneNumber: "+14155550100" }],
    },
  },
  {
    kind: "Voice",
    passes: true,
    inputs: { name: "Adopted", existingVoiceId: OBJECT_ID, supportedLocales: ["en-us"] },
  },
  // Unknown during a mocked preview, it may still be left out: the rules say nothing yet.
  { kind: "Voice", passes: true, inputs: { name: "v", existingVoiceId: UNKNOWN } },
  {
    kind: "CampaignWebhook",
    passes: true,
    inputs: { campaignId: OBJECT_ID, url: "https://[::1]:8443/calls" },
  },

  {
    kind: "CampaignWebhook",
    passes: true,
    inputs: {
      campaignId: OBJECT_ID.toUpperCase(),
      url: HOOK,
      events: ["POST_PROCESSING_FINISHED:DO_NOT_CALL"],
    },
  },
];

/**
 * Sample files the provider cannot upload, under \`folder\` (absolute: the pytest session runs
 * elsewhere): missing, a directory, empty, under a file (stat fails whoever runs it; a file
 * without read permission is not refused by check, which only stats it), a long path, a
 * StringAsset, and a good one.
 */
async function sampleCases(folder: string): Promise<Case[]> {
  const good = join(folder, "good.wav");
  const empty = join(folder, "empty.wav");
  await writeFile(good, "RIFF");
  await writeFile(empty, "");
  const voice = (files: unknown[], passes?: true): Case => ({
    kind: "Voice",
    inputs: { name: "voice", files },
    ...(passes ? { passes } : {}),
  });
  return [
    voice([join(folder, "missing.wav")]),
    voice([folder, { [SIG_KEY]: ASSET_SIG, path: empty }]),
    voice([good, join(good, "inside.wav"), { [SIG_KEY]: ASSET_SIG, text: "not a file" }]),
    voice([join(folder, `${"long-".repeat(30)}.wav`), { [SIG_KEY]: ASSET_SIG, path: good }]),
    voice([good, { [SIG_KEY]: ASSET_SIG, path: good }], true),
  ];
}

/** What the TypeScript mocks answer: their refusal's message, or null when they create it. */
async function typeScriptRefusal(item: Case): Promise<string | null> {
  const inputs = Object.fromEntries(
    Object.entries(item.inputs).map(([key, value]) => [
      key,
      item.marked?.includes(key) ? { [SIG_KEY]: SECRET_SIG, value } : value,
    ]),
  );
  const mocks = voicePlatformMocks({ organizationId: OBJECT_ID });
  try {
    await mocks.newResource({
      type: `voiceplatform:index:${item.kind}`,
      name: "case",
      inputs,
      custom: true,
    });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const pytestSuite = `import json

import pytest

from _input_check import refusal

with open("cases.json", encoding="utf-8") as given:
    CASES = json.load(given)


@pytest.mark.parametrize("case", CASES, ids=[str(index) for index in range(len(CASES))])
def test_refuses_as_the_providers_check_does(case):
    assert refusal(case["kind"], "case", case["inputs"], case["marked"]) == case["expected"]
`;

/** JSON with NaN and ±Infinity written as the tokens Python's json module reads them from. */
function withNonFiniteNumbers(value: unknown): string {
  const token = (number: number) => `\u0000${String(number)}\u0000`;
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === "number" && !Number.isFinite(item) ? token(item) : item,
  );
  return text.replace(/"\\u0000(NaN|-?Infinity)\\u0000"/g, "$1");
}

/** Inputs preview takes with warnings; each case's name its own, as the provider says a warning once. */
const warningCases: Case[] = [
  {
    kind: "SipCarrier",
    inputs: {
      name: "w-gateways",
      gateways: [
        { ipv4: "sip.example.com", port: 5060, protocol: "sctp", netmask: 0 },
        { ipv4: "sip.example.com" },
        { ipv4: "203.0.113.10", inbound: true, port: 5070 },
        { ipv4: "203.0.113.10", port: 5061 },
      ],
      phoneNumbers: [
        { phoneNumber: "0123" },
        { phoneNumber: "+14155550100" },
        { phoneNumberSid: "PN1" },
      ],
    },
  },
  {
    kind: "SipCarrier",
    inputs: {
      name: `w-long-${"n".repeat(60)}`,
      requiresRegister: true,
      registerUsername: "a user",
      registerSipRealm: "SIP:realm.example.com",
      registerFromDomain: "sip:from.example.com",
      techPrefix: "1".repeat(17),
      diversion: "\u{1F4DE}".repeat(17),
      outboundSipProxy: "p".repeat(256),
    },
  },
  {
    kind: "Voice",
    inputs: {
      name: "w1",
      files: [join(REPO, "package.json")],
      providerType: "PLAYHT",
      stability: 1.5,
      similarityBoost: -0.25,
      speed: 0.5,
    },
  },
  {
    kind: "Voice",
    inputs: { name: "w-voice", files: [join(REPO, "package.json")], speed: 1.2, stability: 0 },
  },
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: OBJECT_ID,
      url: "http://hooks.example.com/calls",
      events: [],
      isAdvanced: true,
      advancedWebhook: { url: "http://hooks.example.com/x", method: "get", body: "{}" },
    },
  },
  {
    kind: "CampaignWebhook",
    inputs: {
      campaignId: OBJECT_ID.toUpperCase(),
      url: HOOK,
      isAdvanced: true,
      advancedWebhook: { url: HOOK, body: "{}" },
    },
  },
  // A name the program made secret is blanked in the warning, whatever its case.
  {
    kind: "SipCarrier",
    inputs: { name: "W-Secret", diversion: "w-secret".repeat(5) },
    marked: ["name"],
  },
  // No warning of inputs preview refuses, nor of inputs not wholly known.
  {
    kind: "SipCarrier",
    inputs: { name: "w-refused", gateways: [{ ipv4: "sip.example.com", port: 0 }] },
  },
  {
    kind: "SipCarrier",
    inputs: {
      name: "w-unknown",
      registerSipRealm: UNKNOWN,
      gateways: [{ ipv4: "sip.example.com", port: 5060 }],
    },
  },
];

/** Whether the TypeScript mocks refuse a case, and the warnings they print (`warning: ` off). */
async function typeScriptWarnings(item: Case): Promise<{ refused: boolean; said: string[] }> {
  const printed = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    const refused = (await typeScriptRefusal(item)) !== null;
    return {
      refused,
      said: printed.mock.calls.map(([text]) => String(text).replace(/^warning: /, "")),
    };
  } finally {
    printed.mockRestore();
  }
}

const pytestWarningsSuite = `import json

import pytest

from _input_check import warnings

with open("warning-cases.json", encoding="utf-8") as given:
    CASES = json.load(given)


@pytest.mark.parametrize("case", CASES, ids=[str(index) for index in range(len(CASES))])
def test_warns_as_the_providers_check_does(case):
    assert warnings(case["kind"], case["inputs"], case["marked"]) == case["expected"]
`;

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "python-input-check-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

test("the committed _input_check.py is the generated one (npm run sdk:generate writes it)", async () => {
  expect(await readFile(MODULE, "utf8")).toBe(pythonInputCheckModule());
});

test("the Python check refuses each bad input with the TypeScript mocks' words, and passes the good ones", async () => {
  const samples = await sampleCases(folder);
  const expected = await Promise.all([...cases, ...samples].map(typeScriptRefusal));
  // The table holds both: refusals the rules give, and inputs that pass.
  expect(expected.map((text) => text === null)).toEqual(
    [...cases, ...samples].map((item) => item.passes === true),
  );
  expect(expected[0]).toBe(
    'SipCarrier "case" has inputs `pulumi preview` would refuse:\n' +
      "  gateways[0].port must be at most 65535, not number 70000",
  );
  expect(expected[cases.length]).toContain(
    `"${join(folder, "missing.wav")}" does not exist or cannot be read: fix the path`,
  );
  await writeFile(join(folder, "_input_check.py"), await readFile(MODULE, "utf8"));
  await writeFile(
    join(folder, "cases.json"),
    withNonFiniteNumbers(
      [...cases, ...samples].map((item, index) => ({
        ...item,
        marked: item.marked ?? [],
        expected: expected[index],
      })),
    ),
  );
  await writeFile(join(folder, "test_input_check.py"), pytestSuite);
  const { stdout } = await run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], {
    cwd: folder,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`pytest failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  expect(stdout).toMatch(new RegExp(`${cases.length + samples.length} passed`));
});

test("the Python check's warnings are the TypeScript mocks' (a hostname gateway, a number not in E.164 form, and every other warning of each kind)", async () => {
  const answers: { refused: boolean; said: string[] }[] = [];
  for (const item of warningCases) answers.push(await typeScriptWarnings(item));
  expect(answers.map((answer) => answer.refused)).toEqual(
    warningCases.map((item) => item.inputs.name === "w-refused"),
  );
  const expected = answers.map((answer) => answer.said);
  expect(expected[0]).toContain(
    'SipCarrier "w-gateways": phoneNumbers[0].phoneNumber "0123" is not in E.164 form (+14155550100)',
  );
  expect(expected[0]).toContain(
    'SipCarrier "w-gateways": gateways[0].ipv4 "sip.example.com" is a hostname; the spec asks for an IPv4 address',
  );
  // Every warning of each kind is among the cases; none for refused or unknown inputs.
  expect(expected.map((said) => said.length)).toEqual([6, 8, 5, 0, 5, 1, 1, 0, 0]);
  await writeFile(join(folder, "_input_check.py"), await readFile(MODULE, "utf8"));
  await writeFile(
    join(folder, "warning-cases.json"),
    JSON.stringify(
      warningCases.map((item, index) => ({
        ...item,
        marked: item.marked ?? [],
        expected: expected[index],
      })),
    ),
  );
  await writeFile(join(folder, "test_warnings.py"), pytestWarningsSuite);
  const { stdout } = await run(
    "python3",
    ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_warnings.py"],
    { cwd: folder },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`pytest failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  expect(stdout).toMatch(new RegExp(`${warningCases.length} passed`));
});

test("the rules the Python check leaves to preview are the parts of declared rules it has not", () => {
  // The URL parser's IDNA mapping (core/input-rules.ts, absoluteUrl's notCarried).
  expect(uncheckedRules().map((rule) => `${rule.kind} ${rule.path}`)).toEqual([
    "CampaignWebhook url",
    "CampaignWebhook advancedWebhook.url",
  ]);
});
