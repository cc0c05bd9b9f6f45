/**
 * Bytes written as text: base64 tokens and hex dumps, found in a text and read back where they
 * hold text. A platform's debug output may quote a request body, or a header such as
 * `Authorization: Basic <base64(user:key)>`, in either.
 *
 * - A base64 token is a run of the standard and URL-safe alphabets, with or without its `=`
 *   padding, and with the line breaks of MIME (lines of 76) or PEM (lines of 64) inside it.
 * - A hex dump is a run of hex digits in either case, without separators or with a space, two,
 *   `:`, `-`, `,`, `, ` or a line break (trailing spaces too) between groups of whole bytes, each maybe written `0x…`
 *   (`\xHH` is a string escape: escape-sequences.ts).
 *
 * Letters written right against a dump shift where its groups start, so a token is read from
 * each of its first 4 characters, a hex dump from its first and its second digit. Every word of
 * a text is a run of the base64 alphabet, and many are hex, so a reading is kept only where most
 * of its bytes are text (`mostlyText`), for dumps of up to `MAX_READ` characters: redaction.ts
 * searches each reading as a text of its own. Longer dumps, and dumps of bytes that are not
 * text, are still searched for a secret's own encodings (encoded-secrets.ts).
 */
import { bytesAsText } from "./escape-sequences";

/** A base64 token: where it is in the text (padding and line breaks included), and its characters alone. */
export interface Base64Token {
  readonly at: number;
  readonly end: number;
  readonly characters: string;
}

/** A base64 token or hex dump (`[at, end)` in the text) and the texts it reads as. */
export interface ByteDump {
  readonly at: number;
  readonly end: number;
  readonly readings: readonly string[];
}

/** Dumps longer than this (in characters) are not read: too costly for what they would show. */
const MAX_READ = 8192;

/** The fewest characters read as base64: a 4-byte secret is 6 characters without padding. */
const MIN_BASE64 = 6;

/** The fewest hex digits read: 4 bytes. */
const MIN_HEX = 8;

const BASE64_RUN = /[A-Za-z0-9+/_-]+/g;
const BASE64_LINE = /[A-Za-z0-9+/_-]+/y;
const PADDING = /={1,2}/y;
const LINE_BREAK = /\r?\n/y;

/** The widths MIME (76) and PEM (64) wrap base64 lines at. */
const WRAP_WIDTHS: ReadonlySet<number> = new Set([64, 76]);

/**
 * Whether a line of a base64 token this long goes on after a line break: a MIME or PEM line, the
 * first maybe after up to 3 characters written against it.
 */
function wrapped(length: number, first: boolean): boolean {
  if (WRAP_WIDTHS.has(length)) return true;
  return first && [1, 2, 3].some((extra) => WRAP_WIDTHS.has(length - extra));
}

function stickyMatch(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** Every base64 token of `text` with at least `minLength` characters, in order. */
export function base64Tokens(text: string, minLength: number): Base64Token[] {
  const tokens: Base64Token[] = [];
  BASE64_RUN.lastIndex = 0;
  for (let run = BASE64_RUN.exec(text); run !== null; run = BASE64_RUN.exec(text)) {
    const at = run.index;
    let end = at + run[0].length;
    let characters = run[0];
    for (let line = run[0]; wrapped(line.length, line === run[0]);) {
      const lineBreak = stickyMatch(LINE_BREAK, text, end);
      if (lineBreak === null) break;
      const next = stickyMatch(BASE64_LINE, text, end + lineBreak[0].length);
      if (next === null) break;
      line = next[0];
      characters += line;
      end += lineBreak[0].length + line.length;
    }
    end += stickyMatch(PADDING, text, end)?.[0].length ?? 0;
    BASE64_RUN.lastIndex = end;
    if (characters.length >= minLength) tokens.push({ at, end, characters });
  }
  return tokens;
}

/**
 * Whether most of `bytes` is text: 3 in 5 bytes or more belong to text characters, with a run of
 * 4 or more (text is printable ASCII, tab and line breaks, and UTF-8 sequences of characters
 * that are not controls).
 */
export function mostlyText(bytes: Uint8Array): boolean {
  let text = 0;
  let run = 0;
  let longest = 0;
  for (let k = 0; k < bytes.length;) {
    const size = textCharacterSize(bytes, k);
    if (size === 0) {
      k++;
      run = 0;
      continue;
    }
    k += size;
    text += size;
    run += size;
    longest = Math.max(longest, run);
  }
  return longest >= 4 && text * 5 >= bytes.length * 3;
}

/** The length of the text character at `k` (0: not text). */
function textCharacterSize(bytes: Uint8Array, k: number): number {
  const lead = bytes[k]!;
  if (lead < 0x80)
    return (lead >= 0x20 && lead < 0x7f) || lead === 9 || lead === 10 || lead === 13 ? 1 : 0;
  const size = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (size === 0 || lead >= 0xf5 || k + size > bytes.length) return 0;
  let codePoint = lead & (0xff >> (size + 1));
  for (let next = 1; next < size; next++) {
    const byte = bytes[k + next]!;
    if ((byte & 0xc0) !== 0x80) return 0;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  const shortest = size === 2 ? 0x80 : size === 3 ? 0x800 : 0x10000;
  if (codePoint < shortest || codePoint > 0x10ffff) return 0;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 0;
  return codePoint >= 0xa0 ? size : 0;
}

/** The value of each base64 character (both alphabets), -1 for any other. */
const BASE64_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let k = 0; k < 64; k++) values[alphabet.charCodeAt(k)] = k;
  values["-".charCodeAt(0)] = 62;
  values["_".charCodeAt(0)] = 63;
  return values;
})();

