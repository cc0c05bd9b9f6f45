/**
 * Property-based tests of every resource's `check`, through the runtime handlers the engine calls:
 * thousands of random and hostile inputs. For each one, check
 * - never throws, and answers `{ inputs, failures }`;
 * - never accepts an input that an independent oracle (below) knows to be invalid;
 * - names the place of every failure (in the engine's form: a top-level input as the property,
 *   or none for an input holding a secret or a name that is no input, the exact path starting
 *   the reason when it is deeper) and a reason, and never reports a value that is unknown during
 *   preview;
 * - accepts every valid input, also with any part of it unknown, and normalizes idempotently;
 * - lets no `__proto__` or `constructor` key touch Object.prototype.
 *
 * The oracles restate a few key rules from the API spec and the field notes, independently of the
 * provider's zod schemas: a gateway port outside 1–65535, an event outside the five, an inbound
 * gateway without a literal IPv4 address, a URL that is not absolute http(s), a header value
 * with CR/LF, unknown fields, and so on.
 */
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { resources, resourceKinds, type ResourceKind } from "../../provider/resources";
import * as runtime from "../../provider/runtime";
import {
  allPaths,
  applyMutations,
  deepCopy,
  defineOwn,
  getAt,
  hostileKey,
  hostileValue,
  InputCounter,
  isRecord,
  known,
  mutation,
  setAt,
  UNKNOWN,
  valueAtProperty,
} from "../support/hostile-values";

type Kind = ResourceKind;
type Inputs = Record<string, unknown>;

const FULL = process.env.RELIABILITY_FULL === "1";
const runs = (n: number) => (FULL ? n * 4 : n);

// Hundreds of property runs per test: on a shared, loaded machine one can outlast jest's 30 s.
jest.setTimeout(180_000);

const counter = new InputCounter();
let warnSpy: jest.SpyInstance;
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

// Sample files: some exist, some never do.
const sampleDir = mkdtempSync(join(tmpdir(), "hostile-samples-"));
const samples = ["a.wav", "b.mp3", "c.ogg"].map((name) => {
  const path = join(sampleDir, name);
  writeFileSync(path, `RIFF ${name}`);
  return path;
});
const emptySample = join(sampleDir, "empty.wav");
writeFileSync(emptySample, "");
const missingSamples = [join(sampleDir, "missing.wav"), join(sampleDir, "nope", "x.mp3")];

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
const isAsset = (value: unknown) => isRecord(value) && Object.hasOwn(value, SIG_KEY);

