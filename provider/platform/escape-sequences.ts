/**
 * The escapes of the languages and formats platforms write their messages in, read at a `%` or
 * a `\`, in either case (an echo upper-cased after escaping writes `\U00E9`, `%U00E9` and `\T`):
 * - URLs and forms: `%XX` (UTF-8 or single bytes), and JavaScript's `escape()`, `%uXXXX`;
 * - JSON, JavaScript, Java, C#, Go, Python, Ruby, PHP and C string escapes: `\uXXXX` (Java's
 *   `\uuuXXXX` too), `\u{X…}`, `\UXXXXXXXX`, `\xHH`, octal `\o` to `\ooo`, `\a \b \e \f \n \r \s
 *   \t \v \0`, and a backslash before any other character that is not a letter or an octal digit
 *   (`\"`, `\/`, `\#`, `\$`) as that character.
 *
 * Some escapes read two ways, and each reading is asked for (`Reading`): a run of bytes (`%XX`,
 * `\xHH`, octal) as UTF-8 (valid sequences as their code points, any other byte as the Latin-1
 * character of its value) or one Latin-1 character per byte (what Python's `ascii()` and
 * `escape()` write for U+0080 to U+00FF); `\u` or `\U` before 8 hex digits that name a code
 * point as that code point (Python's `\U0001F600`, also lower-cased) or as a 4-digit `\u` and 4
 * more characters (as JSON, JavaScript and Java read it).
 *
 * Other formats give the same characters other meanings, and are readings of their own:
 * - `css`: CSS escapes, `\` and 1 to 6 hex digits as a code point, one white space after them
 *   consumed (`\E9 `), and a backslash before any other character as that character;
 * - `dotnet`: C#'s `\x` with 1 to 4 hex digits (`\xE9`, `\x00E9`) as a UTF-16 unit, `\0` alone;
 * - quoted-printable (MIME): `=XX` bytes, as UTF-8 or Latin-1, and `=` at the end of a line (a soft
 *   line break) as nothing, read at a `=` (`escapeRun`'s kind `equals`).
 * Python's `\N{NAME}` (unicode-names.ts) is read in every reading but `css`, and alone
 * (`namedCharacterAt`): Python's namereplace writes it without escaping the backslashes around it.
 */
import { characterNamed, couldBeName } from "./unicode-names";

/** How escapes that read two ways are read (see above). */
export type Reading = "utf8" | "latin1" | "four-digit" | "dotnet" | "css";

/**
 * Text read from an escape: what it stands for, and how many units of the source it spans;
 * `stray` when it is a byte past ASCII that is no part of a UTF-8 character (read as Latin-1).
 */
export interface Piece {
  readonly text: string;
  readonly length: number;
  readonly stray?: boolean;
}

const HEX = /^[0-9a-fA-F]+$/;

interface Unit {
  /** A byte (0-255) of a run, or a whole piece, or (`soft`) nothing that keeps a run of bytes going. */
  readonly byte?: number;
  readonly piece?: Piece;
  readonly soft?: boolean;
  readonly length: number;
}

/** The `%` escape at `at`: `%XX` (a byte) or `%uXXXX` (a UTF-16 unit). */
function percentUnit(text: string, at: number): Unit | undefined {
  if (text[at] !== "%") return undefined;
  const next = text[at + 1];
  if (next === "u" || next === "U") {
    const hex = text.slice(at + 2, at + 6);
    if (hex.length === 4 && HEX.test(hex))
      return { piece: { text: String.fromCharCode(parseInt(hex, 16)), length: 6 }, length: 6 };
  }
  const hex = text.slice(at + 1, at + 3);
  return hex.length === 2 && HEX.test(hex) ? { byte: parseInt(hex, 16), length: 3 } : undefined;
}

