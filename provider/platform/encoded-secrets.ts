/**
 * A secret's own encodings as bytes, searched for the way secret scanners do: a platform that
 * quotes a request in base64 or as a hex dump (a debug field holding the body, an echoed
 * `Authorization: Basic <base64(user:key)>` header) shows the secret's bytes encoded in place,
 * wherever it sits in what was encoded, however long that is and whatever else it holds.
 *
 * The bytes are the secret as it was sent: its UTF-8 as is, and inside a JSON string (escaped as
 * Node.js writes it, and with every character past ASCII as `\uXXXX` as Python's json writes
 * it). Base64 is case-sensitive, so only these forms are searched for, not the secret's case
 * variants (those are found where a short token is decoded: byte-dumps.ts).
 *
 * - Hex: the bytes as hex without separators, and with a space, `:` or `-` between bytes, compared
 *   without regard to case with the rest of the folded forms (redaction.ts).
 * - Base64: where a secret sits in a longer body, its bytes start at byte 0, 1 or 2 of a group of
 *   3, and the characters that encode them differ for each; at each of the 3 alignments, the
 *   characters that encode the secret's bytes alone (not a bit of a neighbouring byte) are the
 *   same in every body, in the standard and the URL-safe alphabet. A base64 token holding one of
 *   them is blanked whole.
 */
import type { Base64Token } from "./byte-dumps";
import type { Base64Index } from "./secret-memory";

/** The texts a secret's bytes are sent as. */
function sentForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const asciiJson = json.replace(
    /[^\x00-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return [...new Set([secret, json, asciiJson])];
}

const HEX_SEPARATORS = ["", " ", ":", "-"];

/** The secret's bytes as hex dumps, lower case. */
export function hexForms(secret: string): string[] {
  const forms: string[] = [];
  for (const sent of sentForms(secret)) {
    const bytes = Array.from(Buffer.from(sent, "utf8"), (byte) =>
      byte.toString(16).padStart(2, "0"),
    );
    for (const separator of HEX_SEPARATORS) forms.push(bytes.join(separator));
  }
  return forms;
}

/** The base64 characters that encode the secret's bytes alone, at each alignment, in both alphabets. */
export function base64Runs(secret: string): string[] {
  const runs = new Set<string>();
  for (const sent of sentForms(secret)) {
    const bytes = Buffer.from(sent, "utf8");
    for (const shift of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
      // Character k holds bits 6k to 6k+5 of the body; the secret's are bits 8·shift on.
      const first = Math.ceil((8 * shift) / 6);
      const end = Math.floor((8 * (shift + bytes.length)) / 6);
      const run = encoded.slice(first, end);
      runs.add(run);
      runs.add(run.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...runs];
}

/** The runs by their first 4 characters, as one number (every run has 4 characters or more). */
export function base64Index(runs: Iterable<string>): Base64Index {
  const byKey = new Map<number, string[]>();
  for (const run of runs) {
    const key = keyAt(run, 0);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [run]);
    else list.push(run);
  }
  return byKey;
}

/** Four characters of the base64 alphabet (7 bits each) as one number. */
function keyAt(text: string, at: number): number {
  return (
    ((text.charCodeAt(at) * 128 + text.charCodeAt(at + 1)) * 128 + text.charCodeAt(at + 2)) * 128 +
    text.charCodeAt(at + 3)
  );
}

/** Whether `characters` holds one of the indexed runs. */
function holdsRun(characters: string, index: Base64Index): boolean {
  for (let at = 0; at + 4 <= characters.length; at++) {
    const runs = index.get(keyAt(characters, at));
    if (runs === undefined) continue;
    for (const run of runs) if (characters.startsWith(run, at)) return true;
  }
  return false;
}

/** The base64 tokens (of 4 characters or more) that hold one of the indexed runs. */
export function tokensHoldingRuns(
  tokens: readonly Base64Token[],
  index: Base64Index,
): Base64Token[] {
  if (index.size === 0) return [];
  return tokens.filter((token) => holdsRun(token.characters, index));
}

/** Whether `text` holds one of the indexed runs anywhere, line breaks left out (a second opinion). */
export function holdsBase64Run(text: string, index: Base64Index): boolean {
  return index.size > 0 && holdsRun(text.replace(/\r?\n/g, ""), index);
}
