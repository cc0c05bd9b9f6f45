/**
 * Generated secrets and the echoes a platform could quote them in, for the property-based
 * secrets tests (unit: test/unit/redaction.test.ts; both front ends over a real server:
 * test/reliability-processes/secret-echoes.test.ts).
 */
import fc from "fast-check";
import type { EchoForm } from "../../provider/emulator/control-types";
import { echoTransforms } from "../../provider/emulator/echo-fault";

/**
 * The secrets a hostile platform got printed readable by `pulumi up` at b19be84 (issue 38), by
 * escaping its error text as PHP's htmlentities(…, ENT_HTML5) does.
 */
export const issue38Secrets = {
  apiKey: "sk_live_hostile.key9",
  sipPassword: "Sip_Pass.w0rd:9/x",
  webhookToken: "tok_Hostile/Hook.Value:7",
} as const;

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

/**
 * How one character (or the characters of one named reference) of a secret is written in a
 * mixed echo. `next` is what the echo writes right after it, for the forms whose end depends on
 * it: a legacy name or a numeric reference may leave off its `;` unless a letter or digit
 * follows, as HTML reads them.
 */
type PieceForm = (value: string, name: string | undefined, next: string) => string;

const hexCase = (hex: string, upper: boolean) => (upper ? hex.toUpperCase() : hex.toLowerCase());
const codePointsOf = (value: string) => Array.from(value, (c) => c.codePointAt(0)!);
const utf8Of = (value: string) => [...Buffer.from(value, "utf8")];

/** Forms any platform writes alike. */
const neutralForms: Record<string, (zeros: number, upper: boolean) => PieceForm> = {
  "as is": () => (value) => value,
  "named reference": () => (value, name, next) =>
    name === undefined
      ? value
      : name.endsWith(";") || /^[0-9A-Za-z;]/.test(next)
        ? `&${name.replace(/;?$/, ";")}`
        : `&${name}`,
  "decimal reference": (zeros) => (value, _name, next) =>
    codePointsOf(value)
      .map((code, k, all) => {
        const last = k === all.length - 1;
        return `&#${"0".repeat(zeros)}${code}${last && !/^[0-9;]/.test(next) ? "" : ";"}`;
      })
      .join(""),
  "hex reference": (zeros, upper) => (value, _name, next) =>
    codePointsOf(value)
      .map((code, k, all) => {
        const last = k === all.length - 1;
        const x = upper ? "X" : "x";
        return `&#${x}${"0".repeat(zeros)}${hexCase(code.toString(16), upper)}${last && !/^[0-9a-fA-F;]/.test(next) ? "" : ";"}`;
      })
      .join(""),
  "\\uXXXX": (_zeros, upper) => (value) =>
    Array.from({ length: value.length }, (_, k) =>
      value.charCodeAt(k) < 0x20
        ? `\\x${value.charCodeAt(k).toString(16).padStart(2, "0")}`
        : `\\u${hexCase(value.charCodeAt(k).toString(16).padStart(4, "0"), upper)}`,
    ).join(""),
  "\\UXXXXXXXX": (_zeros, upper) => (value) =>
    codePointsOf(value)
      .map((code) => `\\U${hexCase(code.toString(16).padStart(8, "0"), upper)}`)
      .join(""),
  "\\u{…}": () => (value) =>
    codePointsOf(value)
      .map((code) => `\\u{${code.toString(16)}}`)
      .join(""),
  "%uXXXX": (_zeros, upper) => (value) =>
    Array.from(
      { length: value.length },
      (_, k) => `%u${hexCase(value.charCodeAt(k).toString(16).padStart(4, "0"), upper)}`,
    ).join(""),
};

