/**
 * HTML and XML character references, read at a `&` as a browser reads them, and in any case:
 * - every named reference of HTML5 (the 2,231 of the WHATWG table, decoded by the `entities`
 *   library), with its `;`, and without it for the 106 legacy names (`&amp`, `&eacute`);
 * - a name in another case than the table's (`&LOWBAR;` for `&lowbar;`, `&NEWLINE;` for
 *   `&NewLine;`, `&PERİOD;` for `&period;`): an echo that upper-cases its text after escaping it
 *   writes those. 137 names differ from another only in case (`&dagger;` † and `&Dagger;` ‡);
 *   written in a case of neither, such a name reads as the one lower-cased first, letter by
 *   letter (`&DAGGER;` is †);
 * - numeric references, decimal or hex, with any number of leading zeros and with or without
 *   `;`, as the code point they name (a lone surrogate as that UTF-16 unit, so a pair written as
 *   two references reads as its character).
 */
import { DecodingMode, EntityDecoder, htmlDecodeTree } from "entities/decode";

/** A reference read: the text it stands for, and how many units of the source it spans. */
export interface ReadReference {
  readonly text: string;
  readonly length: number;
}

/** The longest name in the table is 31 letters and digits (`CounterClockwiseContourIntegral`). */
const LONGEST_NAME = 32;

const NUMERIC = /&#(?:[xX]0*([0-9a-fA-F]+)|0*([0-9]+));?/y;
/**
 * Letters of a name, with what case changes make of i, s and k outside ASCII: Turkish "İ" and
 * "ı", the dot Lithuanian puts above an i, the long s and the Kelvin sign.
 */
const NAME = /[0-9A-Za-z\u0130\u0131\u0307\u017f\u212a]+/y;
const ASCII_OF: Readonly<Record<string, string>> = {
  "\u0130": "I",
  "\u0131": "i",
  "\u0307": "",
  "\u017f": "s",
  "\u212a": "K",
};

/** The reference at `at` (where the text has a `&`), or undefined when there is none. */
export function referenceAt(text: string, at: number): ReadReference | undefined {
  return text[at + 1] === "#" ? numericReference(text, at) : namedReference(text, at);
}

function numericReference(text: string, at: number): ReadReference | undefined {
  NUMERIC.lastIndex = at;
  const match = NUMERIC.exec(text);
  if (match === null) return undefined;
  const [whole, hex, decimal] = match;
  const digits = hex ?? decimal!;
  // Past U+10FFFF (checked on 7 digits at most, so parseInt never sees a huge number).
  if (digits.length > 7) return undefined;
  const value = parseInt(digits, hex === undefined ? 10 : 16);
  if (value > 0x10ffff) return undefined;
  const decoded =
    value >= 0xd800 && value <= 0xdfff ? String.fromCharCode(value) : String.fromCodePoint(value);
  return { text: decoded, length: whole.length };
}

let emitted: number[] = [];
const decoder = new EntityDecoder(htmlDecodeTree, (codePoint) => emitted.push(codePoint));

/**
 * The named reference at the start of `reference` as the table spells it (`&` included), read to
 * the end of `reference`: how many units it spans (0: none) with what it stands for, and whether
 * `reference` could still be the start of a longer name.
 */
function readName(reference: string): { length: number; text: string; viable: boolean } {
  emitted = [];
  decoder.startEntity(DecodingMode.Legacy);
  const written = decoder.write(reference, 1);
  const viable = written < 0;
  const length = viable ? decoder.end() : written;
  return { length, text: length > 0 ? String.fromCodePoint(...emitted) : "", viable };
}

function namedReference(text: string, at: number): ReadReference | undefined {
  NAME.lastIndex = at + 1;
  const name = NAME.exec(text)?.[0];
  if (name === undefined) return undefined;
  const written = name.slice(0, LONGEST_NAME);
  const semicolon = written === name && text[at + 1 + name.length] === ";";
  const source = `&${written}${semicolon ? ";" : ""}`;
  const exact = readName(source);
  if (exact.length === source.length) return { text: exact.text, length: exact.length };
  const ascii = written.replace(/[^0-9A-Za-z]/g, (char) => ASCII_OF[char]!);
  const caseless = caselessReference(ascii, semicolon);
  if (caseless !== undefined) {
    // Its length counts the ASCII letters; the text may spell them with more units ("i̇").
    const withSemicolon = caseless.length === ascii.length + 2;
    const letters = caseless.length - 1 - (withSemicolon ? 1 : 0);
    const length = 1 + writtenLength(written, letters) + (withSemicolon ? 1 : 0);
    return { text: caseless.text, length };
  }
  return exact.length > 0 ? { text: exact.text, length: exact.length } : undefined;
}

/** How many units of `written` spell its first `letters` ASCII letters (with the marks after them). */
function writtenLength(written: string, letters: number): number {
  let spelled = 0;
  let index = 0;
  while (index < written.length) {
    const char = written[index]!;
    const ascii = /[0-9A-Za-z]/.test(char) ? char : ASCII_OF[char]!;
    if (spelled === letters && ascii !== "") break;
    spelled += ascii.length;
    index++;
  }
  return index;
}

const caselessCache = new Map<string, ReadReference | null>();
const CASELESS_CACHE_SIZE = 4096;

/**
 * The reference a name spells in another case: the whole name (with its `;` when written), else
 * its longest beginning that is a legacy name. Names are tried lower case first.
 */
function caselessReference(name: string, semicolon: boolean): ReadReference | undefined {
  const key = `${semicolon ? ";" : ""}${name}`;
  const cached = caselessCache.get(key);
  if (cached !== undefined) return cached ?? undefined;
  let legacy: ReadReference | undefined;
  const search = (prefix: string): ReadReference | undefined => {
    const depth = prefix.length;
    const reference = `&${prefix}`;
    if (depth > 0) {
      const read = readName(reference);
      if (read.length === reference.length && (legacy === undefined || legacy.length < read.length))
        legacy = { text: read.text, length: read.length };
    }
    if (depth === name.length) {
      if (!semicolon) return undefined;
      const whole = readName(`${reference};`);
      return whole.length === depth + 2 ? { text: whole.text, length: whole.length } : undefined;
    }
    const char = name[depth]!;
    for (const variant of new Set([char.toLowerCase(), char.toUpperCase()])) {
      if (!readName(reference + variant).viable) continue;
      const found = search(prefix + variant);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const found = search("") ?? legacy;
  if (caselessCache.size >= CASELESS_CACHE_SIZE) caselessCache.clear();
  caselessCache.set(key, found ?? null);
  return found;
}
