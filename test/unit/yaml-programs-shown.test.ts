/**
 * The YAML programs users are shown (README, docs/ and examples/yaml) are whole programs that declare
 * every name they interpolate: `pulumi convert` turns an undeclared `${sipPassword}` into a Python
 * program with an undefined name. test/languages/convert.test.ts converts each under the real CLI.
 */
import { interpolatedNames, sectionKeys, shownYamlPrograms } from "../support/yaml-programs";

const programs = shownYamlPrograms();

test("the programs of the docs and examples/yaml are all found", () => {
  expect(programs.map((program) => program.where)).toEqual(
    expect.arrayContaining(["docs/languages.md#1", "docs/languages.md#2", "examples/yaml"]),
  );
});

test.each(programs.map((program) => [program.where, program.text] as const))(
  "%s is a whole program declaring every name it interpolates",
  (_where, text) => {
    expect(text).toMatch(/^name: \S+$/m);
    expect(text).toMatch(/^runtime: yaml$/m);
    const declared = new Set(
      ["config", "resources", "variables"].flatMap((section) => sectionKeys(text, section)),
    );
    const undeclared = interpolatedNames(text).filter((name) => !declared.has(name));
    expect(undeclared).toEqual([]);
  },
);