beforeAll(() => {
  // Warnings are expected for odd but valid inputs; they are said once each and not checked here.
  warnSpy = jest.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterAll(() => {
  warnSpy.mockRestore();
  console.log(counter.summary("hostile input, provider check"));
});

async function check(kind: Kind, news: Inputs) {
  counter.add(kind);
  return runtime[kind].check({}, news);
}

// ---------------------------------------------------------------------------------------------
// Independent oracles: the reasons an input is certainly invalid.

const webhookEvents = new Set([
  "POST_PROCESSING_FINISHED:INTERESTED",
  "POST_PROCESSING_FINISHED:NOT_INTERESTED",
  "POST_PROCESSING_FINISHED:CALL_ME_LATER",
  "POST_PROCESSING_FINISHED:WRONG_NUMBER",
  "POST_PROCESSING_FINISHED:DO_NOT_CALL",
]);

function isStrictIpv4(value: string): boolean {
  const parts = value.split(".");
  return (
    parts.length === 4 &&
    parts.every(
      (part) => /^\d{1,3}$/.test(part) && String(Number(part)) === part && Number(part) <= 255,
    )
  );
}

function isHex24(value: string): boolean {
  return value.length === 24 && [...value].every((c) => "0123456789abcdefABCDEF".includes(c));
}

function isAbsoluteHttpUrl(value: string): boolean {
  // Scheme, "//" and a host; nothing a URL parser would silently strip or re-encode.
  if (!/^https?:\/\/[^/?#]/i.test(value)) return false;
  return ![...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f);
}

function isHeaderToken(value: string): boolean {
  return value.length > 0 && [...value].every((c) => /[A-Za-z0-9!#$%&'*+\-.^_`|~]/.test(c));
}

class Violations {
  readonly found: string[] = [];

  add(reason: string): void {
    this.found.push(reason);
  }

  keys(where: string, value: Record<string, unknown>, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.add(`${where}: unknown key ${JSON.stringify(key.slice(0, 30))}`);
    }
  }

  /** A known value of the wrong kind, or a required value that is missing. */
  type(
    where: string,
    value: unknown,
    kind: "string" | "text" | "boolean" | "number",
    required = false,
  ): void {
    if (value === undefined) {
      if (required) this.add(`${where}: missing`);
      return;
    }
    if (value === UNKNOWN) return;
    const ok =
      kind === "boolean"
        ? typeof value === "boolean"
        : kind === "number"
          ? typeof value === "number" && Number.isFinite(value)
          : typeof value === "string" && (kind === "string" || value !== "");
    if (!ok) this.add(`${where}: not a ${kind}`);
  }

  /** An id sent as a path segment: never one a URL parser resolves away, no control character. */
  pathId(where: string, value: unknown): void {
    if (typeof value !== "string" || value === "") return;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // Not percent-encoded text: taken as written.
    }
    if (decoded === "." || decoded === ".." || /[\u0000-\u001f\u007f]/.test(decoded))
      this.add(`${where}: not safe as a path segment`);
  }

  /**
   * A value sent in an HTTP header (the x-sub-organization-id): what a header carries as
   * written, printable ASCII without a space at either end.
   */
  headerValue(where: string, value: unknown): void {
    if (typeof value !== "string" || value === "" || value === UNKNOWN) return;
    const printable = [...value].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e);
    if (!printable || value.startsWith(" ") || value.endsWith(" "))
      this.add(`${where}: not carried by an HTTP header as written`);
  }

  /** A known list; calls `each` for every known element. */
  list(where: string, value: unknown, each: (item: unknown, at: string) => void): void {
    if (!known(value)) return;
    if (!Array.isArray(value)) {
      this.add(`${where}: not a list`);
      return;
    }
    value.forEach((item, index) => {
      if (known(item)) each(item, `${where}[${index}]`);
    });
  }

  object(where: string, value: unknown, body: (value: Record<string, unknown>) => void): void {
    if (!known(value)) return;
    if (!isRecord(value)) this.add(`${where}: not an object`);
    else body(value);
  }
}

const carrierKeys = [
  "name",
  "registerUsername",
  "registerPassword",
  "requiresRegister",
  "registerSipRealm",
  "registerFromUser",
  "registerFromDomain",
  "registerPublicIpInContact",
  "techPrefix",
  "diversion",
  "e164LeadingPlus",
  "gateways",
  "phoneNumbers",
  "outboundSipProxy",
  "updatedBy",
  "existingCarrierId",
  "subOrganizationId",
];
const gatewayKeys = [
  "outbound",
  "inbound",
  "ipv4",
  "netmask",
  "port",
  "protocol",
  "sendOptionsPing",
  "useSipsScheme",
  "padCrypto",
  "sipGatewaySid",
];

function carrierViolations(input: Inputs): string[] {
  const v = new Violations();
  v.keys("carrier", input, [...carrierKeys, "__provider"]);
  v.type("name", input.name, "text", true);
  for (const key of [
    "registerUsername",
    "registerPassword",
    "registerSipRealm",
    "registerFromUser",
    "registerFromDomain",
    "techPrefix",
    "diversion",
    "outboundSipProxy",
    "updatedBy",
  ]) {
    v.type(key, input[key], "string");
  }
  for (const key of ["requiresRegister", "registerPublicIpInContact", "e164LeadingPlus"]) {
    v.type(key, input[key], "boolean");
  }
  v.type("existingCarrierId", input.existingCarrierId, "text");
  v.pathId("existingCarrierId", input.existingCarrierId);
  v.type("subOrganizationId", input.subOrganizationId, "text");
  v.headerValue("subOrganizationId", input.subOrganizationId);
  v.list("gateways", input.gateways, (item, at) =>
    v.object(at, item, (gateway) => {
      v.keys(at, gateway, gatewayKeys);
      // One of the two names the gateway; the spec requires neither.
      v.type(`${at}.ipv4`, gateway.ipv4, "text", gateway.sipGatewaySid === undefined);
      const { port, netmask, ipv4 } = gateway;
      if (
        known(port) &&
        !(Number.isInteger(port) && (port as number) >= 1 && (port as number) <= 65535)
      ) {
        v.add(`${at}.port: outside 1–65535`);
      }
      if (
        known(netmask) &&
        !(Number.isInteger(netmask) && (netmask as number) >= 0 && (netmask as number) <= 32)
      ) {
        v.add(`${at}.netmask: outside 0–32`);
      }
      if (
        gateway.inbound === true &&
        typeof ipv4 === "string" &&
        ipv4 !== UNKNOWN &&
        !isStrictIpv4(ipv4)
      ) {
        v.add(`${at}.ipv4: an inbound gateway without a literal IPv4 address`);
      }
      v.type(`${at}.protocol`, gateway.protocol, "text");
      v.type(`${at}.sipGatewaySid`, gateway.sipGatewaySid, "text");
      for (const key of ["outbound", "inbound", "sendOptionsPing", "useSipsScheme", "padCrypto"]) {
        v.type(`${at}.${key}`, gateway[key], "boolean");
      }
    }),
  );
  v.list("phoneNumbers", input.phoneNumbers, (item, at) =>
    v.object(at, item, (number) => {
      v.keys(at, number, phoneNumberKeys);
      v.type(`${at}.phoneNumber`, number.phoneNumber, "text", number.phoneNumberSid === undefined);
      v.type(`${at}.phoneNumberSid`, number.phoneNumberSid, "text");
    }),
  );
  return v.found;
}

const phoneNumberKeys = ["phoneNumber", "phoneNumberSid"];

const webhookKeys = [
  "campaignId",
  "url",
  "events",
  "isAdvanced",
  "advancedWebhook",
  "alreadySubscribed",
  "subOrganizationId",
];
const advancedWebhookKeys = ["url", "method", "headers", "parameters", "body"];
const nameValueKeys = ["name", "value"];

function webhookViolations(input: Inputs): string[] {
  const v = new Violations();
  v.keys("webhook", input, [...webhookKeys, "__provider"]);
  v.type("campaignId", input.campaignId, "string", true);
  if (
    typeof input.campaignId === "string" &&
    known(input.campaignId) &&
    !isHex24(input.campaignId)
  ) {
    v.add("campaignId: not 24 hexadecimal characters");
  }
  const url = (where: string, value: unknown) => {
    v.type(where, value, "string", true);
    if (typeof value === "string" && known(value) && !isAbsoluteHttpUrl(value)) {
      v.add(`${where}: not an absolute http(s) URL`);
    }
  };
  url("url", input.url);
  v.list("events", input.events, (event, at) => {
    if (typeof event !== "string" || !webhookEvents.has(event))
      v.add(`${at}: not one of the five events`);
  });
  v.type("isAdvanced", input.isAdvanced, "boolean");
  v.type("alreadySubscribed", input.alreadySubscribed, "boolean");
  v.type("subOrganizationId", input.subOrganizationId, "text");
  v.headerValue("subOrganizationId", input.subOrganizationId);
  v.object("advancedWebhook", input.advancedWebhook, (advanced) => {
    v.keys("advancedWebhook", advanced, advancedWebhookKeys);
    url("advancedWebhook.url", advanced.url);
    v.type("advancedWebhook.method", advanced.method, "text");
    if (
      typeof advanced.method === "string" &&
      known(advanced.method) &&
      !/^[A-Za-z]+$/.test(advanced.method)
    ) {
      v.add("advancedWebhook.method: not an HTTP method");
    }
    v.type("advancedWebhook.body", advanced.body, "string");
    v.list("advancedWebhook.headers", advanced.headers, (item, at) =>
      v.object(at, item, (header) => {
        v.keys(at, header, nameValueKeys);
        v.type(`${at}.name`, header.name, "string", true);
        v.type(`${at}.value`, header.value, "string", true);
        if (typeof header.name === "string" && known(header.name) && !isHeaderToken(header.name)) {
          v.add(`${at}.name: not an HTTP header name`);
        }
        if (
          typeof header.value === "string" &&
          known(header.value) &&
          /[\r\n\0]/.test(header.value)
        ) {
          v.add(`${at}.value: CR, LF or NUL in a header value`);
        }
      }),
    );
    v.list("advancedWebhook.parameters", advanced.parameters, (item, at) =>
      v.object(at, item, (parameter) => {
        v.keys(at, parameter, nameValueKeys);
        v.type(`${at}.name`, parameter.name, "text", true);
        v.type(`${at}.value`, parameter.value, "string", true);
      }),
    );
  });
  if (input.isAdvanced === true && input.advancedWebhook === undefined) {
    v.add("advancedWebhook: missing while isAdvanced is true");
  }
  if (known(input.advancedWebhook) && known(input.isAdvanced) && input.isAdvanced !== true) {
    v.add("isAdvanced: not true while advancedWebhook is given");
  }
  if (known(input.advancedWebhook) && input.isAdvanced === undefined) {
    v.add("isAdvanced: missing while advancedWebhook is given");
  }
  return v.found;
}

const voiceKeys = [
  "name",
  "description",
  "providerType",
  "supportedLocales",
  "subAccounts",
  "stability",
  "similarityBoost",
  "speed",
  "supportsAllLanguages",
  "isMultilingual",
  "files",
  "existingVoiceId",
  "subOrganizationId",
];
const cloneOnlyKeys = [
  "description",
  "providerType",
  "subAccounts",
  "supportsAllLanguages",
  "files",
];

function voiceViolations(input: Inputs): string[] {
  const v = new Violations();
  v.keys("voice", input, [...voiceKeys, "__provider"]);
  v.type("name", input.name, "text", true);
  v.type("description", input.description, "string");
  v.type("providerType", input.providerType, "text");
  v.type("existingVoiceId", input.existingVoiceId, "text");
  v.pathId("existingVoiceId", input.existingVoiceId);
  v.type("subOrganizationId", input.subOrganizationId, "text");
  v.headerValue("subOrganizationId", input.subOrganizationId);
  for (const key of ["stability", "similarityBoost", "speed"]) v.type(key, input[key], "number");
  for (const key of ["subAccounts", "supportsAllLanguages", "isMultilingual"]) {
    v.type(key, input[key], "boolean");
  }
  v.list("supportedLocales", input.supportedLocales, (locale, at) => {
    if (typeof locale !== "string" || !/^[A-Za-z]{2,3}-([A-Za-z]{2}|[0-9]{3})$/.test(locale)) {
      v.add(`${at}: not a language-REGION locale`);
    }
  });
  v.list("files", input.files, (file, at) => {
    // A sample with a value not known yet inside is read once it is known, not at preview.
    if (allPaths(file).some((path) => getAt(file, path) === UNKNOWN)) return;
    const path =
      typeof file === "string"
        ? file
        : isRecord(file) && file[SIG_KEY] === ASSET_SIG && typeof file.path === "string"
          ? file.path
          : undefined;
    if (path === undefined) v.add(`${at}: neither a path nor a FileAsset`);
    else if (path === "" || missingSamples.includes(path) || path === emptySample) {
      v.add(`${at}: no readable, non-empty file`);
    }
  });
  if (input.existingVoiceId === undefined) {
    if (input.files === undefined || (Array.isArray(input.files) && input.files.length === 0)) {
      v.add("files: none to clone from, and no existingVoiceId");
    }
  } else if (known(input.existingVoiceId)) {
    for (const key of cloneOnlyKeys) {
      if (known(input[key])) v.add(`${key}: clone-only, but existingVoiceId adopts a voice`);
    }
  }
  return v.found;
}

const oracles: Record<Kind, (input: Inputs) => string[]> = {
  Voice: voiceViolations,
  SipCarrier: carrierViolations,
  CampaignWebhook: webhookViolations,
};

// ---------------------------------------------------------------------------------------------
// Valid inputs.

const text = fc.string({ unit: "binary", minLength: 1, maxLength: 20 });
/** An id the API can take as a path segment: not "." or "..", no control character. */
const pathIdText = text.filter((value) => {
  const violations = new Violations();
  violations.pathId("id", value);
  return violations.found.length === 0;
});
const anyString = fc.string({ unit: "binary", maxLength: 20 });
/** A sub-organization id a header carries as written. */
const headerText = fc.stringMatching(/^[!-~]([ -~]{0,18}[!-~])?$/);
const byte = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(byte, byte, byte, byte).map((parts) => parts.join("."));
const hostname = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?(\.[a-z]{2,6}){1,2}$/);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

const gatewayCommon = {
  outbound: fc.boolean(),
  netmask: fc.integer({ min: 0, max: 32 }),
  port: fc.integer({ min: 1, max: 65535 }),
  protocol: fc.oneof(fc.constantFrom("udp", "tcp", "tls", "tls/srtp"), text),
  sendOptionsPing: fc.boolean(),
  useSipsScheme: fc.boolean(),
  padCrypto: fc.boolean(),
  sipGatewaySid: text,
};
const validGateway = fc.oneof(
  fc.record(
    { inbound: fc.constant(true), ipv4, ...gatewayCommon },
    { requiredKeys: ["inbound", "ipv4"] },
  ),
  fc.record(
    { inbound: fc.constant(false), ipv4: fc.oneof(ipv4, hostname), ...gatewayCommon },
    { requiredKeys: ["ipv4"] },
  ),
);

const validCarrier: fc.Arbitrary<Inputs> = fc.record(
  {
    name: text,
    registerUsername: anyString,
    registerPassword: anyString,
    requiresRegister: fc.boolean(),
    registerSipRealm: anyString,
    registerFromUser: anyString,
    registerFromDomain: anyString,
    registerPublicIpInContact: fc.boolean(),
    techPrefix: anyString,
    diversion: anyString,
    e164LeadingPlus: fc.boolean(),
    gateways: fc.array(validGateway, { maxLength: 4 }),
    phoneNumbers: fc.array(
      fc.record({ phoneNumber: text, phoneNumberSid: text }, { requiredKeys: ["phoneNumber"] }),
      { maxLength: 3 },
    ),
    outboundSipProxy: anyString,
    updatedBy: anyString,
    existingCarrierId: pathIdText,
    subOrganizationId: headerText,
  },
  { requiredKeys: ["name"] },
);

const validUrl = fc.webUrl({
  validSchemes: ["http", "https"],
  withQueryParameters: true,
  withFragments: true,
});
const pair = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) =>
  fc.record({ name, value });
const headerName = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/);
const headerValue = anyString.filter((value) => !/[\r\n\0]/.test(value));

