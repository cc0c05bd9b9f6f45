/**
 * Property-based tests of the emulator's request validation: random and hostile bodies to each
 * endpoint. Whatever arrives, the emulator never answers 5xx and never crashes; a body that an
 * independent oracle (below, from the API spec and the emulator's documented type rules) knows
 * to be invalid never gets a 2xx; every refusal is the emulator's error shape; a valid body is
 * accepted.
 */
import fc from "fast-check";
import { FormData, request } from "undici";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import {
  applyMutations,
  hostileString,
  hostileValue,
  InputCounter,
  isRecord,
  mutation,
  unicodeString,
} from "../support/hostile-values";

const FULL = process.env.RELIABILITY_FULL === "1";
const runs = (n: number) => (FULL ? n * 4 : n);

const counter = new InputCounter();
let emulator: RunningEmulator;
let voiceId: string;
let errorSpy: jest.SpyInstance;

beforeAll(async () => {
  errorSpy = jest.spyOn(console, "error");
  emulator = await startEmulator({ seed: 11 });
});

/** After a reset: the voice the update tests change. */
async function createVoice(): Promise<void> {
  const form = new FormData();
  form.append("name", "Validation voice");
  form.append("files", new Blob(["RIFF"]), "a.wav");
  const created = await send("POST", "/voices/voice-clone", form);
  voiceId = (created.json as { id: string }[])[0]!.id;
}

afterAll(async () => {
  await emulator.stop();
  errorSpy.mockRestore();
  console.log(counter.summary("hostile input, emulator validation"));
});

afterEach(() => {
  // The emulator prints only when a handler failed unexpectedly (its 500 path).
  expect(errorSpy).not.toHaveBeenCalled();
});

interface Answer {
  status: number;
  json: unknown;
}

async function send(
  method: "POST" | "PUT",
  path: string,
  body: string | FormData,
  options: { origin?: "api" | "campaigns"; contentType?: string } = {},
): Promise<Answer> {
  const base = options.origin === "campaigns" ? emulator.campaignsBaseUrl : emulator.baseUrl;
  const headers: Record<string, string> = { authorization: `Bearer ${emulator.apiKey}` };
  if (typeof body === "string") headers["content-type"] = options.contentType ?? "application/json";
  const response = await request(`${base}${path}`, { method, headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json };
}

/** What every answer must be; `invalid` lists the oracle's reasons, empty for a valid body. */
function assertAnswer(answer: Answer, invalid: readonly string[], mustAccept = false): void {
  expect(answer.status).toBeLessThan(500);
  if (invalid.length > 0 && answer.status < 300) {
    throw new Error(`accepted an invalid body (${answer.status}): ${invalid.join("; ")}`);
  }
  // 431 comes from Node's HTTP parser (a 100 KB path), before the emulator sees the request.
  if (answer.status >= 400 && answer.status !== 431) {
    const error = (answer.json as { error?: Record<string, unknown> } | undefined)?.error;
    expect(error).toMatchObject({ status: answer.status, code: expect.any(String) });
    expect(typeof error!.message === "string" && error!.message.length > 0).toBe(true);
  }
  if (mustAccept) expect(answer.status).toBeLessThan(300);
}

/** A string as a USV string, the way FormData and URLs carry it: lone surrogates become U+FFFD. */
function wellFormed(value: string): string {
  return value.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    "\uFFFD",
  );
}

