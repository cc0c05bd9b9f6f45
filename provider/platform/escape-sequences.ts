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
 */

/** How escapes that read two ways are read (see above). */
export type Reading = "utf8" | "latin1" | "four-digit";

/** Text read from an escape: what it stands for, and how many units of the source it spans. */
export interface Piece {
  readonly text: string;
  readonly length: number;
}

const HEX = /^[0-9a-fA-F]+$/;

interface Unit {
  /** A byte (0-255) of a run, or a whole piece. */
  readonly byte?: number;
  readonly piece?: Piece;
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

/** The backslash escape at `at`. */
function backslashUnit(text: string, at: number, reading: Reading): Unit | undefined {
  if (text[at] !== "\\") return undefined;
  const next = text[at + 1];
  if (next === undefined) return undefined;
  if (next === "u" || next === "U") return unicodeEscape(text, at, reading);
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

/**
 * The run of escapes of one kind starting at `at` (`%` escapes or backslash escapes), read as
 * pieces; undefined when `at` holds none.
 */
export function escapeRun(
  text: string,
  at: number,
  kind: "percent" | "backslash",
  reading: Reading,
): Piece[] | undefined {
  const read = (index: number) =>
    kind === "percent" ? percentUnit(text, index) : backslashUnit(text, index, reading);
  const pieces: Piece[] = [];
  let bytes: number[] = [];
  let byteLengths: number[] = [];
  const flushBytes = () => {
    pieces.push(...bytePieces(bytes, byteLengths, reading === "latin1"));
    bytes = [];
    byteLengths = [];
  };
  for (let index = at, unit = read(index); unit !== undefined; unit = read(index)) {
    if (unit.byte !== undefined) {
      bytes.push(unit.byte);
      byteLengths.push(unit.length);
    } else {
      flushBytes();
      pieces.push(unit.piece!);
    }
    index += unit.length;
  }
  flushBytes();
  return pieces.length === 0 ? undefined : pieces;
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
    pieces.push({ text: decoded, length });
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