const validAdvanced = fc.record(
  {
    url: validUrl,
    method: fc.stringMatching(/^[A-Za-z]{1,8}$/),
    headers: fc.array(pair(headerName, headerValue), { maxLength: 3 }),
    parameters: fc.array(pair(text, anyString), { maxLength: 3 }),
    body: anyString,
  },
  { requiredKeys: ["url"] },
);

const validWebhook: fc.Arbitrary<Inputs> = fc
  .tuple(
    fc.record(
      {
        campaignId: fc.stringMatching(/^[0-9a-fA-F]{24}$/),
        url: validUrl,
        events: fc.array(fc.constantFrom(...webhookEvents), { maxLength: 6 }),
        alreadySubscribed: fc.boolean(),
        subOrganizationId: headerText,
      },
      { requiredKeys: ["campaignId", "url"] },
    ),
    fc.oneof(
      fc.constant({}),
      fc.constant({ isAdvanced: false }),
      validAdvanced.map((advancedWebhook) => ({ isAdvanced: true, advancedWebhook })),
    ),
  )
  .map(([base, advanced]) => ({ ...base, ...advanced }));

const sample = fc.oneof(
  fc.constantFrom(...samples),
  fc.constantFrom(...samples).map((path) => ({ [SIG_KEY]: ASSET_SIG, path })),
);
const locale = fc.stringMatching(/^[A-Za-z]{2,3}-([A-Za-z]{2}|[0-9]{3})$/);
const voiceSettings = {
  supportedLocales: fc.array(locale, { maxLength: 4 }),
  stability: finite,
  similarityBoost: finite,
  speed: finite,
  isMultilingual: fc.boolean(),
  subOrganizationId: headerText,
};

