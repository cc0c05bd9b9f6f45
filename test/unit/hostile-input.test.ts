/**
 * Property-based tests of every resource's `check`, through the runtime handlers the engine calls:
 * thousands of random and hostile inputs. For each one, check
 * - never throws, and answers `{ inputs, failures }`;
 * - never accepts an input that an independent oracle knows to be invalid;
 * - names the place of every failure (in the engine's form: a top-level input as the property,
 *   or none for an input holding a secret or a name that is no input, the exact path starting
 *   the reason when it is deeper) and a reason, and never reports a value that is unknown during
 *   preview;
 * - accepts every valid input, also with any part of it unknown, and normalizes idempotently;
 * - lets no `__proto__` or `constructor` key touch Object.prototype.
 *
 * The oracles, one in each kind's fixture (test/fixtures/kinds), restate a few key rules from the
 * API spec and the field notes, independently of the provider's zod schemas: a gateway port
 * outside 1–65535, an event outside the five, an inbound gateway without a literal IPv4 address,
 * a URL that is not absolute http(s), a header value with CR/LF, unknown fields, and so on.
 */
import fc from "fast-check";
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
  mutation,
  setAt,
  UNKNOWN,
  valueAtProperty,
} from "../support/hostile-values";
import { fixtureOf } from "../support/kind-fixtures";
import { innerObject } from "../support/schema-leaves";
import { isAsset, missingSamples, samples } from "../fixtures/kinds/voice";

type Kind = ResourceKind;
type Inputs = Record<string, unknown>;

const FULL = process.env.RELIABILITY_FULL === "1";
const runs = (n: number) => (FULL ? n * 4 : n);

// Hundreds of property runs per test: on a shared, loaded machine one can outlast jest's 30 s.
jest.setTimeout(180_000);

const counter = new InputCounter();
let warnSpy: jest.SpyInstance;
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

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

/** Each kind's oracle and valid inputs, from its fixture in test/fixtures/kinds. */
const fixtures = Object.fromEntries(resourceKinds.map((kind) => [kind, fixtureOf(kind)]));
const oracles = (kind: Kind) => fixtures[kind]!.violations;
const valid = (kind: Kind) => fixtures[kind]!.valid;

/** The top-level inputs of each kind, as its descriptor declares them. */
const inputNames = Object.fromEntries(
  resources.map((descriptor) => [descriptor.type, Object.keys(descriptor.inputSchema.shape)]),
);

/** The inputs a kind can go without, as its descriptor declares them. */
const optionalKeys = Object.fromEntries(
  resources.map((descriptor) => [
    descriptor.type,
    Object.entries(descriptor.inputSchema.shape as Record<string, z.ZodType>)
      .filter(([, field]) => field.safeParse(undefined).success)
      .map(([key]) => key),
  ]),
);

// ---------------------------------------------------------------------------------------------
// What every answer must be.

type CheckAnswer = Awaited<ReturnType<typeof check>>;

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
    if (failure.property !== "") expect(inputNames[kind]!).toContain(failure.property);
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
  const violations = oracles(kind)(input);
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
const oracleKeys: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(fixtures).flatMap(([kind, fixture]) =>
    Object.entries(fixture.oracleKeys).map(([at, keys]) => [
      at === "" ? kind : `${kind}.${at}`,
      keys,
    ]),
  ),
);

/** Every top-level input name the oracles know, and every name they know deeper down. */
const topLevelKeys = [...new Set(Object.values(fixtures).flatMap((f) => f.oracleKeys[""] ?? []))];
const nestedKeys = [
  ...new Set(
    Object.values(fixtures).flatMap((f) =>
      Object.entries(f.oracleKeys).flatMap(([at, keys]) => (at === "" ? [] : keys)),
    ),
  ),
];

/** Every object's keys below a schema, by where they stand (`SipCarrier.gateways[]`). */
function schemaKeys(schema: z.ZodType, at: string, found: Record<string, string[]> = {}) {
  const { object, lists } = innerObject(schema);
  if (object === undefined) return found;
  const where = at + "[]".repeat(lists);
  const shape = object.shape as Record<string, z.ZodType>;
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
      fc.asyncProperty(valid(kind), async (input) => {
        expect(oracles(kind)(input)).toEqual([]);
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
        valid(kind),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.subarray([...optionalKeys[kind]!], { maxLength: 2 }),
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
        valid(kind),
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
      { arbitrary: fc.constantFrom(...topLevelKeys), weight: 4 },
      { arbitrary: hostileKey, weight: 1 },
    );
    const nested = fc.oneof(
      { arbitrary: hostileValue, weight: 4 },
      {
        arbitrary: fc.array(fc.dictionary(fc.constantFrom(...nestedKeys, "path"), hostileValue), {
          maxLength: 2,
        }),
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