const singleEscapes: Readonly<Record<string, string>> = {
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

const OCTAL = /[0-7]{1,3}/y;
const JAVA_UNICODE = /[uU]+([0-9a-fA-F]{4})/y;
const BRACED_UNICODE = /[uU]\{([0-9a-fA-F]{1,6})\}/y;
const LONG_UNICODE = /[uU]([0-9a-fA-F]{8})/y;

function whole(text: string, length: number): Unit {
  return { piece: { text, length }, length };
}

function stickyMatch(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** The quoted-printable escape at `at`: `=XX` (a byte), or `=` ending a line (a soft line break). */
function equalsUnit(text: string, at: number): Unit | undefined {
  if (text[at] !== "=") return undefined;
  const lineBreak = stickyMatch(LINE_BREAK, text, at + 1);
  if (lineBreak !== null) return { soft: true, length: lineBreak[0].length + 1 };
  const hex = text.slice(at + 1, at + 3);
  if (hex.length !== 2 || !HEX.test(hex)) return undefined;
  const byte = parseInt(hex, 16);
  return byte >= 0x80 || QUOTED_ASCII.has(byte) ? { byte, length: 3 } : undefined;
}

/**
 * The ASCII bytes quoted-printable escapes (RFC 2045): `=` itself, white space and line breaks.
 * Any other `=XX` is text (`value=41` is not "valueA").
 */
const QUOTED_ASCII: ReadonlySet<number> = new Set([0x3d, 0x20, 0x09, 0x0a, 0x0d]);

const LINE_BREAK = /\r?\n/y;
const CSS_HEX = /([0-9a-fA-F]{1,6})(\r\n|[ \t\n\r\f])?/y;
const CSS_LINE_BREAK = /\r\n|[\n\r\f]/y;
const DOTNET_HEX = /[xX]([0-9a-fA-F]{1,4})/y;
const NAMED = /[nN]\{([^{}]{1,100})\}/y;

/** The CSS escape at `at`: a code point in hex (0, a surrogate or past U+10FFFF is U+FFFD). */
function cssUnit(text: string, at: number): Unit | undefined {
  if (text[at] !== "\\" || at + 1 >= text.length) return undefined;
  const hex = stickyMatch(CSS_HEX, text, at + 1);
  if (hex !== null) {
    const value = parseInt(hex[1]!, 16);
    const valid = value > 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff);
    return whole(valid ? String.fromCodePoint(value) : "\ufffd", hex[0].length + 1);
  }
  // A backslash before a line break continues a string on the next line.
  const lineBreak = stickyMatch(CSS_LINE_BREAK, text, at + 1);
  if (lineBreak !== null) return whole("", lineBreak[0].length + 1);
  const codePoint = String.fromCodePoint(text.codePointAt(at + 1)!);
  return whole(codePoint, codePoint.length + 1);
}

/** Python's `\N{NAME}` at `at` (the name in any case), when the name is a character's. */
export function namedCharacterAt(text: string, at: number): Piece | undefined {
  if (text[at] !== "\\") return undefined;
  const named = stickyMatch(NAMED, text, at + 1);
  if (named === null || !couldBeName(named[1]!)) return undefined;
  const character = characterNamed(named[1]!);
  return character === undefined ? undefined : { text: character, length: named[0].length + 1 };
}

function namedUnit(text: string, at: number): Unit | undefined {
  const piece = namedCharacterAt(text, at);
  return piece === undefined ? undefined : { piece, length: piece.length };
}

/** The backslash escape at `at`. */
function backslashUnit(text: string, at: number, reading: Reading): Unit | undefined {
  if (reading === "css") return cssUnit(text, at);
  if (text[at] !== "\\") return undefined;
  const next = text[at + 1];
  if (next === undefined) return undefined;
  if ((next === "N" || next === "n") && text[at + 2] === "{") {
    const named = namedUnit(text, at);
    if (named !== undefined) return named;
  }
  if (next === "u" || next === "U") return unicodeEscape(text, at, reading);
  if (reading === "dotnet") {
    const hex = stickyMatch(DOTNET_HEX, text, at + 1);
    if (hex !== null) return whole(String.fromCharCode(parseInt(hex[1]!, 16)), hex[0].length + 1);
    if (/[0-9]/.test(next)) return next === "0" ? whole("\0", 2) : undefined;
  }
  if (next === "x" || next === "X") {
    const hex = text.slice(at + 2, at + 4);
    return hex.length === 2 && HEX.test(hex) ? { byte: parseInt(hex, 16), length: 4 } : undefined;
  }
  const octal = stickyMatch(OCTAL, text, at + 1);
  if (octal !== null) {
    // At most \377: a fourth digit, or a value past a byte, is text after the escape.
    let digits = octal[0];
    if (parseInt(digits, 8) > 0xff) digits = digits.slice(0, 2);
    return { byte: parseInt(digits, 8), length: digits.length + 1 };
  }
  const single = singleEscapes[next.toLowerCase()];
  if (single !== undefined) return whole(single, 2);
  if (/[A-Za-z]/.test(next)) return undefined;
  const codePoint = String.fromCodePoint(text.codePointAt(at + 1)!);
  return whole(codePoint, codePoint.length + 1);
}

/** `\u{X…}`, `\UXXXXXXXX` (unless read `four-digit`) or `\uXXXX` (Java's `\uuuXXXX` too) at `at`. */
function unicodeEscape(text: string, at: number, reading: Reading): Unit | undefined {
  const braced = stickyMatch(BRACED_UNICODE, text, at + 1);
  if (braced !== null) {
    const value = parseInt(braced[1]!, 16);
    return value <= 0x10ffff ? whole(String.fromCodePoint(value), braced[0].length + 1) : undefined;
  }
  const long = reading === "four-digit" ? null : stickyMatch(LONG_UNICODE, text, at + 1);
  if (long !== null) {
    const value = parseInt(long[1]!, 16);
    if (value <= 0x10ffff) return whole(String.fromCodePoint(value), 10);
  }
  const java = stickyMatch(JAVA_UNICODE, text, at + 1);
  return java === null
    ? undefined
    : whole(String.fromCharCode(parseInt(java[1]!, 16)), java[0].length + 1);
}

/** Where an escape starts: `%`, `\` or (quoted-printable) `=`. */
export type EscapeKind = "percent" | "backslash" | "equals";

/**
 * The run of escapes of one kind starting at `at` (`%` escapes, backslash escapes or
 * quoted-printable ones), read as pieces; undefined when `at` holds none.
 */
export function escapeRun(
  text: string,
  at: number,
  kind: EscapeKind,
  reading: Reading,
): Piece[] | undefined {
  const read = (index: number) =>
    kind === "percent"
      ? percentUnit(text, index)
      : kind === "equals"
        ? equalsUnit(text, index)
        : backslashUnit(text, index, reading);
  const pieces: Piece[] = [];
  let bytes: number[] = [];
  let byteLengths: number[] = [];
  let bytesAt = at;
  const flushBytes = () => {
    for (const piece of bytePieces(bytes, byteLengths, reading === "latin1")) {
      // Quoted-printable read as UTF-8: a stray byte is text as written (`value=C3:A1`), read
      // as Latin-1 by the `latin1` reading only.
      const asWritten = kind === "equals" && piece.stray === true;
      pieces.push(
        asWritten
          ? { text: text.slice(bytesAt, bytesAt + piece.length), length: piece.length }
          : piece,
      );
      bytesAt += piece.length;
    }
    bytes = [];
    byteLengths = [];
  };
  for (let index = at, unit = read(index); unit !== undefined; unit = read(index)) {
    if (unit.byte !== undefined) {
      bytes.push(unit.byte);
      byteLengths.push(unit.length);
    } else if (unit.soft && bytes.length > 0) {
      // A soft line break inside a character's bytes: the bytes go on after it.
      byteLengths.push(byteLengths.pop()! + unit.length);
    } else if (unit.soft) {
      pieces.push({ text: "", length: unit.length });
      bytesAt += unit.length;
    } else {
      flushBytes();
      pieces.push(unit.piece!);
      bytesAt += unit.length;
    }
    index += unit.length;
  }
  flushBytes();
  return pieces.length === 0 ? undefined : pieces;
}

/** Bytes as text: valid UTF-8 sequences as their code points, any other byte as the Latin-1 character of its value. */
export function bytesAsText(bytes: number[]): string {
  return bytePieces(bytes, new Array<number>(bytes.length).fill(1), false)
    .map((piece) => piece.text)
    .join("");
}

/**
 * A run of bytes as pieces: valid UTF-8 sequences as their code points (unless `asLatin1`), any
 * other byte as the Latin-1 character of its value.
 */
function bytePieces(bytes: number[], lengths: number[], asLatin1: boolean): Piece[] {
  const pieces: Piece[] = [];
  for (let k = 0; k < bytes.length;) {
    const size = asLatin1 ? 1 : utf8SequenceLength(bytes, k);
    const length = lengths.slice(k, k + size).reduce((sum, each) => sum + each, 0);
    const decoded =
      size > 1
        ? Buffer.from(bytes.slice(k, k + size)).toString("utf8")
        : String.fromCharCode(bytes[k]!);
    const stray = size === 1 && bytes[k]! >= 0x80 && !asLatin1;
    pieces.push(stray ? { text: decoded, length, stray } : { text: decoded, length });
    k += size;
  }
  return pieces;
}

/** The length of a valid multi-byte UTF-8 sequence at `k`, else 1. */
function utf8SequenceLength(bytes: readonly number[], k: number): number {
  const lead = bytes[k]!;
  const size = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 1;
  if (size === 1 || lead >= 0xf5) return 1;
  for (let next = 1; next < size; next++) {
    const byte = bytes[k + next];
    if (byte === undefined || (byte & 0xc0) !== 0x80) return 1;
  }
  // Overlong and surrogate forms are not UTF-8.
  const decoded = Buffer.from(bytes.slice(k, k + size)).toString("utf8");
  return decoded.includes("\ufffd") ? 1 : size;
}
