/**
 * Generated secrets and the echoes a platform could quote them in, for the property-based
 * secrets tests (unit: test/unit/redaction.test.ts; both front ends over a real server:
 * test/reliability-processes/secret-echoes.test.ts).
 */
import fc from "fast-check";
import type { EchoForm } from "../../provider/emulator/control-types";
import { echoTransforms } from "../../provider/emulator/echo-fault";

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** Characters that JSON, URLs, forms or HTML write escaped. */
const escaped = `"\\/%+&<>'=?#:;,. {}[]\t`;
/** Letters whose case or compatibility forms differ in length or shape, and characters past ASCII. */
const unicode = ["é", "ß", "Σ", "ς", "İ", "ı", "ﬁ", "Å", "ñ", "中", "文", "😀", "€", "\u00a0"];

const secretChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...letters) },
  { weight: 2, arbitrary: fc.constantFrom(...escaped) },
  { weight: 2, arbitrary: fc.constantFrom(...unicode) },
);

/** A secret of `minLength` to `maxLength` characters: mixed case, escapes, unicode. */
export function secretText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: secretChar, minLength, maxLength });
}

/** A key an HTTP header carries: printable ASCII, no space at either end. */
export function apiKeyText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .string({ unit: fc.constantFrom(...letters, ..."-_.~+/=!"), minLength, maxLength })
    .filter((key) => key.trim() === key && key !== "");
}

export { echoTransforms };

/** Words and letters written right against an echoed piece. */
const around = fc.oneof(
  fc.constant(""),
  fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 3 }),
  fc.constantFrom("value=", "'", '"', " got ", "%22", "\\u0022"),
);

export const echoForm: fc.Arbitrary<EchoForm> = fc.record({
  transforms: fc.array(fc.constantFrom(...echoTransforms), { maxLength: 3 }),
  before: around,
  after: around,
});

export const echoForms = fc.array(echoForm, { minLength: 1, maxLength: 3 });
