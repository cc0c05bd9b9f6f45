/**
 * The forms in which a platform can echo back a text it was sent, undone: percent-encoding (either
 * hex case, UTF-8 or single bytes, a form's `+` for a space), JSON and JavaScript escapes (`\"`,
 * `\uXXXX`, `\u{…}`, `\xHH`) and HTML character references (`&amp;`, `&#233;`, `&#xE9;`), in any
 * mix and nested (percent-encoded twice, a JSON text percent-encoded). Case and compatibility
 * forms are folded away by `foldCase`. Redaction searches secrets in every layer of decoding and
 * maps what it finds back to the characters of the original text.
 */

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

/**
 * A code point with case and compatibility forms folded: NFKD (so "é" and "e\u0301" agree, and
 * "ﬁ" is "fi"), then upper and lower case in turn, so "ß", "SS" and "ss" agree, as do "σ", "ς"
 * and "Σ". Folded alike on both sides, a text and a secret compare without regard to case.
 */
export function foldCodePoint(codePoint: string): string {
  const code = codePoint.charCodeAt(0);
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : codePoint;
  let folded = foldedCodePoints.get(codePoint);
  if (folded === undefined) {
    folded = codePoint.normalize("NFKD").toUpperCase().toLowerCase();
    foldedCodePoints.set(codePoint, folded);
  }
  return folded;
}

const foldedCodePoints = new Map<string, string>();

/** A text folded code point by code point. */
export function foldCase(text: string): string {
  let folded = "";
  for (const codePoint of text) folded += foldCodePoint(codePoint);
  return folded;
}

/**
 * A layer folded for searching: the folded text, and for each of its UTF-16 units the units of
 * the layer it came from (`from` to `to`, exclusive: a whole code point, both halves of a pair).
 */
export interface FoldedLayer {
  readonly text: string;
  readonly from: Int32Array;
  readonly to: Int32Array;
}

export function foldLayer(layer: DecodedLayer): FoldedLayer {
  const units: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const text = layer.text;
  for (let index = 0; index < text.length;) {
    const codePoint = String.fromCodePoint(text.codePointAt(index)!);
    const folded = foldCodePoint(codePoint);
    units.push(folded);
    for (let k = 0; k < folded.length; k++) {
      from.push(index);
      to.push(index + codePoint.length);
    }
    index += codePoint.length;
  }
  return { text: units.join(""), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** The span of the original text that units `first` to `last` (inclusive) of a folded layer came from. */
export function originalSpan(
  layer: DecodedLayer,
  folded: FoldedLayer,
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

/** The decodings one layer can apply: each alone, or all at once. */
type Decoding = "percent" | "plus" | "backslash" | "reference";

const decodings: readonly (readonly Decoding[])[] = [
  ["percent"],
  ["plus"],
  ["backslash"],
  ["reference"],
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
        const decoded = decodeOnce(layer, kinds);
        if (decoded === undefined || seen.has(decoded.text)) continue;
        seen.add(decoded.text);
        layers.push(decoded);
        next.push(decoded);
      }
    }
    frontier = next;
  }
  return layers;
}

/** A layer being built; decoding never makes a text longer, so the layer below bounds it. */
class LayerBuilder {
  private readonly units: string[] = [];
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private length = 0;

  constructor(private readonly below: DecodedLayer) {
    this.start = new Int32Array(below.text.length);
    this.end = new Int32Array(below.text.length);
  }

  /** `decoded` stands for the units `from` to `to` (exclusive) of the layer below. */
  push(decoded: string, from: number, to: number): void {
    const below = this.below;
    let start = below.start[from]!;
    let end = below.end[from]!;
    for (let index = from + 1; index < to; index++) {
      start = Math.min(start, below.start[index]!);
      end = Math.max(end, below.end[index]!);
    }
    this.units.push(decoded);
    for (let k = 0; k < decoded.length; k++) {
      this.start[this.length] = start;
      this.end[this.length] = end;
      this.length++;
    }
  }

  build(): DecodedLayer {
    return {
      text: this.units.join(""),
      start: this.start.subarray(0, this.length),
      end: this.end.subarray(0, this.length),
    };
  }
}

