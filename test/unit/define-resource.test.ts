/**
 * What a resource file may leave out: `defineResource` gives it no warnings, the update of a
 * resource every input replaces (it records the new inputs, no call), the state a create stores
 * from the inputs and the id, a delete that says the object stays on the platform, an import id,
 * and no adoption input. A resource left without an update whose inputs would change in place
 * is refused where it is defined, naming the inputs and the fix.
 */
import { z } from "zod";
import { defineResource, type ResourceDefinition } from "../../provider/core/resource-descriptor";
import type { ApiCall } from "../../provider/platform/http-client";
import { resetProcessState } from "../../provider/settings/process-state";
import { callContext } from "../support/call-context";

let warned: string[];
beforeEach(() => {
  warned = [];
  jest.spyOn(console, "warn").mockImplementation((text: string) => void warned.push(text));
});
afterEach(() => {
  jest.restoreAllMocks();
  resetProcessState();
});

const Inputs = z
  .strictObject({
    number: z.string().min(1).meta({ description: "The number.", wire: "number" }),
    label: z.string().optional().meta({ description: "A label.", wire: "label" }),
  })
  .meta({ replaceOnChange: true });
const Outputs = z.object({
  numberId: z.string().meta({ description: "Its id.", writtenBy: "create" }),
});

/** Only what a resource must say: its facts, its create and what recovery looks for. */
function smallest(
  inputSchema: z.ZodObject = Inputs,
): ResourceDefinition<{ numberId: string }, "PhoneLine"> {
  return {
    type: "PhoneLine",
    summary: "A phone line.",
    example: { title: "A line", typescript: "", python: "", go: "", yaml: "" },
    inputSchema,
    outputSchema: Outputs,
    create: async () => ({ id: "line-1", state: { numberId: "line-1" } }),
    outputsFromId: (id) => ({ numberId: id, number: "told by no id" }),
    recovery: { lookFor: "a phone line with", idLabel: "line id", identifyingInputs: ["number"] },
  };
}

test("a resource that says nothing more warns about nothing at check", async () => {
  const line = defineResource(smallest());
  const answer = await line.check(
    callContext(),
    {},
    { number: "+14155550100", label: "x".repeat(500) },
  );
  expect(answer).toEqual({
    inputs: { number: "+14155550100", label: "x".repeat(500) },
    failures: [],
  });
  expect(warned).toEqual([]);
});

test("its state after create is the checked inputs and the outputs the id tells, nothing else", async () => {
  const line = defineResource(smallest());
  // `number` is an input, not an output: the id's word on it is not taken.
  expect(await line.stateAfterCreate("line-7", { number: "+14155550100" })).toEqual({
    number: "+14155550100",
    numberId: "line-7",
  });
});

test("its update records the new inputs over the stored state without a call", async () => {
  const line = defineResource(smallest());
  const stored = { number: "+14155550100", label: "old", numberId: "line-7", stateVersion: 1 };
  expect(
    await line.update(callContext(), "line-7", stored, { number: "+14155550100", label: "new" }),
  ).toEqual({
    number: "+14155550100",
    label: "new",
    numberId: "line-7",
  });
});

test("its delete says the object stays on the platform, naming the kind and the id", async () => {
  const line = defineResource(smallest());
  await line.delete(callContext(), "line-7", {}, { replacing: false });
  expect(warned).toEqual([
    expect.stringMatching(
      /^warning: PhoneLine line-7 stays on the platform: its API has no delete/,
    ),
  ]);
  await line.delete(callContext(), "line-8", {}, { replacing: true });
  expect(warned[1]).toMatch(/^warning: PhoneLine line-8 is replaced: .* the platform holds both/);
});

test("its import id is the create's, with the command; it has no adoption input", () => {
  const line = defineResource(smallest());
  expect(line.importId).toContain("`pulumi import voiceplatform:index:PhoneLine <name> <id>`");
  expect(line.adoptWith).toBeUndefined();
});

test("what a resource says is kept over the defaults", async () => {
  const line = defineResource({
    ...smallest(),
    warnings: (inputs) => (inputs.label === undefined ? ["PhoneLine: no label"] : []),
    update: async (_context, id) => ({ numberId: `${id}-updated` }),
    importId: "its own words",
    adoptWith: (id) => `existingLine: ${id}`,
  });
  await line.check(callContext(), {}, { number: "+14155550100" });
  expect(warned).toEqual(["warning: PhoneLine: no label"]);
  expect(await line.update(callContext(), "line-7", {}, {})).toEqual({
    numberId: "line-7-updated",
  });
  expect(line.importId).toBe("its own words");
  expect(line.adoptWith?.("line-7")).toBe("existingLine: line-7");
});

test("a resource without an update whose inputs change in place is refused, naming them and the fix", () => {
  const inPlace = z.strictObject({
    number: z.string().meta({ description: "The number.", wire: "number", replaceOnChange: true }),
    label: z.string().optional().meta({ description: "A label.", wire: "label" }),
  });
  expect(() => defineResource(smallest(inPlace))).toThrow(
    /PhoneLine: label would change in place.*no update.*give it an update.*replaceOnChange/,
  );
});

test("a call may use any method a resource needs: read, create, update, delete", () => {
  const calls: ApiCall["method"][] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const call: Pick<ApiCall, "method" | "idempotent"> = { method: "DELETE", idempotent: true };
  expect(calls).toContain(call.method);
});