/** The body as the emulator receives it: JSON text, so NaN is null and undefined is gone. */
function wire(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

// ---------------------------------------------------------------------------------------------
// Oracles: reasons a wire body is certainly invalid.

class Problems {
  readonly found: string[] = [];

  add(reason: string): void {
    this.found.push(reason);
  }

  object(where: string, value: unknown, keys: readonly string[]): value is Record<string, unknown> {
    if (!isRecord(value)) {
      this.add(`${where}: not an object`);
      return false;
    }
    for (const key of Object.keys(value)) {
      if (!keys.includes(key))
        this.add(`${where}: unknown field ${JSON.stringify(key.slice(0, 30))}`);
    }
    return true;
  }

  field(
    where: string,
    value: unknown,
    kind: "string" | "boolean" | "number" | "integer",
    required = false,
  ) {
    if (value === undefined) {
      if (required) this.add(`${where}: missing`);
      return;
    }
    const ok =
      kind === "string"
        ? typeof value === "string"
        : kind === "boolean"
          ? typeof value === "boolean"
          : kind === "number"
            ? typeof value === "number"
            : Number.isInteger(value);
    if (!ok) this.add(`${where}: not a ${kind}`);
  }

  list(where: string, value: unknown, each: (item: unknown, at: string) => void): void {
    if (value === undefined) return;
    if (!Array.isArray(value)) this.add(`${where}: not a list`);
    else value.forEach((item, index) => each(item, `${where}[${index}]`));
  }
}

const carrierStrings = [
  "register_username",
  "register_password",
  "register_sip_realm",
  "register_from_user",
  "register_from_domain",
  "tech_prefix",
  "diversion",
  "outbound_sip_proxy",
  "updatedBy",
];
const carrierBooleans = ["requires_register", "register_public_ip_in_contact", "e164_leading_plus"];
const gatewayWireKeys = [
  "outbound",
  "inbound",
  "ipv4",
  "netmask",
  "port",
  "protocol",
  "send_options_ping",
  "use_sips_scheme",
  "pad_crypto",
  "sip_gateway_sid",
];

function carrierProblems(body: unknown): string[] {
  const p = new Problems();
  const keys = ["name", ...carrierStrings, ...carrierBooleans, "gateways", "phoneNumbers"];
  if (!p.object("body", body, keys)) return p.found;
  p.field("name", body.name, "string", true);
  if (body.name === "") p.add("name: empty");
  for (const key of carrierStrings) p.field(key, body[key], "string");
  for (const key of carrierBooleans) p.field(key, body[key], "boolean");
  p.list("gateways", body.gateways, (item, at) => {
    if (!p.object(at, item, gatewayWireKeys)) return;
    for (const key of [
      "outbound",
      "inbound",
      "send_options_ping",
      "use_sips_scheme",
      "pad_crypto",
    ]) {
      p.field(`${at}.${key}`, item[key], "boolean");
    }
    for (const key of ["ipv4", "protocol", "sip_gateway_sid"])
      p.field(`${at}.${key}`, item[key], "string");
    p.field(`${at}.netmask`, item.netmask, "integer");
    p.field(`${at}.port`, item.port, "integer");
  });
  p.list("phoneNumbers", body.phoneNumbers, (item, at) => {
    if (!p.object(at, item, ["phone_number_sid", "phone_number"])) return;
    p.field(`${at}.phone_number_sid`, item.phone_number_sid, "string");
    p.field(`${at}.phone_number`, item.phone_number, "string");
  });
  return p.found;
}

function voiceUpdateProblems(body: unknown): string[] {
  const p = new Problems();
  if (!p.object("body", body, ["name", "isMultilingual", "supportedLocales", "settings"]))
    return p.found;
  p.field("name", body.name, "string");
  if (body.name === "") p.add("name: empty");
  p.field("isMultilingual", body.isMultilingual, "boolean");
  p.list("supportedLocales", body.supportedLocales, (item, at) =>
    p.field(at, item, "string", true),
  );
  if (
    body.settings !== undefined &&
    p.object("settings", body.settings, ["stability", "similarity_boost", "speed"])
  ) {
    for (const key of ["stability", "similarity_boost", "speed"]) {
      p.field(`settings.${key}`, (body.settings as Record<string, unknown>)[key], "number");
    }
  }
  return p.found;
}

const events = [
  "POST_PROCESSING_FINISHED:INTERESTED",
  "POST_PROCESSING_FINISHED:NOT_INTERESTED",
  "POST_PROCESSING_FINISHED:CALL_ME_LATER",
  "POST_PROCESSING_FINISHED:WRONG_NUMBER",
  "POST_PROCESSING_FINISHED:DO_NOT_CALL",
];

function subscribeProblems(campaignId: string, body: unknown): string[] {
  const p = new Problems();
  if (!/^[0-9a-fA-F]{24}$/.test(campaignId)) p.add("campaignId: not an ObjectId");
  if (!p.object("body", body, ["url", "events", "isAdvanced", "advancedWebhook"])) return p.found;
  p.field("url", body.url, "string", true);
  if (body.url === "") p.add("url: empty");
  p.list("events", body.events, (item, at) => {
    if (typeof item !== "string" || !events.includes(item))
      p.add(`${at}: not one of the five events`);
  });
  p.field("isAdvanced", body.isAdvanced, "boolean");
  const advanced = body.advancedWebhook;
  if (
    advanced !== undefined &&
    p.object("advancedWebhook", advanced, ["url", "method", "headers", "parameters", "body"])
  ) {
    for (const key of ["url", "method", "body"])
      p.field(`advancedWebhook.${key}`, advanced[key], "string");
    for (const key of ["headers", "parameters"]) {
      p.list(`advancedWebhook.${key}`, advanced[key], (item, at) => {
        if (!p.object(at, item, ["name", "value"])) return;
        p.field(`${at}.name`, item.name, "string", true);
        p.field(`${at}.value`, item.value, "string", true);
      });
    }
  }
  return p.found;
}

const cloneFields: Record<string, "string" | "boolean" | "number" | "locales"> = {
  name: "string",
  description: "string",
  providerType: "string",
  supportedLocales: "locales",
  subAccounts: "boolean",
  stability: "number",
  similarityBoost: "number",
  speed: "number",
  supportsAllLanguages: "boolean",
};

interface CloneRequest {
  fields: [string, string][];
  files: { name: string; size: number }[];
}

function cloneProblems(form: CloneRequest): string[] {
  const p = new Problems();
  const seen = new Set<string>();
  for (const [name, value] of form.fields) {
    if (seen.has(name)) p.add(`${name}: sent twice`);
    // The emulator's documented limit for one form field.
    if (Buffer.byteLength(value) > 64 * 1024) p.add(`${name}: over 64 KB`);
    seen.add(name);
    const kind = Object.hasOwn(cloneFields, name) ? cloneFields[name] : undefined;
    if (kind === undefined) {
      p.add(`${JSON.stringify(name.slice(0, 30))}: not a clone form field`);
    } else if (kind === "boolean" && value !== "true" && value !== "false") {
      p.add(`${name}: not true or false`);
    } else if (kind === "number" && (value.trim() === "" || Number.isNaN(Number(value)))) {
      p.add(`${name}: not a number`);
    } else if (kind === "locales") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed) || parsed.some((item) => typeof item !== "string")) {
        p.add(`${name}: not a JSON array of strings`);
      }
    }
  }
  const name = form.fields.find(([field]) => field === "name")?.[1];
  if (name === undefined || name === "") p.add("name: missing or empty");
  if (form.files.length === 0) p.add("files: none");
  form.files.forEach((file, index) => {
    if (file.size === 0) p.add(`files[${index}]: empty`);
  });
  return p.found;
}

