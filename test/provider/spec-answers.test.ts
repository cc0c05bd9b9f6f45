/**
 * The dynamic front end against answers as terse as the spec shows them (the emulator's default),
 * and as rich as a later platform might give. Every output is run through `Struct.fromJavaScript`,
 * as `@pulumi/pulumi/cmd/dynamic-provider` does after the handler returned: a value it cannot
 * carry there loses the id of an object the platform has just made.
 */
import { createRequire } from "node:module";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type { z } from "zod";
import { IncompleteCreateError } from "../../provider/core/errors";
import { descriptorOf, resourceKinds, type ResourceKind } from "../../provider/resources";
import * as runtime from "../../provider/runtime";
import { voiceInputs, writeSample } from "../support/builders";
import { fixtureOf } from "../support/kind-fixtures";
import { useEmulator } from "./emulator-harness";

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb") as typeof StructPb;

/** What the dynamic provider does with outputs and partial-create properties. */
function carriedByTheEngine(bag: object): Record<string, unknown> {
  return Struct.fromJavaScript(bag as Record<string, StructPb.JavaScriptValue>).toJavaScript();
}

const context = useEmulator();
const requests = async () =>
  (await context.emulator.requests()).map((r) => `${r.method} ${r.path}`);

/** Each resource with its required inputs and nothing else, as its fixture gives them. */
const requiredOnly = (kind: ResourceKind) => fixtureOf(kind).requiredOnly();

async function checked(kind: ResourceKind, news: Record<string, unknown>) {
  const { inputs, failures } = await runtime[kind].check({}, news);
  expect(failures).toEqual([]);
  return inputs;
}

describe.each(["spec", "extended"] as const)("answers shaped as %s", (answers) => {
  beforeEach(async () => {
    await context.emulator.settings({ answers });
  });
  afterAll(async () => {
    await context.emulator.settings({ answers: "spec" });
  });

  test.each(resourceKinds)(
    "%s with only its required inputs is created once, with outputs the engine can carry",
    async (kind) => {
      const shape = descriptorOf(kind).inputSchema.shape as Record<string, z.ZodType>;
      const required = Object.keys(shape).filter(
        (name) => !shape[name]!.safeParse(undefined).success,
      );
      const inputs = requiredOnly(kind);
      expect(Object.keys(inputs)).toEqual(expect.arrayContaining(required));
      // Nothing more: without any one of them, check fails (a voice's samples are check's own).
      for (const name of Object.keys(inputs)) {
        const { [name]: _left, ...without } = inputs;
        const { failures } = await runtime[kind].check({}, without);
        expect({ name, failed: failures.length > 0 }).toEqual({ name, failed: true });
      }
      const { id, outs } = await runtime[kind].create(await checked(kind, inputs));
      expect(id).not.toBe("");
      expect(carriedByTheEngine(outs)).toEqual(JSON.parse(JSON.stringify(outs)));
      expect(await requests()).toHaveLength(1);
    },
  );

  test("a voice with no optional setting keeps only what the answer gave", async () => {
    const { outs } = await runtime.Voice.create(
      await checked("Voice", {
        name: "Plain voice",
        files: [writeSample("plain.wav", "plain sample")],
      }),
    );
    expect(carriedByTheEngine(outs)).toMatchObject({ stability: 0.5 });
    expect(outs).not.toHaveProperty("similarityBoost", undefined);
    if (answers === "spec") {
      expect(outs).not.toHaveProperty("similarityBoost");
      expect(outs).not.toHaveProperty("speed");
    }
  });

  test("a webhook's state holds the inputs and the answer's status and data, nothing else", async () => {
    const inputs = await checked("CampaignWebhook", requiredOnly("CampaignWebhook"));
    const { outs } = await runtime.CampaignWebhook.create(inputs);
    expect(outs).toEqual({ ...inputs, status: "success", data: true });
  });
});

describe("objects recorded without an answer", () => {
  test("a webhook recorded with alreadySubscribed sends nothing and its state can be carried", async () => {
    const { outs } = await runtime.CampaignWebhook.create(
      await checked("CampaignWebhook", {
        ...requiredOnly("CampaignWebhook"),
        alreadySubscribed: true,
      }),
    );
    expect(carriedByTheEngine(outs)).toEqual(JSON.parse(JSON.stringify(outs)));
    expect(outs).not.toHaveProperty("status");
    expect(await requests()).toEqual([]);
  });

  test("a voice adopted with existingVoiceId: one PUT, outputs the engine can carry", async () => {
    const clone = await runtime.Voice.create(await checked("Voice", requiredOnly("Voice")));
    await context.emulator.newRequests();
    const { id, outs } = await runtime.Voice.create(
      await checked("Voice", { name: "Adopted voice", existingVoiceId: clone.id }),
    );
    expect(id).toBe(clone.id);
    expect(carriedByTheEngine(outs)).toEqual(JSON.parse(JSON.stringify(outs)));
    expect((await context.emulator.newRequests()).map((r) => r.method)).toEqual(["PUT"]);
  });
});

test("a create that fails after the clone hands back the id, with properties the engine can carry", async () => {
  await context.emulator.addFault({
    method: "PUT",
    path: "/voices/*",
    action: { kind: "status", status: 500 },
  });
  const failure = await runtime.Voice.create(
    await checked("Voice", { ...requiredOnly("Voice"), isMultilingual: true }),
  ).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(IncompleteCreateError);
  const { id, properties } = failure as IncompleteCreateError;
  const stored = (await context.emulator.state()).organizations.org_emulator!.voices;
  expect(id).toBe(stored[0]!.id);
  expect(carriedByTheEngine(properties)).toEqual(JSON.parse(JSON.stringify(properties)));
});

test("a voice's samples compare as a set: another order is no change, other audio is", async () => {
  const a = writeSample("set-a.wav", "sample a");
  const b = writeSample("set-b.wav", "sample b");
  const inputs = await checked("Voice", voiceInputs({ files: [a, b] }));
  const { id, outs } = await runtime.Voice.create(inputs);
  const reordered = await checked("Voice", voiceInputs({ files: [b, a] }));
  expect(await runtime.Voice.diff(id, { ...outs }, reordered)).toMatchObject({ changes: false });
  const other = writeSample("set-c.wav", "sample c");
  const changed = await checked("Voice", voiceInputs({ files: [b, other] }));
  expect(await runtime.Voice.diff(id, { ...outs }, changed)).toMatchObject({
    changes: true,
    replaces: ["files"],
  });
});
