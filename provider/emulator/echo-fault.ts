/**
 * The echo fault: a platform that refuses a request and quotes it back, as some do in their
 * validation messages. Every piece of the request (the Authorization header, each string value of
 * a JSON body, the raw body) is written back in each of the fault's forms, each a chain of the
 * transforms below, with text around it: lower or upper case (also as Turkish, Greek and
 * Lithuanian do it), percent-encoded (either hex case, a form's `+` for a space, JavaScript's
 * `escape()` with its `%uXXXX`), JSON-escaped (or every non-ASCII character as `\uXXXX`), as
 * Python's `ascii()` and the repr of its UTF-8 bytes write it, every byte as an octal escape,
 * HTML-escaped by numeric references, by name as PHP's `htmlentities(…, ENT_QUOTES | ENT_HTML5)`
 * does (`&lowbar;`, `&period;`, `&colon;`), with the legacy names' `;` left off, or every
 * character as a decimal reference with a long run of leading zeros; its UTF-8 in base64
 * (standard, URL-safe without padding, MIME's lines of 76) or as a hex dump (lower case, spaced,
 * upper case with `:`, every byte `\xHH`); quoted-printable, CSS-escaped (`\E9 `), with quotes
 * doubled as SQL and CSV write them, C#'s `\xH…`, and Python's `\N{NAME}` (namereplace). The
 * secrets tests point the provider at it to prove that nothing quoted back reaches the user
 * unredacted.
 */
import { decodeHTML, encodeHTML } from "entities";
import type { EchoForm, EchoTransform } from "./control-types";

/** Every echo answer starts with this, so a test can tell whether the answer was shown. */
export const ECHO_MARKER = "platform-echo-Q7";

