/**
 * The forms in which a platform can echo back a text it was sent, undone, in any mix and nested
 * (percent-encoded twice, a JSON text percent-encoded, HTML escaped then upper-cased): percent-
 * and form encoding and JavaScript's `escape()`, the string escapes of JSON and of the languages
 * platforms are written in (escape-sequences.ts), and HTML character references
 * (html-references.ts). Case and compatibility forms are folded away by case-folding.ts.
 * Redaction searches secrets in every layer of decoding and maps what it finds back to the
 * characters of the original text.
 */
import type { FoldedText } from "./case-folding";
import { escapeRun, type Piece, type Reading } from "./escape-sequences";
import { referenceAt } from "./html-references";

/** Decoding stops this many layers deep: nothing sent is encoded deeper than that. */
const MAX_LAYERS = 6;

/**
 * One layer of decoding: its text, and for each UTF-16 unit of it the span of the original
 * text it came from.
 */
export interface DecodedLayer {
  readonly text: string;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** The span of the original text that units `first` to `last` (inclusive) of a folded layer came from. */
export function originalSpan(
  layer: DecodedLayer,
  folded: FoldedText,
  first: number,
  last: number,
): { start: number; end: number } {
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (let unit = folded.from[first]!; unit < folded.to[last]!; unit++) {
    start = Math.min(start, layer.start[unit]!);
    end = Math.max(end, layer.end[unit]!);
  }
  return { start, end };
}

/** The text itself, as layer 0: each unit its own span. */
export function plainLayer(text: string): DecodedLayer {
  const start = new Int32Array(text.length);
  const end = new Int32Array(text.length);
  for (let index = 0; index < text.length; index++) {
    start[index] = index;
    end[index] = index + 1;
  }
  return { text, start, end };
}

/**
 * The decodings one layer can apply: each alone, or all at once. Where an escape reads two ways
 * (escape-sequences.ts), `percent` and `backslash` read a run of byte escapes as UTF-8 and
 * `\U0001F600` as one code point; `latin1` reads `%` and backslash escapes one Latin-1 character
 * per byte (`\xc3\xa9` is "Ã©", not "é"); `four-digit` reads backslash escapes with `\u` always
 * taking 4 digits (`\u0001abcd` is U+0001 and "abcd" in JSON).
 */
type Decoding = "percent" | "plus" | "backslash" | "reference" | "latin1" | "four-digit";

const decodings: readonly (readonly Decoding[])[] = [
  ["percent"],
  ["plus"],
  ["backslash"],
  ["reference"],
  ["latin1"],
  ["four-digit"],
  ["percent", "plus", "backslash", "reference"],
];

/** Decoding stops after this many distinct layers (a text with every kind of escape, nested). */
const MAX_LAYER_COUNT = 160;

/**
 * Every layer of decoding of `text`, the text itself first: each decoding alone and all at once,
 * applied to every layer found, until none changes anything. The order matters: decoded at once,
 * `%5C%22` and `&#x3C2;` read as `\"` and `ς`, and a further layer would take the backslash for an
 * escape; decoded one after the other, some layer shows `ς\"`.
 */
export function decodedLayers(text: string): DecodedLayer[] {
  const layers = [plainLayer(text)];
  const seen = new Set([text]);
  let frontier = layers.slice();
  for (let depth = 1; depth < MAX_LAYERS && frontier.length > 0; depth++) {
    const next: DecodedLayer[] = [];
    for (const layer of frontier) {
      for (const kinds of decodings) {
        if (layers.length >= MAX_LAYER_COUNT) return layers;
        const edits = editsOf(layer.text, kinds);
        if (edits === undefined) continue;
        const decodedText = applied(layer.text, edits);
        if (seen.has(decodedText)) continue;
        seen.add(decodedText);
        const decoded = layerOf(layer, decodedText, edits);
        layers.push(decoded);
        next.push(decoded);
      }
    }
    frontier = next;
  }
  return layers;
}

/** Whether a text holds anything a decoding would change: a cheap test before building a layer. */
const triggers: Readonly<Record<Decoding, RegExp>> = {
  percent: /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/i,
  plus: /\+/,
  backslash: /\\./s,
  reference: /&[#a-z\u0130\u0131\u017f\u212a]/i,
  // Where reading bytes as Latin-1, or `\u` as 4 digits, differs from the readings above.
  latin1: /%[c-f][0-9a-f]%|\\(?:x[c-f][0-9a-f]\\|3[0-7]{2}\\)/i,
  "four-digit": /\\u[0-9a-f]{8}/i,
};

/** A piece of a layer's text decoded: `length` units from `at` stand for `text`. */
interface Edit {
  readonly at: number;
  readonly length: number;
  readonly text: string;
}

/** What one layer of the given decodings changes in a text; undefined when nothing. */
function editsOf(text: string, kinds: readonly Decoding[]): Edit[] | undefined {
  if (!kinds.some((kind) => triggers[kind].test(text))) return undefined;
  const reading: Reading = kinds.includes("latin1")
    ? "latin1"
    : kinds.includes("four-digit")
      ? "four-digit"
      : "utf8";
  const percent = reading === "latin1" || kinds.includes("percent");
  const backslash = reading !== "utf8" || kinds.includes("backslash");
  const reference = kinds.includes("reference");
  const plus = kinds.includes("plus");
  const special = new RegExp(
    `[${percent ? "%" : ""}${backslash ? "\\\\" : ""}${reference ? "&" : ""}${plus ? "+" : ""}]`,
    "g",
  );
  const edits: Edit[] = [];
  for (let match = special.exec(text); match !== null; match = special.exec(text)) {
    let at = match.index;
    const char = text[at]!;
    const decoded: readonly Piece[] | undefined =
      char === "%"
        ? escapeRun(text, at, "percent", reading)
        : char === "\\"
          ? escapeRun(text, at, "backslash", reading)
          : char === "&"
            ? optional(referenceAt(text, at))
            : [{ text: " ", length: 1 }];
    if (decoded === undefined) continue;
    for (const piece of decoded) {
      edits.push({ at, length: piece.length, text: piece.text });
      at += piece.length;
    }
    special.lastIndex = at;
  }
  return edits.length === 0 ? undefined : edits;
}

function optional(piece: Piece | undefined): Piece[] | undefined {
  return piece === undefined ? undefined : [piece];
}

/** The text with its edits made. */
function applied(text: string, edits: readonly Edit[]): string {
  let result = "";
  let index = 0;
  for (const edit of edits) {
    result += text.slice(index, edit.at) + edit.text;
    index = edit.at + edit.length;
  }
  return result + text.slice(index);
}

/**
 * The layer a text's edits make of the layer below: each unit of an edit's text comes from the
 * span of the original text its units below came from; the other units keep theirs. Decoding
 * never makes a text longer, so the layer below bounds it.
 */
function layerOf(below: DecodedLayer, text: string, edits: readonly Edit[]): DecodedLayer {
  const start = new Int32Array(text.length);
  const end = new Int32Array(text.length);
  let length = 0;
  let index = 0;
  const copy = (to: number) => {
    start.set(below.start.subarray(index, to), length);
    end.set(below.end.subarray(index, to), length);
    length += to - index;
  };
  for (const edit of edits) {
    copy(edit.at);
    let first = below.start[edit.at]!;
    let last = below.end[edit.at]!;
    for (let unit = edit.at + 1; unit < edit.at + edit.length; unit++) {
      first = Math.min(first, below.start[unit]!);
      last = Math.max(last, below.end[unit]!);
    }
    start.fill(first, length, length + edit.text.length);
    end.fill(last, length, length + edit.text.length);
    length += edit.text.length;
    index = edit.at + edit.length;
  }
  copy(below.text.length);
  return { text, start, end };
}
