/**
 * The Python SDK's mocks (pulumi_voiceplatform/testing.py) are what `npm run sdk:generate` writes
 * from the descriptors today; their behaviour against the TypeScript mocks is held in the engine
 * tier (test/examples/mocks-outside.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pythonTestingModule } from "../../provider/codegen/python-testing";
import { resources } from "../../provider/resources";

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
    expect(text).toMatch(new RegExp(`"${descriptor.type}": _created_`));
  }
});