const transforms: Readonly<Record<EchoTransform, (text: string) => string>> = {
  lower: (text) => text.toLowerCase(),
  upper: (text) => text.toUpperCase(),
  "upper-tr": (text) => text.toLocaleUpperCase("tr"),
  "lower-tr": (text) => text.toLocaleLowerCase("tr"),
  "upper-el": (text) => text.toLocaleUpperCase("el"),
  "lower-lt": (text) => text.toLocaleLowerCase("lt"),
  percent: (text) => encodeURIComponent(text),
  "percent-lower-hex": (text) =>
    encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
  form: (text) => encodeURIComponent(text).replace(/%20/g, "+"),
  "js-escape": (text) => escape(text),
  json: (text) => JSON.stringify(text).slice(1, -1),
  "json-ascii": (text) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`),
  "python-ascii": pythonAscii,
  "python-bytes": (text) =>
    Array.from(Buffer.from(text, "utf8"), (byte) =>
      byte >= 0x20 && byte < 0x7f ? pythonAscii(String.fromCharCode(byte)) : `\\x${hex2(byte)}`,
    ).join(""),
  octal: (text) =>
    Array.from(Buffer.from(text, "utf8"), (byte) => `\\${byte.toString(8).padStart(3, "0")}`).join(
      "",
    ),
  html: (text) =>
    text.replace(
      /[&<>"']|[^\x00-\x7f]/gu,
      (char) => `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};`,
    ),
  htmlentities,
  "html-legacy-bare": (text) =>
    htmlentities(text).replace(/&([0-9A-Za-z]+);/g, (whole, name: string) =>
      isLegacyName(name) ? `&${name}` : whole,
    ),
  "html-zero-padded": (text) =>
    Array.from(text, (char) => `&#${"0".repeat(24)}${char.codePointAt(0)}`).join("") +
    (text === "" ? "" : ";"),
  base64: (text) => Buffer.from(text, "utf8").toString("base64"),
  base64url: (text) => Buffer.from(text, "utf8").toString("base64url"),
  "base64-mime": (text) =>
    (
      Buffer.from(text, "utf8")
        .toString("base64")
        .match(/.{1,76}/g) ?? []
    ).join("\r\n"),
  hex: (text) => Buffer.from(text, "utf8").toString("hex"),
  "hex-spaced": (text) => hexBytes(text).join(" "),
  "hex-upper-colon": (text) => hexBytes(text).join(":").toUpperCase(),
  "hex-escaped": (text) =>
    hexBytes(text)
      .map((byte) => `\\x${byte}`)
      .join(""),
  "quoted-printable": quotedPrintable,
  css: cssEscaped,
  "sql-quotes": (text) => text.replace(/'/g, "''"),
  "csv-quotes": (text) => text.replace(/"/g, '""'),
  "dotnet-hex": dotnetEscaped,
  "python-namereplace": pythonNamereplace,
};

function hexBytes(text: string): string[] {
  return Array.from(Buffer.from(text, "utf8"), hex2);
}

/** Quoted-printable (RFC 2045) of the UTF-8, lines cut at 76 by soft line breaks (`=` CRLF). */
function quotedPrintable(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  const tokens = Array.from(bytes, (byte, k) =>
    (byte >= 33 && byte <= 126 && byte !== 61) || (byte === 32 && k < bytes.length - 1)
      ? String.fromCharCode(byte)
      : `=${hex2(byte).toUpperCase()}`,
  );
  let line = "";
  let written = "";
  for (const token of tokens) {
    if (line.length + token.length > 75) {
      written += `${line}=\r\n`;
      line = "";
    }
    line += token;
  }
  return written + line;
}

/**
 * CSS-escaped as a string's content (as cssesc writes it): letters, digits, `_`, `-` and space as
 * they are, other ASCII after a backslash, any other character as `\` and its hex code point, with
 * a space after it where a hex digit or white space follows.
 */
function cssEscaped(text: string): string {
  const chars = Array.from(text);
  return chars
    .map((char, k) => {
      const code = char.codePointAt(0)!;
      if (/[A-Za-z0-9_ -]/.test(char)) return char;
      if (code >= 0x21 && code < 0x7f) return `\\${char}`;
      const next = chars[k + 1] ?? "";
      return `\\${code.toString(16).toUpperCase()}${/^[0-9a-fA-F \t\n]/.test(next) ? " " : ""}`;
    })
    .join("");
}

/**
 * A C# string literal's content with `\xH…` escapes (1 to 4 hex digits, as few as the next
 * character allows): printable ASCII as is, quotes and backslashes escaped.
 */
function dotnetEscaped(text: string): string {
  let written = "";
  for (let k = text.length - 1; k >= 0; k--) {
    const char = text[k]!;
    const code = char.charCodeAt(0);
    let piece: string;
    if (char === '"' || char === "\\") piece = `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) piece = char;
    else {
      const hex = code.toString(16);
      piece = `\\x${/^[0-9a-fA-F]/.test(written) ? hex.padStart(4, "0") : hex}`;
    }
    written = piece + written;
  }
  return written;
}

/**
 * Python's `text.encode("ascii", "namereplace")`: ASCII as it is, any other character as
 * `\N{NAME}`, or as `\xHH`, `\uHHHH` or `\UHHHHHHHH` when it has no name (a control, a private
 * use).
 */
function pythonNamereplace(text: string): string {
  const { unicodeBaseName } = unicodeNames();
  return Array.from(text, (char) => {
    const code = char.codePointAt(0)!;
    if (code < 0x80) return char;
    const name = /\p{Cc}/u.test(char) ? undefined : unicodeBaseName(code);
    if (name !== undefined) return `\\N{${name}}`;
    if (code <= 0xff) return `\\x${hex2(code)}`;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
    return `\\U${code.toString(16).padStart(8, "0")}`;
  }).join("");
}

let loadedUnicodeNames: typeof import("unicode-name") | undefined;

/** The unicode-name library, loaded on first use: loading it takes about a second. */
function unicodeNames(): typeof import("unicode-name") {
  loadedUnicodeNames ??= require("unicode-name") as typeof import("unicode-name");
  return loadedUnicodeNames;
}

/** PHP's htmlentities(…, ENT_QUOTES | ENT_HTML5): each character that has a name, by its name. */
function htmlentities(text: string): string {
  return Array.from(text, (char) => {
    const named = encodeHTML(char);
    return named.startsWith("&#") ? char : named;
  }).join("");
}

/** Whether HTML reads `&name` without its `;` (a legacy name: `&amp`, `&eacute`). */
function isLegacyName(name: string): boolean {
  return decodeHTML(`&${name}`) === decodeHTML(`&${name};`);
}

function hex2(value: number): string {
  return value.toString(16).padStart(2, "0");
}

/** Python's ascii() of a str, without its quotes. */
function pythonAscii(text: string): string {
  return Array.from(text, (char) => {
    const code = char.codePointAt(0)!;
    if (char === "\\" || char === "'") return `\\${char}`;
    if (char === "\t") return "\\t";
    if (char === "\n") return "\\n";
    if (char === "\r") return "\\r";
    if (code >= 0x20 && code < 0x7f) return char;
    if (code <= 0xff) return `\\x${hex2(code)}`;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
    return `\\U${code.toString(16).padStart(8, "0")}`;
  }).join("");
}

/** Every transform an echo fault can apply, in the order above. */
export const echoTransforms = Object.keys(transforms) as [EchoTransform, ...EchoTransform[]];

function quoted(piece: string, form: EchoForm): string {
  return (
    form.before + form.transforms.reduce((text, name) => transforms[name](text), piece) + form.after
  );
}

/** Every string value in a JSON value; only those of the named fields, when `fields` is given. */
function stringsOf(value: unknown, fields?: readonly string[], inField = false): string[] {
  const wanted = fields === undefined || inField;
  if (typeof value === "string") return wanted ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => stringsOf(item, fields, inField));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, field]) =>
      stringsOf(field, fields, inField || (fields?.includes(key) ?? false)),
    );
  }
  return [];
}

/**
 * The answer's content type and text for a request with this body and Authorization header:
 * every piece of it, or with `fields` the header and the values of those fields.
 */
export function echoAnswer(
  forms: readonly EchoForm[],
  as: "json" | "text",
  body: string,
  authorization: string,
  fields?: readonly string[],
): { contentType: string; text: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  // The short pieces first: a platform's message is often cut, the raw body is the longest.
  const pieces =
    fields === undefined
      ? [authorization, ...stringsOf(parsed), body]
      : [authorization, ...stringsOf(parsed, fields)];
  const message = `${ECHO_MARKER}: the request was refused: ${forms
    .flatMap((form) => pieces.map((piece) => quoted(piece, form)))
    .join(" | ")}`;
  return as === "json"
    ? {
        contentType: "application/json",
        text: JSON.stringify({ error: { status: 400, code: "echo", message } }),
      }
    : { contentType: "text/plain", text: message };
}
