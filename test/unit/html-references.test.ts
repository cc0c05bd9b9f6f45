/**
 * Every named character reference of HTML5 hides no secret: a secret holding the character(s)
 * of each of the 2,231 names, echoed with that name as written, upper-cased, lower-cased and
 * upper-cased as Turkish does (`&PERİOD;`), is blanked. The names come from the `entities`
 * library the provider decodes with (test/support/html-reference-names.ts), checked here against
 * the WHATWG table's size and against a second library, html-entities.
 */
import { decode } from "html-entities";
import { redactSecrets, rememberSecret } from "../../provider/platform/redaction";
import { resetProcessState } from "../../provider/settings/process-state";
import { allNamedReferences, type NamedReference } from "../support/html-reference-names";
import { caseless } from "../support/secret-leaks";

jest.setTimeout(120_000);

const names = allNamedReferences();

describe("the table of named references", () => {
  it("has the WHATWG table's 2,231 names, 106 of them legacy names read without ';'", () => {
    expect(names).toHaveLength(2231);
    expect(names.filter((reference) => !reference.name.endsWith(";"))).toHaveLength(106);
  });

  it("reads every name as a second library (html-entities) does", () => {
    const disagreeing = names.filter(
      ({ name, value }) => decode(`&${name}`, { level: "html5", scope: "body" }) !== value,
    );
    // html-entities keeps HTML 4's angle brackets for these two; the redaction folds both alike.
    expect(disagreeing.map((reference) => reference.name)).toEqual(["lang;", "rang;"]);
    for (const { name, value } of disagreeing) {
      expect(caseless(decode(`&${name}`, { level: "html5", scope: "body" }))).toBe(caseless(value));
    }
  });
});

/**
 * What a name written in another case reads as: the name so written when the table has it
 * (`&GT;`), else, of the names spelled so in some case, the one with lower-case letters first
 * (`&DAGGER;` is `&dagger;`), as html-references.ts documents.
 */
function readAs(written: string): NamedReference | undefined {
  const exact = names.find((reference) => reference.name === written);
  if (exact !== undefined) return exact;
  const swapped = (name: string) =>
    Array.from(name, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
  return names
    .filter((reference) => reference.name.toLowerCase() === written.toLowerCase())
    .sort((a, b) => (swapped(a.name) < swapped(b.name) ? -1 : 1))[0];
}

const spellings: [string, (text: string) => string][] = [
  ["as written", (text) => text],
  ["upper-cased", (text) => text.toUpperCase()],
  ["lower-cased", (text) => text.toLowerCase()],
  ["upper-cased as Turkish does", (text) => text.toLocaleUpperCase("tr")],
];

describe.each(spellings)("every named reference, %s", (_spelling, spell) => {
  it("is read, and the secret it spells blanked", () => {
    let blanked = 0;
    const readAsAnother: string[] = [];
    for (const reference of names) {
      const secret = `Zq${reference.value}-9`;
      const echo = spell(`Zq&${reference.name}-9`);
      const written = spell(reference.name).replace(/İ/g, "I");
      const read = readAs(written);
      if (read === undefined || caseless(read.value) !== caseless(reference.value)) {
        // A name that differs from another only in case (`&Dagger;`): spelled in a case of
        // neither, it reads as the other one. Counted, and checked to stay few.
        readAsAnother.push(reference.name);
        continue;
      }
      resetProcessState();
      rememberSecret(secret);
      expect({ name: reference.name, shown: redactSecrets(`refused: ${echo}.`) }).toEqual({
        name: reference.name,
        shown: "refused: [redacted].",
      });
      blanked++;
    }
    console.log(
      `${_spelling}: ${blanked} of ${names.length} named references blanked` +
        (readAsAnother.length === 0
          ? ""
          : `; ${readAsAnother.length} read as a name that differs from them only in case` +
            ` (${readAsAnother.slice(-6).join(" ")} …)`),
    );
    expect(blanked + readAsAnother.length).toBe(names.length);
    if (_spelling === "as written") expect(readAsAnother).toEqual([]);
    else expect(readAsAnother.length).toBeLessThan(150);
  });
});
