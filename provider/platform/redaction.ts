/**
 * Keeps secrets out of everything the provider prints or throws. Every secret the provider
 * handles (the API key, SIP passwords, everything an advanced webhook holds) is remembered here.
 * The provider's own messages never hold a secret value (they name secret inputs, and a check
 * failure shows "[secret]"); what they quote from elsewhere passes through `redactSecrets`: every
 * text the platform sends back (bodies, messages, request ids) and the messages of errors raised
 * by other code (Node.js, undici).
 *
 * The rule, as the README states it:
 * - A secret of `MIN_FINDABLE_LENGTH` (4) characters or more is blanked wherever it appears, in
 *   any case (case-folding.ts) and in any form a platform can echo it in: as is, percent- or
 *   form-encoded, escaped as the string literals of JSON and of the languages platforms are
 *   written in, as HTML character references, and nested mixes of those (echo-decoding.ts;
 *   docs/failures-and-secrets.md lists them). A secret URL is blanked whole and by its path
 *   with its query; its path, query, path segments and query values too when 8 characters or
 *   longer.
 * - Then the result is checked again in every decoded view; if any secret still shows (for
 *   example, the secret is part of the word "[redacted]"), the whole text is withheld.
 * - A shorter secret cannot be told apart from ordinary text, so it is not searched for: the
 *   platform's answer to a call that carried one is never shown (failure-messages), and the provider's
 *   own messages never hold any secret value to begin with.
 */

import { decodeHTML } from "entities";
import { foldCase, foldWithOrigins } from "./case-folding";
import { decodedLayers, originalSpan, type DecodedLayer } from "./echo-decoding";
import { secretMemory, type SecretIndex } from "./secret-memory";

const REDACTED = "[redacted]";

/**
 * Secrets shorter than this (in characters) are not searched for: "ab" or "123" would blank
 * half of any message and still not prove the answer holds no echo of them.
 */
export const MIN_FINDABLE_LENGTH = 4;

/** What a text that still shows a secret after redaction becomes, in order of preference. */
const WITHHELD = [
  "[withheld: this text held a secret in a form that could not be blanked]",
  "[withheld]",
  "",
];

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Whether a secret is long enough to be searched for in a text (4 characters or more). */
export function isFindable(secret: string): boolean {
  return codePoints(secret) >= MIN_FINDABLE_LENGTH;
}

/** Remembers a secret value, in every form it is searched for. */
export function rememberSecret(value: unknown): void {
  if (typeof value !== "string" || value === "") return;
  const state = secretMemory();
  if (state.secrets.has(value)) return;
  state.secrets.add(value);
  for (const form of searchedForms(value)) {
    const folded = foldCase(form);
    if (folded === "" || state.foldedSecrets.has(folded)) continue;
    state.foldedSecrets.add(folded);
    state.index = undefined;
  }
}

/**
 * The texts searched for a secret: the secret, what it reads as once decoded (a secret holding
 * "%41" is also found as "A"), and for a URL the parts the rule names; each of 4 characters or more.
 */
function searchedForms(secret: string): string[] {
  const forms = new Set<string>();
  const add = (text: string, minLength: number) => {
    for (const layer of decodedLayers(text))
      if (codePoints(layer.text) >= minLength) forms.add(layer.text);
  };
  add(secret, MIN_FINDABLE_LENGTH);
  const url = secretUrlParts(secret);
  for (const part of url.whole) add(part, MIN_FINDABLE_LENGTH);
  for (const part of url.pieces) add(part, MIN_URL_PIECE_LENGTH);
  return [...forms];
}

/**
 * Pieces of a secret URL shorter than this are not searched for on their own: `/hook`, `api` or
 * `v1` are words more than secrets, and a token in a URL is longer.
 */
const MIN_URL_PIECE_LENGTH = 8;

/**
 * A secret http(s) URL's path with its query (`whole`), and its path, query, fragment, path
 * segments and query values (`pieces`), as written and as the URL parser normalizes them.
 */
