/**
 * The check every resource shares: values unknown during preview are never warned about, nor
 * do they fail, in any resource.
 */
import { unknownValue } from "@pulumi/pulumi/runtime";
import * as runtime from "../../provider/runtime";
import { voiceInputs } from "../support/builders";
import { everyKind, fixtureOf } from "../support/kind-fixtures";

let warned: string[];
beforeEach(() => {
  warned = [];
  jest.spyOn(console, "warn").mockImplementation((text: string) => void warned.push(text));
});
afterEach(() => jest.restoreAllMocks());

describe.each(everyKind())("%s", (kind) => {
  const fixture = fixtureOf(kind);
  // Inputs the kind warns about where it has any, so a warning that quotes a value can show.
  const inputs = fixture.warned ?? fixture.inputs();

  if (fixture.warned !== undefined) {
    test("the fixture's warned inputs pass check with a warning", async () => {
      const result = await runtime[kind].check({}, inputs);
      expect(result.failures).toEqual([]);
      expect(warned).not.toEqual([]);
    });
  }

  test.each(Object.keys(inputs))(
    "a preview with %s unknown passes and warns about nothing unknown",
    async (key) => {
      const result = await runtime[kind].check({}, { ...inputs, [key]: unknownValue });
      expect(result.failures).toEqual([]);
      for (const text of warned) expect(text).not.toContain(unknownValue);
    },
  );
});

test("Voice: the warning comes once the name is known", async () => {
  await runtime.Voice.check({}, voiceInputs({ providerType: "FOO", name: "Known voice" }));
  expect(warned).toEqual([
    expect.stringMatching(/^warning: Voice "Known voice": providerType "FOO" is not one/),
  ]);
});