/** Whether a text holds anything a decoding would change: a cheap test before building a layer. */
const triggers: Readonly<Record<Decoding, RegExp>> = {
  percent: /%[0-9a-fA-F]{2}/,
  plus: /\+/,
  backslash: /\\./,
  reference: /&#?[0-9a-zA-Z]+;/,
};

const HEX2 = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The named references a web page escapes text with. */
export const namedReferences: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

const singleEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "0": "\0",
};

/** One layer of the given decodings; undefined when they find nothing to decode. */
function decodeOnce(layer: DecodedLayer, kinds: readonly Decoding[]): DecodedLayer | undefined {
  const text = layer.text;
  if (!kinds.some((kind) => triggers[kind].test(text))) return undefined;
  const out = new LayerBuilder(layer);
  let changed = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    const decoded =
      char === "%" && kinds.includes("percent")
        ? percentRun(text, index)
        : char === "\\" && kinds.includes("backslash")
          ? backslashEscape(text, index)
          : char === "&" && kinds.includes("reference")
            ? characterReference(text, index)
            : char === "+" && kinds.includes("plus")
              ? [{ text: " ", length: 1 }]
              : undefined;
    if (decoded === undefined) {
      out.push(char, index, index + 1);
      index++;
      continue;
    }
    changed = true;
    for (const piece of decoded) {
      out.push(piece.text, index, index + piece.length);
      index += piece.length;
    }
  }
  return changed ? out.build() : undefined;
}

interface Piece {
  readonly text: string;
  /** How many units of the layer below it stands for. */
  readonly length: number;
}

/**
 * A run of `%XX` bytes from `at`, as characters: valid UTF-8 sequences as their code points,
 * any other byte as the Latin-1 character of its value.
 */
function percentRun(text: string, at: number): Piece[] | undefined {
  const bytes: number[] = [];
  for (let index = at; text[index] === "%" && HEX2.test(text.slice(index + 1, index + 3));) {
    bytes.push(parseInt(text.slice(index + 1, index + 3), 16));
    index += 3;
  }
  if (bytes.length === 0) return undefined;
  const pieces: Piece[] = [];
  for (let k = 0; k < bytes.length;) {
    const size = utf8SequenceLength(bytes, k);
    if (size > 1) {
      pieces.push({
        text: Buffer.from(bytes.slice(k, k + size)).toString("utf8"),
        length: 3 * size,
      });
      k += size;
    } else {
      pieces.push({ text: String.fromCharCode(bytes[k]!), length: 3 });
      k++;
    }
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

/**
 * A JSON or JavaScript escape at `at`, in either case: an echo upper-cased after escaping writes
 * `\U00E9` and `\T`, which still read as "é" and a tab.
 */
function backslashEscape(text: string, at: number): Piece[] | undefined {
  const next = text[at + 1]?.toLowerCase();
  if (next === undefined) return undefined;
  if (next === "u" && text[at + 2] === "{") {
    const close = text.indexOf("}", at + 3);
    const hex = close < 0 ? "" : text.slice(at + 3, close);
    const value = /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : -1;
    if (value < 0 || value > 0x10ffff) return undefined;
    return [{ text: String.fromCodePoint(value), length: close + 1 - at }];
  }
  if (next === "u") {
    const hex = text.slice(at + 2, at + 6);
    return HEX4.test(hex)
      ? [{ text: String.fromCharCode(parseInt(hex, 16)), length: 6 }]
      : undefined;
  }
  if (next === "x") {
    const hex = text.slice(at + 2, at + 4);
    return HEX2.test(hex)
      ? [{ text: String.fromCharCode(parseInt(hex, 16)), length: 4 }]
      : undefined;
  }
  const single = singleEscapes[next];
  return single === undefined ? undefined : [{ text: single, length: 2 }];
}

function characterReference(text: string, at: number): Piece[] | undefined {
  const match = /^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});/.exec(
    text.slice(at, at + 12),
  );
  if (match === null) return undefined;
  const name = match[1]!;
  let decoded: string | undefined;
  if (name.startsWith("#")) {
    const value =
      name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
    decoded = value <= 0x10ffff ? String.fromCodePoint(value) : undefined;
  } else {
    decoded = namedReferences[name.toLowerCase()];
  }
  return decoded === undefined ? undefined : [{ text: decoded, length: match[0].length }];
}