const validVoice: fc.Arbitrary<Inputs> = fc.oneof(
  fc.record(
    {
      name: text,
      description: anyString,
      providerType: text,
      subAccounts: fc.boolean(),
      supportsAllLanguages: fc.boolean(),
      files: fc.array(sample, { minLength: 1, maxLength: 3 }),
      ...voiceSettings,
    },
    { requiredKeys: ["name", "files"] },
  ),
  fc.record(
    { name: text, existingVoiceId: pathIdText, ...voiceSettings },
    { requiredKeys: ["name", "existingVoiceId"] },
  ),
);

const valid: Record<Kind, fc.Arbitrary<Inputs>> = {
  Voice: validVoice,
  SipCarrier: validCarrier,
  CampaignWebhook: validWebhook,
};

const optionalKeys: Record<Kind, readonly string[]> = {
  Voice: voiceKeys.filter((key) => key !== "name"),
  SipCarrier: carrierKeys.filter((key) => key !== "name"),
  CampaignWebhook: webhookKeys.filter((key) => key !== "campaignId" && key !== "url"),
};

// ---------------------------------------------------------------------------------------------
// What every answer must be.

type CheckAnswer = Awaited<ReturnType<typeof check>>;

const inputNames: Record<Kind, readonly string[]> = {
  Voice: voiceKeys,
  SipCarrier: carrierKeys,
  CampaignWebhook: webhookKeys,
};

