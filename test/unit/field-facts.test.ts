/**
 * Facts kept on the fields (provider/core/field-facts.ts) and what is read from them, on small
 * schemas of their own: request bodies, secret paths and wire fields, the diff plan, sets and
 * outputs.
 */
import { z } from "zod";
import {
  diffPlanOf,
  outputFieldsOf,
  requestBody,
  secretPaths,
  secretWireFields,
  sortedSets,
  wirePaths,
} from "../../provider/core/field-facts";
import { UNKNOWN } from "../../provider/core/engine-values";

const Item = z.strictObject({
  label: z.string().meta({ wire: "item_label" }),
  token: z.string().optional().meta({ wire: "token", secret: true }),
  note: z.string().optional(),
});

const Inputs = z.strictObject({
  name: z.string().meta({ wire: "name" }),
  password: z.string().optional().meta({ wire: "pass_word", secret: true }),
  items: z.array(Item).optional().meta({ wire: "items", set: true }),
  nested: z
    .strictObject({
      url: z.string().meta({ wire: "url", secret: true }),
      list: z.array(Item).optional().meta({ wire: "list" }),
    })
    .optional()
    .meta({ wire: "nested" }),
  speed: z
    .number()
    .optional()
    .meta({ wire: { clone: "speed", update: "settings.speed" } }),
  cloneOnly: z
    .boolean()
    .optional()
    .meta({ wire: { clone: "clone_only" }, replaceOnChange: true }),
  local: z.string().optional().meta({ replaceOnChange: true }),
  recorded: z.string().optional(),
});

describe("requestBody", () => {
  const inputs = {
    name: "n",
    password: "p",
    items: [{ label: "a", token: "t", note: "kept out" }],
    nested: { url: "https://x", list: [{ label: "b" }] },
    speed: 1.1,
    cloneOnly: true,
    local: "never sent",
  };

  test("names every field with a wire name as the API does, nested objects and lists too", () => {
    expect(requestBody(Inputs, inputs)).toEqual({
      name: "n",
      pass_word: "p",
      items: [{ item_label: "a", token: "t" }],
      nested: { url: "https://x", list: [{ item_label: "b" }] },
    });
  });

  test("a call's own names apply, dotted ones nesting the value", () => {
    expect(requestBody(Inputs, inputs, { call: "update" })).toMatchObject({
      settings: { speed: 1.1 },
    });
    expect(requestBody(Inputs, inputs, { call: "update" })).not.toHaveProperty("clone_only");
    expect(requestBody(Inputs, inputs, { call: "clone" })).toMatchObject({
      speed: 1.1,
      clone_only: true,
    });
  });

  test("leaves out what is not given, and what `keep` refuses", () => {
    expect(requestBody(Inputs, { name: "n", password: undefined })).toEqual({ name: "n" });
    expect(
      requestBody(Inputs, inputs, { call: "update", keep: (key) => key !== "speed" }),
    ).not.toHaveProperty("settings");
  });

  test("wirePaths lists every leaf a body can hold", () => {
    expect(wirePaths(Inputs, "clone").sort()).toEqual(
      [
        "clone_only",
        "items[].item_label",
        "items[].token",
        "name",
        "nested.list[].item_label",
        "nested.list[].token",
        "nested.url",
        "pass_word",
        "speed",
      ].sort(),
    );
  });
});

test("secret paths name nested fields and the items of lists", () => {
  expect(secretPaths(Inputs)).toEqual([
    "password",
    "items[].token",
    "nested.url",
    "nested.list[].token",
  ]);
});

test("secret wire fields: top-level and list items by both names, a nested object's not", () => {
  expect(secretWireFields(Inputs).sort()).toEqual(
    ["pass_word", "password", "items[].token", "list[].token"].sort(),
  );
});

describe("diffPlanOf", () => {
  test("replace and set keys come from the fields; optional in-place ones are those the update sends", () => {
    const plan = diffPlanOf(Inputs);
    expect([...plan.replaceKeys].sort()).toEqual(["cloneOnly", "local"]);
    expect([...plan.setKeys]).toEqual(["items"]);
    expect([...(plan.optionalInPlaceKeys ?? [])].sort()).toEqual(
      ["items", "nested", "password", "speed"].sort(),
    );
  });

  test("replaceOnChange on the inputs object replaces on every input", () => {
    const plan = diffPlanOf(Inputs.meta({ replaceOnChange: true }));
    expect([...plan.replaceKeys].sort()).toEqual(Object.keys(Inputs.shape).sort());
    expect([...(plan.optionalInPlaceKeys ?? [])]).toEqual([]);
  });

  test("a fact the diff cannot honour below the top level is refused, not ignored", () => {
    const nestedSet = z.strictObject({
      outer: z.strictObject({ list: z.array(z.string()).meta({ set: true }) }),
    });
    expect(() => diffPlanOf(nestedSet)).toThrow("outer.list: set applies to top-level inputs only");
  });
});

test("sortedSets sorts known sets without repeats, and leaves unknown ones as they are", () => {
  const items = [{ label: "b" }, { label: "a" }, { label: "b" }];
  expect(sortedSets(Inputs, { name: "n", items }).items).toEqual([{ label: "a" }, { label: "b" }]);
  const pending = [{ label: "b" }, UNKNOWN];
  expect(sortedSets(Inputs, { items: pending }).items).toBe(pending);
});

test("outputs say which calls write them; one that does not is refused", () => {
  const outputs = z.object({
    id: z.string().meta({ writtenBy: "create" }),
    state: z.string().optional().meta({ writtenBy: "create and update" }),
  });
  expect(outputFieldsOf(outputs)).toEqual([
    { name: "id", writtenBy: "create", always: true },
    { name: "state", writtenBy: "create and update", always: false },
  ]);
  expect(() => outputFieldsOf(z.object({ lost: z.string() }))).toThrow(
    /output lost: .*\(writtenBy\)/,
  );
});
