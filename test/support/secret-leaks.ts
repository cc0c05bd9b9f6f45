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
 * - quoted-printable (soft line breaks too), CSS escapes, C#'s `\xH…`, quotes doubled (SQL, CSV),
 *   Python's `\N{NAME}` anywhere (names read by the unicode-name library, not the provider's
 *   table);
 * - base64 tokens (either alphabet, lines joined) read from the one of their first 4 characters,
 *   and hex runs (any separators) from their first or second digit, that reads the most text,
 *   where most of it is text;
 * then compared without regard to case: each code point in compatibility form, upper- and
 * lower-cased until stable, C1 controls as the Windows-1252 characters browsers show, HTML 4's
 * angle brackets (`&lang;` to html-entities) as HTML5's, the dot above an i or j and the accents
 * of a Greek letter dropped (what locales add or drop). And the bytes of every base64 token and
 * hex run of every view, read at every alignment whatever they hold, are searched for the
 * secret's own bytes (as is, and JSON-escaped).
 */
import { decode as decodeHtml } from "html-entities";
import { unicodeAliases, unicodeBaseName } from "unicode-name";
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

function quotedPrintable(text: string, asLatin1: boolean): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/(?:=[0-9a-fA-F]{2})+/g, (run) =>
      bytesText(Buffer.from(run.replace(/=/g, ""), "hex"), asLatin1),
    );
}

function cssUnescaped(text: string): string {
  return text.replace(
    /\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\r\n\f])?|(?:\r\n|[\r\n\f])|([^0-9a-fA-F\r\n\f]))/g,
    (_whole, hex?: string, other?: string) => {
      if (other !== undefined) return other;
      if (hex === undefined) return "";
      const value = parseInt(hex, 16);
      return value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)
        ? "\ufffd"
        : String.fromCodePoint(value);
    },
  );
}

