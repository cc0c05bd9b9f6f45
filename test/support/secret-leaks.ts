/**
 * A leak detector for the secrets tests, written apart from the provider's redaction
 * (provider/platform/redaction.ts) so that the two do not share a blind spot. A text leaks a
 * secret when any normalized view of it holds the secret: the text decoded by every combination
 * (up to 5 deep) of
 * - percent-decoding (`%XX` runs as UTF-8, or each byte one Latin-1 character, and `%uXXXX`),
 *   and a form's `+` as a space;
 * - string-literal unescaping (JSON, JavaScript, Java, C#, Go, Python, Ruby, PHP, C: `\uXXXX`,
 *   `\u{…}`, `\UXXXXXXXX`, `\xHH` and octal runs as UTF-8 or as Latin-1, `\n` and the like, `\"`
 *   and the like), in either case;
 * - HTML character references as the html-entities library reads them (every named reference,
 *   legacy names without `;`, numeric ones with any zeros), numeric ones also as the raw code
 *   point, and names in any case (`&LOWBAR;`): each reading of a name that differs only in case
 *   from another (`&DAGGER;`: † or ‡) is a view of its own;
 * then compared without regard to case: each code point in compatibility form, upper- and
 * lower-cased until stable, C1 controls as the Windows-1252 characters browsers show, HTML 4's
 * angle brackets (`&lang;` to html-entities) as HTML5's, the dot above an i or j and the accents
 * of a Greek letter dropped (what locales add or drop).
 */
import { decode as decodeHtml } from "html-entities";
import { allNamedReferences } from "./html-reference-names";

function foldedCodePoint(char: string): string {
  const code = char.codePointAt(0)!;
  let folded = (code >= 0x80 && code <= 0x9f ? decodeHtml(`&#${code};`) : char).normalize("NFKD");
  for (let round = 0; round < 3; round++) {
    const next: string = folded.toUpperCase().toLowerCase().normalize("NFKD");
    if (next === folded) break;
    folded = next;
  }
  return folded;
}

/** Each code point compared without regard to case, compatibility form or locale. */
export function caseless(text: string): string {
  return Array.from(text, foldedCodePoint)
    .join("")
    .replace(/(?<=[ij]\p{M}*)\u0307/gu, "")
    .replace(/\u3008/g, "\u27e8")
    .replace(/\u3009/g, "\u27e9")
    .replace(/(\p{Script=Greek})\p{M}+/gu, "$1");
}

function percentDecodedRuns(text: string, asLatin1: boolean): string {
  return text
    .replace(/%u([0-9a-fA-F]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
      bytesText(Buffer.from(run.replace(/%/g, ""), "hex"), asLatin1),
    );
}

/** Bytes as UTF-8, or (not UTF-8, or asked) one Latin-1 character each. */
function bytesText(bytes: Buffer, asLatin1: boolean): string {
  const utf8 = bytes.toString("utf8");
  return asLatin1 || utf8.includes("\ufffd") ? bytes.toString("latin1") : utf8;
}

const simpleEscapes: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  s: " ",
  t: "\t",
  v: "\v",
};

/**
 * String-literal escapes, in either case (an echo upper-cased after escaping writes `\U00E9`):
 * byte escapes as UTF-8 or as Latin-1, `\u` before 8 hex digits naming a code point as 8 digits
 * (Python's `\U`, maybe case-changed) or as 4 (JSON's).
 */
function unescaped(text: string, reading: "utf8" | "latin1" | "four-digit"): string {
  const asLatin1 = reading === "latin1";
  return text
    .replace(/(?:\\(?:[xX][0-9a-fA-F]{2}|[0-7]{1,3}))+/g, (run) => {
      const bytes = [...run.matchAll(/\\(?:[xX]([0-9a-fA-F]{2})|([0-7]{1,3}))/g)].map((m) =>
        m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2]!, 8) & 0xff,
      );
      return bytesText(Buffer.from(bytes), asLatin1);
    })
    .replace(
      /\\(?:[uU]\{([0-9a-fA-F]{1,6})\}|([uU])(00(?:0[0-9a-fA-F]|10)[0-9a-fA-F]{4})|[uU]+([0-9a-fA-F]{4})|([a-zA-Z])|([^a-zA-Z0-9]))/g,
      (
        whole,
        braced?: string,
        _u?: string,
        long?: string,
        short?: string,
        letter?: string,
        other?: string,
      ) => {
        if (braced !== undefined) return String.fromCodePoint(parseInt(braced, 16));
        if (long !== undefined && reading !== "four-digit")
          return String.fromCodePoint(parseInt(long, 16));
        if (long !== undefined)
          return String.fromCharCode(parseInt(long.slice(0, 4), 16)) + long.slice(4);
        if (short !== undefined) return String.fromCharCode(parseInt(short, 16));
        if (letter !== undefined) return simpleEscapes[letter.toLowerCase()] ?? whole;
        return other!;
      },
    );
}

