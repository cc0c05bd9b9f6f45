/**
 * Texts compared without regard to case, as Unicode case folding does and without a locale, so no
 * case variant of a secret hides it: each code point in compatibility form (NFKD: "é" and
 * "e\u0301" agree, "ﬁ" is "fi", the Kelvin sign is "K", "ſ" is "s"), upper- and lower-cased until
 * that changes nothing ("ß", "ẞ", "SS" and "ss" agree, as do "σ", "ς" and "Σ", and "ı", "I" and
 * "i"), and what locales add or remove when they change case dropped: the dot above an i or j
 * (Turkish "İ", Lithuanian "i̇"), and the accents of a Greek letter (Greek upper case drops them).
 * A C1 control is read as the Windows-1252 character a browser shows for it (`&#150;` is "–"),
 * and HTML 4's angle brackets as HTML5's (both are `&lang;` and `&rang;`).
 */
import { replaceCodePoint } from "entities/decode";

/** What the marks after a character belong to: an i or j (their dot above), a Greek letter, or else. */
type MarkContext = "dotted" | "greek" | "other";

const COMBINING_DOT_ABOVE = "\u0307";
const MARK = /^\p{M}$/u;
const GREEK = /^\p{Script=Greek}$/u;

/**
 * HTML 4 gave `&lang;` and `&rang;` the angle brackets U+2329 and U+232A (U+3008 and U+3009 in
 * compatibility form); HTML5 gives them U+27E8 and U+27E9. A secret echoed by one reads as the
 * other's, so they fold alike.
 */
const ANGLE_BRACKETS: Readonly<Record<string, string>> = {
  "\u3008": "\u27e8",
  "\u3009": "\u27e9",
};

const mappedCodePoints = new Map<string, string>();

/** A code point in compatibility form, upper- and lower-cased until stable; cached. */
function mapped(codePoint: string): string {
  const known = mappedCodePoints.get(codePoint);
  if (known !== undefined) return known;
  const code = codePoint.codePointAt(0)!;
  const shown =
    code >= 0x80 && code <= 0x9f ? String.fromCodePoint(replaceCodePoint(code)) : codePoint;
  let result = shown.normalize("NFKD");
  for (let round = 0; round < 3; round++) {
    const next: string = result.toUpperCase().toLowerCase().normalize("NFKD");
    if (next === result) break;
    result = next;
  }
  result = result.replace(/[\u3008\u3009]/g, (bracket) => ANGLE_BRACKETS[bracket]!);
  mappedCodePoints.set(codePoint, result);
  return result;
}

/**
 * Folds a text, calling `unit` with each folded piece and the span of the text (UTF-16 units
 * `from` to `to`) it came from: a run of ASCII characters at once (`ascii`: each of its units
 * from one unit of the text), any other code point alone; a dropped mark gives no piece.
 */
function foldEach(
  text: string,
  unit: (piece: string, from: number, to: number, ascii: boolean) => void,
): void {
  let context: MarkContext = "other";
  for (let index = 0; index < text.length;) {
    ASCII_RUN.lastIndex = index;
    const run = ASCII_RUN.exec(text)?.[0];
    if (run !== undefined) {
      const lower = run.toLowerCase();
      const last = lower[lower.length - 1];
      context = last === "i" || last === "j" ? "dotted" : "other";
      unit(lower, index, index + run.length, true);
      index += run.length;
      continue;
    }
    const codePoint = String.fromCodePoint(text.codePointAt(index)!);
    let piece = "";
    for (const part of mapped(codePoint)) {
      if (MARK.test(part)) {
        if (context === "greek" || (context === "dotted" && part === COMBINING_DOT_ABOVE)) continue;
      } else {
        context = part === "i" || part === "j" ? "dotted" : GREEK.test(part) ? "greek" : "other";
      }
      piece += part;
    }
    if (piece !== "") unit(piece, index, index + codePoint.length, false);
    index += codePoint.length;
  }
}

const ASCII_RUN = /[\x00-\x7f]+/y;

/** A text folded, to compare with other folded texts. */
export function foldCase(text: string): string {
  let folded = "";
  foldEach(text, (piece) => (folded += piece));
  return folded;
}

/**
 * A text folded for searching: the folded text, and for each of its UTF-16 units the units of
 * the text it came from (`from` to `to`, exclusive: a whole code point, both halves of a pair).
 */
export interface FoldedText {
  readonly text: string;
  readonly from: Int32Array;
  readonly to: Int32Array;
}

export function foldWithOrigins(text: string): FoldedText {
  const pieces: string[] = [];
  let from = new Int32Array(text.length + 8);
  let to = new Int32Array(text.length + 8);
  let length = 0;
  foldEach(text, (piece, start, end, ascii) => {
    pieces.push(piece);
    if (length + piece.length > from.length) {
      from = grown(from, length + piece.length);
      to = grown(to, length + piece.length);
    }
    for (let k = 0; k < piece.length; k++) {
      from[length] = ascii ? start + k : start;
      to[length] = ascii ? start + k + 1 : end;
      length++;
    }
  });
  return { text: pieces.join(""), from: from.subarray(0, length), to: to.subarray(0, length) };
}

function grown(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(Math.max(needed, array.length * 2));
  larger.set(array);
  return larger;
}