function dotnetUnescaped(text: string): string {
  return text.replace(
    /\\(?:[xX]([0-9a-fA-F]{1,4})|(["'\\0]))/g,
    (_whole, hex?: string, char?: string) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : char === "0" ? "\0" : char!,
  );
}

let characterByName: Map<string, string> | undefined;

/** Every Unicode name and alias (upper case) and its character, from the unicode-name library. */
function namedCharacters(): Map<string, string> {
  if (characterByName !== undefined) return characterByName;
  characterByName = new Map();
  for (let code = 0; code <= 0x10ffff; code++) {
    const char = String.fromCodePoint(code);
    if (/[\p{Cn}\p{Co}\p{Cs}]/u.test(char)) continue;
    const name = unicodeBaseName(code);
    if (name !== undefined) characterByName.set(name, char);
    for (const list of Object.values(unicodeAliases(code) ?? {}))
      for (const alias of list as string[])
        if (!characterByName.has(alias)) characterByName.set(alias, char);
  }
  return characterByName;
}

/** Python's `\N{NAME}` wherever it is, the name in any case (also as Turkish cases it). */
function namesReplaced(text: string): string {
  if (!/\\N\{/i.test(text)) return text;
  return text.replace(/\\N\{([^{}]{1,120})\}/gi, (whole, name: string) => {
    const ascii = name.replace(/[İıſ\u212a\u0307]/g, (char) => asciiOf[char]!.toUpperCase());
    return namedCharacters().get(ascii.toUpperCase()) ?? whole;
  });
}

/** Letters and digits of base64, either alphabet. */
const BASE64_CHAR = "[A-Za-z0-9+/_-]";

/** MIME's and PEM's wrapped lines joined (a line break between base64 characters left out). */
function unwrapped(text: string): string {
  return text.replace(new RegExp(`(?<=${BASE64_CHAR}={0,2})\\r?\\n(?=${BASE64_CHAR})`, "g"), "");
}

/** Characters that are not text: a replacement character, a control but tab and line breaks. */
const JUNK = /[\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** Whether a decoded text is mostly text: 3 in 4 characters or more. */
function mostlyText(text: string): boolean {
  if (text.length === 0) return false;
  return (text.match(JUNK)?.length ?? 0) * 4 <= text.length;
}

/** Of texts read from bytes, the one with the least that is not text, if it is mostly text. */
function mostTextOf(readings: string[]): string | undefined {
  const junk = (text: string) => text.match(JUNK)?.length ?? 0;
  const best = readings.sort((a, b) => junk(a) / a.length - junk(b) / b.length)[0];
  return best !== undefined && mostlyText(best) ? best : undefined;
}

/** Every base64 token read from the first of its first 4 characters that reads mostly text. */
function base64Decoded(text: string): string {
  return text.replace(new RegExp(`${BASE64_CHAR}{6,}={0,2}`, "g"), (token) => {
    const readings = [0, 1, 2, 3].map((skip) => {
      let body = token.replace(/=+$/, "").slice(skip);
      if (body.length % 4 === 1) body = body.slice(0, -1);
      return Buffer.from(body, "base64").toString("utf8");
    });
    return mostTextOf(readings) ?? token;
  });
}

const HEX_RUN = /(?:(?:0[xX])?[0-9a-fA-F]{2}(?:[ :,-]{1,2}|[ \t]*\r?\n)?)+[0-9a-fA-F]?/g;

function hexDigitsOf(run: string): string {
  return run.replace(/0[xX](?=[0-9a-fA-F])|[^0-9a-fA-F]/g, "");
}

/** Every hex run read from its first or second digit, where that reads mostly text. */
function hexDecoded(text: string): string {
  return text.replace(HEX_RUN, (run) => {
    const digits = hexDigitsOf(run);
    if (digits.length < 8) return run;
    const readings = [0, 1].map((skip) => {
      const pairs = digits.slice(skip, skip + ((digits.length - skip) & ~1));
      return bytesText(Buffer.from(pairs, "hex"), false);
    });
    return mostTextOf(readings) ?? run;
  });
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
  (text) => quotedPrintable(text, false),
  (text) => quotedPrintable(text, true),
  cssUnescaped,
  dotnetUnescaped,
  (text) => text.replace(/''/g, "'").replace(/""/g, '"'),
  namesReplaced,
  unwrapped,
  base64Decoded,
  hexDecoded,
];

/** Every view of `text` the decoders reach, folded (at most a few hundred). */
export function normalizedViews(text: string): string[] {
  return rawViews(text).map(caseless);
}

/** Every view of `text` the decoders reach, as decoded. */
function rawViews(text: string): string[] {
  const cached = rawViewCache.get(text);
  if (cached !== undefined) return cached;
  const views = decodedViews(text);
  if (rawViewCache.size > 64) rawViewCache.clear();
  rawViewCache.set(text, views);
  return views;
}

const rawViewCache = new Map<string, string[]>();

function decodedViews(text: string): string[] {
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
  return [...seen];
}

/**
 * The bytes every base64 token and hex run of `text` stands for, read from each alignment whatever
 * they hold, each as a Latin-1 string (one character a byte).
 */
function byteReadings(text: string): string[] {
  const readings: string[] = [];
  for (const token of unwrapped(text).match(new RegExp(`${BASE64_CHAR}{4,}`, "g")) ?? []) {
    for (let skip = 0; skip < 4 && token.length - skip >= 4; skip++)
      readings.push(Buffer.from(token.slice(skip), "base64").toString("latin1"));
  }
  for (const run of text.match(HEX_RUN) ?? []) {
    const digits = hexDigitsOf(run);
    for (let skip = 0; skip < 2 && digits.length - skip >= 8; skip++) {
      const pairs = digits.slice(skip, skip + ((digits.length - skip) & ~1));
      readings.push(Buffer.from(pairs, "hex").toString("latin1"));
    }
  }
  return readings;
}

/** A secret's bytes as sent (as is and JSON-escaped), each as a Latin-1 string. */
function sentBytes(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, json])].map((form) => Buffer.from(form, "utf8").toString("latin1"));
}

/** The secrets (by name) that some view of `text` holds, each with where it shows. */
export function leaksOf(text: string, secrets: Readonly<Record<string, string>>): string[] {
  const views = normalizedViews(text);
  const found: string[] = [];
  let readings: string[] | undefined;
  for (const [name, secret] of Object.entries(secrets)) {
    const needle = caseless(secret);
    const view = views.find((candidate) => candidate.includes(needle));
    if (view !== undefined) {
      const at = view.indexOf(needle);
      found.push(
        `${name} ${JSON.stringify(secret)}: …${view.slice(Math.max(0, at - 60), at + needle.length + 60)}…`,
      );
      continue;
    }
    readings ??= rawViews(text).flatMap(byteReadings);
    const bytes = sentBytes(secret);
    if (readings.some((reading) => bytes.some((form) => reading.includes(form))))
      found.push(`${name} ${JSON.stringify(secret)}: its bytes, in base64 or hex`);
  }
  return found;
}