function secretUrlParts(value: string): { whole: string[]; pieces: string[] } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { whole: [], pieces: [] };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { whole: [], pieces: [] };
  const asWritten = value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  const query = url.search.replace(/^\?/, "");
  const whole = [asWritten, asWritten.replace(/#.*$/, ""), `${url.pathname}${url.search}`];
  whole.push(`${url.pathname}${url.search}${url.hash}`);
  const pieces = [url.pathname, query, url.hash.replace(/^#/, ""), ...url.pathname.split("/")];
  for (const pair of query.split("&")) pieces.push(pair, ...pair.split("="));
  const given = (part: string) => part !== "";
  return { whole: whole.filter(given), pieces: pieces.filter(given) };
}

/**
 * The folded secrets by their first four UTF-16 units (all of them when a secret folds shorter:
 * the dot above an i folds away, so "i\u0307i\u0307" is "ii"), for one pass over a text.
 */
function secretIndex(): SecretIndex {
  const state = secretMemory();
  if (state.index === undefined) {
    const byPrefix = new Map<string, string[]>();
    const keyLengths = new Set<number>();
    const firstPairs = new Set<number>();
    for (const folded of state.foldedSecrets) {
      const key = folded.slice(0, MIN_FINDABLE_LENGTH);
      keyLengths.add(key.length);
      if (key.length >= 2) firstPairs.add(pairAt(key, 0));
      const list = byPrefix.get(key);
      if (list === undefined) byPrefix.set(key, [folded]);
      else list.push(folded);
    }
    state.index = { byPrefix, keyLengths: [...keyLengths], firstPairs };
  }
  return state.index;
}

/** The two UTF-16 units at `at` as one number: a cheap test before a key is looked up. */
function pairAt(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1);
}

/** Where remembered secrets occur in a folded text: [first unit, last unit] pairs. */
function occurrences(folded: string, index: SecretIndex): [number, number][] {
  const found: [number, number][] = [];
  for (let at = 0; at < folded.length; at++) {
    const pair = at + 1 < folded.length ? pairAt(folded, at) : -1;
    for (const keyLength of index.keyLengths) {
      if (at + keyLength > folded.length) continue;
      if (keyLength >= 2 && !index.firstPairs.has(pair)) continue;
      const candidates = index.byPrefix.get(folded.slice(at, at + keyLength));
      if (candidates === undefined) continue;
      for (const secret of candidates) {
        if (folded.startsWith(secret, at)) found.push([at, at + secret.length - 1]);
      }
    }
  }
  return found;
}

/** The spans of `text` that hold a remembered secret in any layer of decoding, merged and sorted. */
function secretSpans(text: string, layers: readonly DecodedLayer[]): [number, number][] {
  const index = secretIndex();
  const spans: [number, number][] = [];
  for (const layer of layers) {
    const folded = foldWithOrigins(layer.text);
    for (const [first, last] of occurrences(folded.text, index)) {
      const { start, end } = originalSpan(layer, folded, first, last);
      spans.push([start, end]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

/** `text` with every span replaced by the marker, up to (not including) `upTo`. */
function blanked(text: string, spans: readonly [number, number][], upTo = text.length): string {
  let result = "";
  let at = 0;
  for (const [start, end] of spans) {
    if (start >= upTo) break;
    result += text.slice(at, start) + REDACTED;
    at = end;
  }
  if (at < upTo) result += text.slice(at, upTo);
  return result;
}

/**
 * Whether a remembered secret shows in any view of `text`: every layer of decoding at once,
 * and each decoding alone applied until it changes nothing, all folded.
 */
function showsSecret(text: string): boolean {
  if (secretMemory().foldedSecrets.size === 0) return false;
  const index = secretIndex();
  return viewsOf(text).some((view) => occurrences(foldCase(view), index).length > 0);
}

/**
 * A second opinion on the decoders of echo-decoding.ts, written apart from them: each kind of
 * escape undone all over the text by a regular expression, HTML by the `entities` library.
 */
const singleDecodings: ReadonlyArray<(text: string) => string> = [
  (text) => text.replace(/(%[0-9a-fA-F]{2})+/g, percentDecoded),
  (text) => text.replace(/%u([0-9a-fA-F]{4})/gi, (_, hex: string) => unit(hex)),
  (text) => text.replace(/\+/g, " "),
  (text) => text.replace(BACKSLASH_ESCAPE, unescaped),
  (text) => decodeHTML(text),
  (text) => decodeHTML(text.replace(/&[0-9a-zA-Z]+;?/g, (name) => name.toLowerCase())),
];

function viewsOf(text: string): string[] {
  const views = new Set(decodedLayers(text).map((layer) => layer.text));
  for (const decode of singleDecodings) {
    let view = text;
    for (let round = 0; round < 6; round++) {
      const next = decode(view);
      if (next === view) break;
      views.add((view = next));
    }
  }
  let chained = text;
  for (let round = 0; round < 6; round++) {
    const next = singleDecodings.reduce((view, decode) => decode(view), chained);
    if (next === chained) break;
    views.add((chained = next));
  }
  return [...views];
}

function percentDecoded(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => unit(hex));
  }
}

function unit(hex: string): string {
  return String.fromCharCode(parseInt(hex, 16));
}

const BACKSLASH_ESCAPE =
  /\\(u\{[0-9a-f]{1,6}\}|U[0-9a-f]{8}|u+[0-9a-f]{4}|x[0-9a-f]{2}|[0-7]{1,3}|[abefnrstv]|[^a-z0-7])/gi;

const escapes: Readonly<Record<string, string>> = {
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

function unescaped(whole: string, written: string): string {
  const first = written[0]!;
  if (/^u\{/i.test(written)) {
    const value = parseInt(written.slice(2, -1), 16);
    return value <= 0x10ffff ? String.fromCodePoint(value) : whole;
  }
  if (/^U[0-9a-fA-F]{8}$/.test(written)) {
    const value = parseInt(written.slice(1), 16);
    if (value <= 0x10ffff) return String.fromCodePoint(value);
  }
  if (/^[ux]/i.test(written)) {
    const hex = written.replace(/^[ux]+/i, "");
    return unit(hex.slice(0, 4)) + hex.slice(4);
  }
  if (/^[0-7]/.test(written)) {
    const digits = parseInt(written, 8) > 0xff ? written.slice(0, 2) : written;
    return String.fromCharCode(parseInt(digits, 8)) + written.slice(digits.length);
  }
  return escapes[first.toLowerCase()] ?? written;
}

/** The text, or what stands in for it when a secret still shows in it. */
function verified(text: string): string {
  if (!showsSecret(text)) return text;
  return WITHHELD.find((stand) => !showsSecret(stand)) ?? "";
}

/** `text` with every remembered secret blanked in every form; withheld if one still shows. */
export function redactSecrets(text: string): string {
  if (text === "" || secretMemory().foldedSecrets.size === 0) return text;
  const spans = secretSpans(text, decodedLayers(text));
  return verified(blanked(text, spans));
}

/**
 * At most about `limit` characters of `text`, redacted, with "… (truncated)" when it was cut.
 * Only what lies wholly before the cut is kept, so no secret is ever cut in two there.
 */
export function redactedPrefix(text: string, limit: number): string {
  if (text.length <= limit) return redactSecrets(text);
  let longest = 0;
  for (const folded of secretMemory().foldedSecrets) longest = Math.max(longest, folded.length);
  const window = text.slice(0, windowEnd(text, limit, TOKENS_PER_UNIT * longest));
  const spans =
    secretMemory().foldedSecrets.size === 0 ? [] : secretSpans(window, decodedLayers(window));
  const kept = blanked(window, spans, limit);
  return verified(`${kept}… (truncated)`);
}

/**
 * An encoded secret spans at most this many characters or escapes per unit of it (4 bytes of
 * UTF-8, each percent-encoded 6 times over); an occurrence cut off further than that after the
 * cut lies wholly after it, and is dropped.
 */
const TOKENS_PER_UNIT = 64;

/** One character, or one escape however long (`&#00…0095;` has any number of zeros). */
const TOKEN =
  /&#[xX]?0*[0-9a-fA-F]*;?|&[0-9A-Za-z]{1,32};?|%[uU][0-9a-fA-F]{4}|%[0-9a-fA-F]{2}|\\(?:[uU]\{[0-9a-fA-F]*\}|U[0-9a-fA-F]{8}|[uU]+[0-9a-fA-F]{4}|[xX][0-9a-fA-F]{2}|[0-7]{1,3}|[\s\S])|[\s\S]/y;

/** Where the text ends `tokens` characters or escapes after `from`. */
function windowEnd(text: string, from: number, tokens: number): number {
  TOKEN.lastIndex = from;
  for (let count = 0; count < tokens && TOKEN.lastIndex < text.length; count++) {
    if (TOKEN.exec(text) === null) break;
  }
  return Math.max(from, TOKEN.lastIndex);
}

/** Field names secret in any body whatever the resource: the API key, a password. */
const alwaysSecretFields = ["apiKey", "password"];

/**
 * Remembers wire fields whose values are secret (a resource's `secretWireFields`): a name is
 * secret wherever it appears in a body, `list[].field` in every item of such a list.
 */
export function rememberSecretWireFields(paths: readonly string[]): void {
  for (const path of paths) secretMemory().secretWireFields.add(path);
}

/**
 * A copy of a parsed JSON body with the values of secret wire fields blanked, and every
 * remembered secret in the rest redacted.
 */
export function redactBody(value: unknown): unknown {
  const fields = new Set(alwaysSecretFields);
  const inLists = new Map<string, string>();
  for (const path of secretMemory().secretWireFields) {
    const [list, field] = path.split("[].");
    if (field === undefined) fields.add(path);
    else inLists.set(list!, field);
  }
  const walk = (node: unknown, secretInItems?: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, secretInItems));
    if (node === null || typeof node !== "object") {
      return typeof node === "string" ? redactSecrets(node) : node;
    }
    // Keys are redacted too (a platform may key its complaints by the value it refused), and
    // fromEntries keeps a `__proto__` key an own key instead of setting the prototype.
    return Object.fromEntries(
      Object.entries(node).map(([key, field]) => [
        redactSecrets(key),
        fields.has(key) || key === secretInItems ? REDACTED : walk(field, inLists.get(key)),
      ]),
    );
  };
  return walk(value);
}