// ---------------------------------------------------------------------------------------------
// Valid wire bodies, and bodies that are not JSON objects at all.

const text = fc.string({ unit: "binary", minLength: 1, maxLength: 16 });
const anyString = fc.string({ unit: "binary", maxLength: 16 });

const validCarrierBody = fc.record(
  {
    name: text,
    register_username: anyString,
    register_password: anyString,
    requires_register: fc.boolean(),
    tech_prefix: anyString,
    gateways: fc.array(
      fc.record(
        {
          inbound: fc.boolean(),
          ipv4: anyString,
          netmask: fc.integer({ min: -5, max: 40 }),
          port: fc.integer(),
          protocol: anyString,
          pad_crypto: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    phoneNumbers: fc.array(fc.record({ phone_number: anyString }, { requiredKeys: [] }), {
      maxLength: 2,
    }),
    updatedBy: anyString,
  },
  { requiredKeys: ["name"] },
);

const validUpdateBody = fc.record(
  {
    name: text,
    isMultilingual: fc.boolean(),
    supportedLocales: fc.array(anyString, { maxLength: 3 }),
    settings: fc.record(
      { stability: fc.double({ noNaN: true, noDefaultInfinity: true }), speed: fc.integer() },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const pair = fc.record({ name: anyString, value: anyString });
const validSubscribeBody = fc.record(
  {
    url: text,
    events: fc.array(fc.constantFrom(...events), { maxLength: 5 }),
    isAdvanced: fc.boolean(),
    advancedWebhook: fc.record(
      {
        url: anyString,
        method: anyString,
        headers: fc.array(pair, { maxLength: 2 }),
        parameters: fc.array(pair, { maxLength: 2 }),
        body: anyString,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["url"] },
);

const campaignId = fc.oneof(
  { arbitrary: fc.stringMatching(/^[0-9a-fA-F]{24}$/), weight: 4 },
  { arbitrary: fc.oneof(hostileString, fc.stringMatching(/^[0-9a-g]{23,25}$/)), weight: 1 },
);

/** JSON text of a hostile change to a valid body, or something that is not a JSON object. */
function hostileJson(valid: fc.Arbitrary<Record<string, unknown>>) {
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([body, changes]) => JSON.stringify(applyMutations(body, changes))),
      weight: 6,
    },
    { arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? "null"), weight: 2 },
    { arbitrary: unicodeString, weight: 1 },
    {
      arbitrary: fc.constantFrom("", "{", "[", '{"name": "x",}', "{}garbage", "\u0000"),
      weight: 1,
    },
  );
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function jsonProblems(text: string, problems: (body: unknown) => string[]): string[] {
  const body = parsed(text);
  return body.ok ? problems(body.value) : ["not JSON"];
}

describe("emulator request validation", () => {
  beforeEach(async () => {
    await emulator.reset();
    await createVoice();
  });

  it("POST /organization/sip: accepts valid carriers", async () => {
    await fc.assert(
      fc.asyncProperty(validCarrierBody, async (body) => {
        counter.add("create carrier");
        expect(carrierProblems(wire(body))).toEqual([]);
        assertAnswer(await send("POST", "/organization/sip", JSON.stringify(body)), [], true);
      }),
      { numRuns: runs(100) },
    );
  });

  it("POST /organization/sip: never 5xx, never 2xx for an invalid body", async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson(validCarrierBody), async (text) => {
        counter.add("create carrier");
        assertAnswer(
          await send("POST", "/organization/sip", text),
          jsonProblems(text, carrierProblems),
        );
      }),
      { numRuns: runs(400) },
    );
  });

  it("PUT /voices/{id}: accepts valid updates", async () => {
    await fc.assert(
      fc.asyncProperty(validUpdateBody, async (body) => {
        counter.add("update voice");
        assertAnswer(await send("PUT", `/voices/${voiceId}`, JSON.stringify(body)), [], true);
      }),
      { numRuns: runs(100) },
    );
  });

  it("PUT /voices/{id}: never 5xx, never 2xx for an invalid body or voice id", async () => {
    const id = fc.oneof(
      { arbitrary: fc.constant("VOICE"), weight: 4 },
      { arbitrary: hostileString.filter((s) => s !== ""), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(id, hostileJson(validUpdateBody), async (which, text) => {
        counter.add("update voice");
        const target = which === "VOICE" ? voiceId : which;
        const problems = jsonProblems(text, voiceUpdateProblems);
        if (target !== voiceId) problems.push("no such voice");
        assertAnswer(
          await send("PUT", `/voices/${encodeURIComponent(wellFormed(target))}`, text),
          problems,
        );
      }),
      { numRuns: runs(400) },
    );
  });

  it("POST /campaigns/{id}/webhook/subscribe: accepts valid subscriptions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[0-9a-fA-F]{24}$/),
        validSubscribeBody,
        async (id, body) => {
          counter.add("subscribe");
          const answer = await send(
            "POST",
            `/campaigns/${id}/webhook/subscribe`,
            JSON.stringify(body),
            {
              origin: "campaigns",
            },
          );
          assertAnswer(answer, [], true);
          expect(answer.json).toEqual({ status: "success", data: true });
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it("POST /campaigns/{id}/webhook/subscribe: never 5xx, never 2xx for an invalid body or id", async () => {
    await fc.assert(
      fc.asyncProperty(campaignId, hostileJson(validSubscribeBody), async (id, text) => {
        counter.add("subscribe");
        const path = `/campaigns/${encodeURIComponent(wellFormed(id))}/webhook/subscribe`;
        const problems = jsonProblems(text, (body) => subscribeProblems(id, body));
        if (id === "") problems.push("no campaign id");
        assertAnswer(await send("POST", path, text, { origin: "campaigns" }), problems);
      }),
      { numRuns: runs(400) },
    );
  });

  it("POST /voices/voice-clone: never 5xx, never 2xx for an invalid form, accepts a valid one", async () => {
    const validFields = fc
      .record(
        {
          name: text,
          description: anyString,
          providerType: anyString,
          supportedLocales: fc.array(anyString, { maxLength: 2 }).map((l) => JSON.stringify(l)),
          subAccounts: fc.constantFrom("true", "false"),
          stability: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
          speed: fc.integer().map(String),
        },
        { requiredKeys: ["name"] },
      )
      .map((fields) => Object.entries(fields) as [string, string][]);
    const field = fc.tuple(
      fc.oneof(
        fc.constantFrom(...Object.keys(cloneFields), "files", "settings", "similarity_boost"),
        unicodeString,
      ),
      fc.oneof(
        hostileString,
        fc.constantFrom("true", "false", "1.5", "-2", '["en-US"]', "[1]", ""),
      ),
    );
    const form = fc.record({
      fields: fc.oneof(
        validFields,
        fc
          .tuple(validFields, fc.array(field, { minLength: 1, maxLength: 3 }))
          .map(([a, b]) => [...a, ...b]),
        fc.array(field, { maxLength: 5 }),
      ),
      files: fc.array(
        fc.record({
          name: fc.oneof(fc.constantFrom("a.wav", "b.mp3", ""), unicodeString),
          size: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 64 })),
        }),
        { maxLength: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(form, async (request) => {
        counter.add("clone");
        // What FormData sends: names and values as USV strings, line breaks as CRLF.
        const sent: CloneRequest = {
          fields: request.fields.map(([name, value]) => [
            wellFormed(name),
            wellFormed(value).replace(/\r\n|\r|\n/g, "\r\n"),
          ]),
          files: request.files,
        };
        const body = new FormData();
        for (const [name, value] of request.fields) body.append(name, value);
        for (const file of request.files) {
          body.append("files", new Blob([Buffer.alloc(file.size, 1)]), file.name || "sample.wav");
        }
        const problems = cloneProblems(sent);
        // undici escapes only CR, LF and quotes in part headers; busboy refuses other control
        // characters there (a 400), so such names are not certain to be accepted.
        const lossy =
          sent.fields.some(([name]) => /[\u0000-\u001f\u007f"%]/.test(name)) ||
          request.files.some((file) => /[\u0000-\u001f\u007f]/.test(file.name));
        const answer = await send("POST", "/voices/voice-clone", body);
        assertAnswer(answer, problems, problems.length === 0 && !lossy);
      }),
      { numRuns: runs(400) },
    );
  });

  // Known bug (test/emulator/wire-validation.ts and validate-voice.ts look field names up in plain
  // objects): a field named like an Object.prototype member is refused (400, so no property above
  // fails) as a "wrong_field_name" with the message 'use "undefined" (undefined)'.
  it("names a field called constructor, __proto__ or toString as an unknown field", async () => {
    for (const field of ["constructor", "__proto__", "toString"]) {
      const carrier = await send("POST", "/organization/sip", `{"name": "x", "${field}": 1}`);
      const form = new FormData();
      form.append("name", "x");
      form.append(field, "1");
      form.append("files", new Blob(["RIFF"]), "a.wav");
      const clone = await send("POST", "/voices/voice-clone", form);
      for (const answer of [carrier, clone]) {
        expect(answer.json).toMatchObject({
          error: { status: 400, code: "unknown_field", field },
        });
        expect(JSON.stringify(answer.json)).not.toContain("undefined");
      }
    }
  });

  it("refuses bodies of the wrong content type on every endpoint", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data",
          "application/jsonx",
          "",
        ),
        fc.constantFrom(
          ["POST", "/organization/sip", "api"] as const,
          ["PUT", "/voices/VOICE", "api"] as const,
          ["POST", "/campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe", "campaigns"] as const,
          ["POST", "/voices/voice-clone", "api"] as const,
        ),
        async (contentType, [method, path, origin]) => {
          counter.add("content type");
          const answer = await send(
            method,
            path.replace("VOICE", voiceId),
            '{"name": "x", "url": "https://h"}',
            {
              origin,
              contentType,
            },
          );
          assertAnswer(answer, ["wrong content type"]);
        },
      ),
      { numRuns: runs(40) },
    );
  });
});