/** Base64 characters from `skip` on as bytes (a last lone character is left out). */
function base64Bytes(characters: string, skip: number): Uint8Array {
  const count = characters.length - skip;
  const bytes = new Uint8Array(Math.floor((count * 6) / 8));
  let bits = 0;
  let held = 0;
  let written = 0;
  for (let k = skip; k < characters.length && written < bytes.length; k++) {
    held = ((held << 6) | BASE64_VALUES[characters.charCodeAt(k)]!) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[written++] = (held >> bits) & 0xff;
    }
  }
  return bytes;
}

/** Hex digits from `skip` on as bytes (a last lone digit is left out). */
function hexBytes(digits: string, skip: number): Uint8Array {
  const pairs = Math.floor((digits.length - skip) / 2);
  return Buffer.from(digits.slice(skip, skip + pairs * 2), "hex");
}

/** What each token or dump reads as, by its characters (kept for the next texts: words repeat). */
const base64Readings = new Map<string, readonly string[]>();
const hexReadings = new Map<string, readonly string[]>();
const READING_CACHE_SIZE = 8192;

function readingsOf(
  cache: Map<string, readonly string[]>,
  characters: string,
  readAt: (skip: number) => Uint8Array,
  skips: number,
): readonly string[] {
  const cached = cache.get(characters);
  if (cached !== undefined) return cached;
  const readings: string[] = [];
  for (let skip = 0; skip < skips; skip++) {
    const bytes = readAt(skip);
    if (mostlyText(bytes)) readings.push(bytesAsText([...bytes]));
  }
  if (cache.size >= READING_CACHE_SIZE) cache.clear();
  cache.set(characters, readings);
  return readings;
}

const HEX_SEPARATOR = String.raw`(?:, ?|[ :-]{1,2}|[ \t]*\r?\n)`;
const HEX_GROUP = "(?:0[xX])?(?:[0-9a-fA-F]{2})+";

/**
 * A hex dump: groups of whole bytes with separators between them (a word such as "be" or "e"
 * before it is not taken, letters written against its end are), or 8 digits or more in a run,
 * maybe cut in lines.
 */
const HEX_DUMP = new RegExp(
  `${HEX_GROUP}(?:${HEX_SEPARATOR}${HEX_GROUP}(?![0-9a-fA-F]))+(?:${HEX_SEPARATOR}${HEX_GROUP}[0-9a-fA-F]+)?` +
    String.raw`|[0-9a-fA-F]{8,}(?:\r?\n[0-9a-fA-F]+)*`,
  "g",
);
const NOT_DIGITS = /0[xX](?=[0-9a-fA-F])|[^0-9a-fA-F]/g;

/**
 * The base64 tokens and hex dumps of `text` that read as text, with what they read as; `tokens`
 * are its base64 tokens when already found.
 */
export function byteDumps(
  text: string,
  tokens: readonly Base64Token[] = base64Tokens(text, MIN_BASE64),
): ByteDump[] {
  const dumps: ByteDump[] = [];
  for (const token of tokens) {
    const characters = token.characters;
    if (characters.length < MIN_BASE64 || characters.length > MAX_READ) continue;
    const readings = readingsOf(
      base64Readings,
      characters,
      (skip) => base64Bytes(characters, skip),
      Math.min(4, characters.length - MIN_BASE64 + 1),
    );
    if (readings.length > 0) dumps.push({ at: token.at, end: token.end, readings });
  }
  HEX_DUMP.lastIndex = 0;
  for (let dump = HEX_DUMP.exec(text); dump !== null; dump = HEX_DUMP.exec(text)) {
    if (dump[0].length < MIN_HEX || dump[0].length > MAX_READ) continue;
    const digits = dump[0].replace(NOT_DIGITS, "");
    if (digits.length < MIN_HEX) continue;
    const readings = readingsOf(hexReadings, digits, (skip) => hexBytes(digits, skip), 2);
    if (readings.length > 0)
      dumps.push({ at: dump.index, end: dump.index + dump[0].length, readings });
  }
  return dumps;
}