/** Numeric references as the code point they name, without HTML's C1 remapping. */
function numericReferences(text: string): string {
  return text.replace(
    /&#(?:[xX]0*([0-9a-fA-F]{1,6})|0*([0-9]{1,7}));?/g,
    (whole, hex?: string, dec?: string) => {
      const value = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
      if (value > 0x10ffff) return whole;
      return value >= 0xd800 && value <= 0xdfff
        ? String.fromCharCode(value)
        : String.fromCodePoint(value);
    },
  );
}

let namesByLowerCase: Map<string, string[]> | undefined;

/** The values of the named references spelled `name` in any case, `;` included when it has one. */
function caselessValues(name: string): string[] {
  if (namesByLowerCase === undefined) {
    namesByLowerCase = new Map();
    for (const reference of allNamedReferences()) {
      const key = reference.name.toLowerCase();
      const values = namesByLowerCase.get(key) ?? [];
      if (!values.includes(reference.value)) values.push(reference.value);
      namesByLowerCase.set(key, values);
    }
  }
  return namesByLowerCase.get(name.toLowerCase()) ?? [];
}

/** Letters outside ASCII that case changes make of ASCII ones (Turkish "İ" and "ı"). */
const asciiOf: Record<string, string> = { İ: "I", ı: "i", ſ: "s", "\u212a": "K", "\u0307": "" };

/** Named references in any case, each ambiguous one read as its `choice`-th meaning. */
function caselessReferences(text: string, choice: number): string {
  return text.replace(
    /&([0-9A-Za-zİıſ\u212a\u0307]{1,32})(;?)/g,
    (whole, written: string, semicolon: string) => {
      const name = written.replace(/[İıſ\u212a\u0307]/g, (char) => asciiOf[char]!);
      const complete = caselessValues(name + semicolon);
      if (complete.length > 0) return complete[Math.min(choice, complete.length - 1)]!;
      for (let length = name.length; length > 0; length--) {
        const legacy = caselessValues(name.slice(0, length));
        if (legacy.length > 0)
          return legacy[Math.min(choice, legacy.length - 1)]! + name.slice(length) + semicolon;
      }
      return whole;
    },
  );
}

const decoders: ((text: string) => string)[] = [
  (text) => percentDecodedRuns(text, false),
  (text) => percentDecodedRuns(text, true),
  (text) => text.replace(/\+/g, " "),
  (text) => unescaped(text, "utf8"),
  (text) => unescaped(text, "latin1"),
  (text) => unescaped(text, "four-digit"),
  (text) => decodeHtml(text, { level: "html5", scope: "body" }),
  numericReferences,
  ...[0, 1, 2, 3].map((choice) => (text: string) => caselessReferences(text, choice)),
];

/** Every view of `text` the decoders reach, folded (at most a few hundred). */
export function normalizedViews(text: string): string[] {
  const seen = new Set<string>([text]);
  let frontier = [text];
  for (let depth = 0; depth < 5 && frontier.length > 0 && seen.size < 600; depth++) {
    const next: string[] = [];
    for (const view of frontier) {
      for (const decode of decoders) {
        const decoded = decode(view);
        if (!seen.has(decoded)) {
          seen.add(decoded);
          next.push(decoded);
        }
      }
    }
    frontier = next;
  }
  return [...seen].map(caseless);
}

/** The secrets (by name) that some view of `text` holds, each with where it shows. */
export function leaksOf(text: string, secrets: Readonly<Record<string, string>>): string[] {
  const views = normalizedViews(text);
  const found: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    const needle = caseless(secret);
    const view = views.find((candidate) => candidate.includes(needle));
    if (view === undefined) continue;
    const at = view.indexOf(needle);
    found.push(
      `${name} ${JSON.stringify(secret)}: …${view.slice(Math.max(0, at - 60), at + needle.length + 60)}…`,
    );
  }
  return found;
}
