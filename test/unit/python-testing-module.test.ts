/**
 * The Python SDK's mocks (pulumi_voiceplatform/testing.py) are what `npm run sdk:generate` writes
 * from the descriptors today; their behaviour against the TypeScript mocks is held in the engine
 * tier (test/examples/mocks-outside.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pythonTestingModule } from "../../provider/codegen/python-testing";
import { resources } from "../../provider/resources";
import { kindsWithOwnMadeUpCreate } from "../../provider/testing/created-states";

const COMMITTED = join(
  __dirname,
  "..",
  "..",
  "provider",
  "sdk",
  "python",
  "pulumi_voiceplatform",
  "testing.py",
);

test("the committed testing.py is the generated one (npm run sdk:generate writes it)", () => {
  expect(readFileSync(COMMITTED, "utf8")).toBe(pythonTestingModule());
});

test("it names every resource kind, with the outputs its create writes", () => {
  const text = pythonTestingModule();
  for (const descriptor of resources) {
    expect(text).toContain(`"${descriptor.type}": {`);
    expect(text).toContain(`_CREATES = {`);
    if (kindsWithOwnMadeUpCreate.includes(descriptor.type)) {
      expect(text).toMatch(new RegExp(`"${descriptor.type}": _created_`));
    }
  }
  // The spec's kinds' creates are answered with more than an id, as the TypeScript mocks' are.
  expect(kindsWithOwnMadeUpCreate).toEqual(["Voice", "SipCarrier", "CampaignWebhook"]);
});

test("a kind without a create of its own gets a new id, and the outputs that are its id", () => {
  const text = pythonTestingModule();
  expect(text).toContain("def _created_with_an_id(kind: str, inputs: Dict[str, Any])");
  expect(text).toContain("if create else _created_with_an_id(kind, inputs)");
  // The carrier's carrierId is its id (outputsFromId), the voice's outputs are the answer's.
  expect(text).toMatch(/"SipCarrier": \{[^}]*"id_outputs": \[\s*"carrierId"\s*\]/);
  expect(text).toMatch(/"Voice": \{[^}]*"id_outputs": \[\]/);
});