/** Forms that write bytes as UTF-8 (URLs, Python bytes, C and PHP octal). */
const utf8Forms: Record<string, (zeros: number, upper: boolean) => PieceForm> = {
  "percent-encoded UTF-8": (_zeros, upper) => (value) =>
    utf8Of(value)
      .map((byte) => `%${hexCase(byte.toString(16).padStart(2, "0"), upper)}`)
      .join(""),
  "\\xHH UTF-8 bytes": (_zeros, upper) => (value) =>
    utf8Of(value)
      .map((byte) => `\\x${hexCase(byte.toString(16).padStart(2, "0"), upper)}`)
      .join(""),
  "octal UTF-8 bytes": () => (value) =>
    utf8Of(value)
      .map((byte) => `\\${byte.toString(8).padStart(3, "0")}`)
      .join(""),
};

/** Forms that write a character up to U+00FF as one byte (JavaScript's escape(), Python's ascii()). */
const latin1Forms: Record<string, (zeros: number, upper: boolean) => PieceForm> = {
  "escape()": () => (value) => escape(value),
  "\\xHH code points": (_zeros, upper) => (value) =>
    codePointsOf(value)
      .map((code) =>
        code <= 0xff
          ? `\\x${hexCase(code.toString(16).padStart(2, "0"), upper)}`
          : code <= 0xffff
            ? `\\u${hexCase(code.toString(16).padStart(4, "0"), upper)}`
            : `\\U${hexCase(code.toString(16).padStart(8, "0"), upper)}`,
      )
      .join(""),
};

/** Every form a piece of a mixed echo can take, by name. */
export const pieceFormNames = [
  ...Object.keys(neutralForms),
  ...Object.keys(utf8Forms),
  ...Object.keys(latin1Forms),
];

/** Characters an echo writes as they are only where they cannot start or end an escape. */
const PLAIN = /^[^\\&%+;#]+$/u;

export interface MixedEcho {
  readonly secret: string;
  readonly echo: string;
  /** The forms the echo's pieces took, and the named references it wrote. */
  readonly forms: string[];
  readonly names: string[];
}

/**
 * A secret made of pieces (a letter, a character JSON, URLs or HTML escape, a character past
 * ASCII, or the value of any named reference of HTML5), and an echo that writes each piece in a
 * form of its own: as is, by name (with or without `;`), as a decimal or hex reference with 0 to
 * 30 leading zeros, and as the escapes of JSON, JavaScript, Python, Go, C, PHP and URLs. An echo
 * writes bytes either as UTF-8 or one per character up to U+00FF, as one platform would.
 * `namePool` is the named references to draw from.
 */
export function mixedEcho(
  namePool: readonly { name: string; value: string }[],
): fc.Arbitrary<MixedEcho> {
  const piece = fc.oneof(
    { weight: 3, arbitrary: secretChar.map((value) => ({ value, name: undefined })) },
    { weight: 2, arbitrary: fc.constantFrom(...namePool) },
  );
  const formFamily = fc.constantFrom(utf8Forms, latin1Forms);
  const writtenPiece = fc.tuple(piece, fc.nat(), fc.nat(30), fc.boolean());
  return fc
    .tuple(fc.array(writtenPiece, { minLength: 4, maxLength: 12 }), formFamily)
    .map(([pieces, bytesForms]) => {
      const forms = { ...neutralForms, ...bytesForms };
      const formNames = Object.keys(forms);
      const written: string[] = [];
      const used: string[] = [];
      let next = "";
      for (let k = pieces.length - 1; k >= 0; k--) {
        const [{ value, name }, pick, zeros, upper] = pieces[k]!;
        let formName = formNames[pick % formNames.length]!;
        if (formName === "as is" && !PLAIN.test(value)) formName = "named reference";
        if (formName === "named reference" && name === undefined) formName = "decimal reference";
        const text = forms[formName]!(zeros, upper)(value, name, next);
        written.unshift(text);
        used.unshift(formName);
        next = text;
      }
      return {
        secret: pieces.map(([p]) => p.value).join(""),
        echo: written.join(""),
        forms: used,
        names: pieces.flatMap(([p]) => (p.name === undefined ? [] : [p.name])),
      };
    });
}