/** A path at the start of a reason: `gateways[0].ipv4`, `["a b"]`, `headers[1]["x.y"]`. */
const leadingPath =
  /^(?:[^\s.[\]"']+|\["(?:[^"\\]|\\.)*"\])(?:\.[^\s.[\]"']+|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*(?= )/u;

/**
 * The place a failure names, in the engine's form (provider/core/check.ts, `forEngine`): the
 * property when the reason does not start with a deeper path under it or, with no property, the
 * path the reason starts with.
 */
function placeOf(failure: { property: string; reason: string }): string {
  const path = leadingPath.exec(failure.reason)?.[0] ?? "";
  if (failure.property === "") return path;
  const deeper = path.startsWith(`${failure.property}[`) || path.startsWith(`${failure.property}.`);
  return deeper ? path : failure.property;
}

function assertWellFormed(kind: Kind, input: Inputs, answer: CheckAnswer): void {
  expect(isRecord(answer)).toBe(true);
  expect(isRecord(answer.inputs)).toBe(true);
  expect(Array.isArray(answer.failures)).toBe(true);
  for (const failure of answer.failures) {
    expect(typeof failure.property).toBe("string");
    expect(typeof failure.reason).toBe("string");
    // The engine looks the property up among the top-level inputs only.
    if (failure.property !== "") expect(inputNames[kind]).toContain(failure.property);
    const place = placeOf(failure);
    expect(place.length).toBeGreaterThan(0);
    expect(place).not.toBe("(inputs)");
    expect(failure.reason.trim().length).toBeGreaterThan(place.length);
    // A reason is read in a terminal: bounded, whatever the input held.
    expect(failure.reason.length).toBeLessThan(1000);
    // Unknown values are checked again once known; during preview they are never wrong. (A key
    // that is no input is wrong whatever its value.)
    if (!failure.reason.includes("is not an input of")) {
      expect(valueAtProperty(input, place)).not.toBe(UNKNOWN);
    }
  }
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

async function assertChecked(kind: Kind, input: Inputs): Promise<void> {
  const violations = oracles[kind](input);
  let answer: CheckAnswer;
  try {
    answer = await check(kind, input);
  } catch (error) {
    throw new Error(`check threw: ${String(error)}`);
  }
  assertWellFormed(kind, input, answer);
  if (violations.length > 0 && answer.failures.length === 0) {
    throw new Error(`accepted an invalid input: ${violations.join("; ")}`);
  }
}

const kinds = resourceKinds;

/**
 * The oracles' key lists by where they apply, held against every input of every descriptor at
 * every depth: an input the oracles do not know (a new one) fails here until they do.
 */
const oracleKeys: Record<string, readonly string[]> = {
  Voice: voiceKeys,
  SipCarrier: carrierKeys,
  "SipCarrier.gateways[]": gatewayKeys,
  "SipCarrier.phoneNumbers[]": phoneNumberKeys,
  CampaignWebhook: webhookKeys,
  "CampaignWebhook.advancedWebhook": advancedWebhookKeys,
  "CampaignWebhook.advancedWebhook.headers[]": nameValueKeys,
  "CampaignWebhook.advancedWebhook.parameters[]": nameValueKeys,
};

/** Every object's keys below a schema, by where they stand (`SipCarrier.gateways[]`). */
function schemaKeys(schema: z.ZodType, at: string, found: Record<string, string[]> = {}) {
  let inner = schema;
  let where = at;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) {
      inner = inner.element as z.ZodType;
      where += "[]";
    } else break;
  }
  if (!(inner instanceof z.ZodObject)) return found;
  const shape = inner.shape as Record<string, z.ZodType>;
  found[where] = Object.keys(shape);
  for (const [key, field] of Object.entries(shape)) schemaKeys(field, `${where}.${key}`, found);
  return found;
}

test("the oracles know every input of every resource, at every depth", () => {
  const inputs = Object.assign(
    {},
    ...resources.map((descriptor) => schemaKeys(descriptor.inputSchema, descriptor.type)),
  );
  const sorted = (keys: Record<string, readonly string[]>) =>
    Object.fromEntries(Object.entries(keys).map(([at, list]) => [at, [...list].sort()]));
  expect(sorted(oracleKeys)).toEqual(sorted(inputs));
});

describe.each(kinds)("%s check", (kind) => {
  it("accepts every valid input, and its normalized inputs check the same", async () => {
    await fc.assert(
      fc.asyncProperty(valid[kind], async (input) => {
        expect(oracles[kind](input)).toEqual([]);
        const first = await check(kind, input);
        assertWellFormed(kind, input, first);
        expect(first.failures).toEqual([]);
        const second = await check(kind, first.inputs);
        expect(second.failures).toEqual([]);
        expect(second.inputs).toEqual(first.inputs);
      }),
      { numRuns: runs(300) },
    );
  });

  it("accepts a valid input with any parts unknown, or optional inputs added as unknown", async () => {
    await fc.assert(
      fc.asyncProperty(
        valid[kind],
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.subarray([...optionalKeys[kind]], { maxLength: 2 }),
        async (input, picks, added) => {
          const copy = deepCopy(input);
          for (const pick of picks) {
            // An asset is one value to the engine: never partly unknown.
            const paths = allPaths(copy).filter((path) => !isAsset(getAt(copy, path.slice(0, -1))));
            if (paths.length > 0) setAt(copy, paths[pick % paths.length]!, UNKNOWN);
          }
          for (const key of added) if (copy[key] === undefined) copy[key] = UNKNOWN;
          const answer = await check(kind, copy);
          assertWellFormed(kind, copy, answer);
          expect(answer.failures).toEqual([]);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("never throws on, and never accepts, hostile changes to a valid input", async () => {
    await fc.assert(
      fc.asyncProperty(
        valid[kind],
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (input, changes) => {
          await assertChecked(kind, applyMutations(input, changes));
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it("never throws on, and never accepts, random property bags", async () => {
    const keys = fc.oneof(
      { arbitrary: fc.constantFrom(...voiceKeys, ...carrierKeys, ...webhookKeys), weight: 4 },
      { arbitrary: hostileKey, weight: 1 },
    );
    const nested = fc.oneof(
      { arbitrary: hostileValue, weight: 4 },
      {
        arbitrary: fc.array(
          fc.dictionary(fc.constantFrom(...gatewayKeys, "name", "value", "path"), hostileValue),
          { maxLength: 2 },
        ),
        weight: 1,
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(keys, nested), { maxLength: 8 }), async (entries) => {
        const input: Inputs = {};
        for (const [key, value] of entries) defineOwn(input, key, value);
        await assertChecked(kind, input);
      }),
      { numRuns: runs(500) },
    );
  });
});

describe("named hostile inputs", () => {
  it.each<[Kind, string, Inputs]>([
    [
      "SipCarrier",
      "a gateway port of 0",
      { name: "t", gateways: [{ ipv4: "203.0.113.1", port: 0 }] },
    ],
    [
      "SipCarrier",
      "a gateway port of 65536",
      { name: "t", gateways: [{ ipv4: "203.0.113.1", port: 65536 }] },
    ],
    [
      "SipCarrier",
      "an inbound gateway on a hostname",
      { name: "t", gateways: [{ ipv4: "sip.example.com", inbound: true }] },
    ],
    [
      "SipCarrier",
      "an own __proto__ key",
      JSON.parse('{"name": "t", "__proto__": {"polluted": true}}'),
    ],
    [
      "SipCarrier",
      "a gateway with an own __proto__ key",
      JSON.parse('{"name": "t", "gateways": [{"ipv4": "203.0.113.1", "__proto__": {"port": 0}}]}'),
    ],
    [
      "CampaignWebhook",
      "an unknown event",
      {
        campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
        url: "https://h.example.com",
        events: ["POST_PROCESSING_FINISHED:MAYBE"],
      },
    ],
    [
      "CampaignWebhook",
      "a header value with CR/LF",
      {
        campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
        url: "https://h.example.com",
        isAdvanced: true,
        advancedWebhook: {
          url: "https://h.example.com",
          headers: [{ name: "X-A", value: "v\r\nX-Injected: 1" }],
        },
      },
    ],
    [
      "CampaignWebhook",
      "a URL with a line break in its host",
      { campaignId: "65a1f0c2e4b0a1b2c3d4e5f6", url: "https://hooks.exa\nmple.com/x" },
    ],
    [
      "CampaignWebhook",
      "a URL with leading spaces",
      { campaignId: "65a1f0c2e4b0a1b2c3d4e5f6", url: "  https://hooks.example.com" },
    ],
    [
      "CampaignWebhook",
      "a URL without //",
      { campaignId: "65a1f0c2e4b0a1b2c3d4e5f6", url: "https:hooks.example.com" },
    ],
    [
      "Voice",
      "a constructor key",
      JSON.parse(
        `{"name": "v", "files": ${JSON.stringify([samples[0]])}, "constructor": {"prototype": {"polluted": true}}}`,
      ),
    ],
    ["Voice", "files: null", { name: "v", files: null }],
    [
      "Voice",
      "a missing sample beside an unknown one",
      { name: "v", files: [UNKNOWN, missingSamples[0]] },
    ],
    ["SipCarrier", "gateways holding null and numbers", { name: "t", gateways: [null, 5] }],
    ["CampaignWebhook", "everything null", { campaignId: null, url: null, advancedWebhook: null }],
    ["Voice", "a 100 KB sample path", { name: "v", files: [`/tmp/${"x".repeat(100_000)}.wav`] }],
  ])("%s: %s fails, naming a property", async (kind, _label, input) => {
    const answer = await check(kind, input);
    assertWellFormed(kind, input, answer);
    expect(answer.failures.length).toBeGreaterThan(0);
  });

  it("keeps a value unknown at preview from failing a rule that depends on it", async () => {
    const adopt = { name: "v", existingVoiceId: UNKNOWN, files: [samples[0]] };
    expect((await check("Voice", adopt)).failures).toEqual([]);
    const advanced = {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://h.example.com",
      advancedWebhook: UNKNOWN,
    };
    expect((await check("CampaignWebhook", advanced)).failures).toEqual([]);
  });
});
