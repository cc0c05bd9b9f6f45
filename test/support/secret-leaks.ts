/**
 * A leak detector for the secrets tests, written apart from the provider's redaction
 * (provider/platform/redaction.ts) so that the two do not share a blind spot. A text leaks a
 * secret when any normalized view of it holds the secret: the text decoded by every combination
 * of percent-decoding (repeated until stable), a form's `+` as a space, JSON string unescaping
 * and HTML character references, then compared without regard to case (each code point
 * NFKD-normalized, upper-cased, lower-cased, so "ß"/"SS" and "ς"/"Σ" agree).
 */

/** Each code point compared without regard to case or compatibility form. */
export function caseless(text: string): string {
  return Array.from(text, (c) => c.normalize("NFKD").toUpperCase().toLowerCase()).join("");
}

function percentDecodedRuns(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ""), "hex");
    const utf8 = bytes.toString("utf8");
    // Bytes that are no UTF-8 read as Latin-1, one character each.
    return utf8.includes("\ufffd") ? bytes.toString("latin1") : utf8;
  });
}

/** JSON string escapes, in either case (an echo upper-cased after escaping writes `\U00E9`). */
function jsonUnescaped(text: string): string {
  return text.replace(
    /\\(?:[uU]([0-9a-fA-F]{4})|(["\\/bfnrtBFNRT]))/g,
    (_, hex: string | undefined, single: string | undefined) =>
      hex !== undefined
        ? String.fromCharCode(parseInt(hex, 16))
        : (JSON.parse(`"\\${single!.toLowerCase()}"`) as string),
  );
}

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function htmlUnescaped(text: string): string {
  return text.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|(\w+));/g, (whole, dec, hex, name) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec));
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    return named[String(name).toLowerCase()] ?? whole;
  });
}

const decoders = [
  percentDecodedRuns,
  (text: string) => text.replace(/\+/g, " "),
  jsonUnescaped,
  htmlUnescaped,
];

/** Every view of `text` the decoders reach, folded (at most a few hundred). */
export function normalizedViews(text: string): string[] {
  const seen = new Set<string>([text]);
  let frontier = [text];
  for (let depth = 0; depth < 5 && frontier.length > 0 && seen.size < 400; depth++) {
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
  return [...seen].map(caseless);
}

/** The secrets (by name) that some view of `text` holds, each with where it shows. */
export function leaksOf(text: string, secrets: Readonly<Record<string, string>>): string[] {
  const views = normalizedViews(text);
  const found: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    const needle = caseless(secret);
    const view = views.find((candidate) => candidate.includes(needle));
    if (view === undefined) continue;
    const at = view.indexOf(needle);
    found.push(
      `${name} ${JSON.stringify(secret)}: …${view.slice(Math.max(0, at - 60), at + needle.length + 60)}…`,
    );
  }
  return found;
}
