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
 * character as a decimal reference with a long run of leading zeros. The secrets tests point the
 * provider at it to prove that nothing quoted back reaches the user unredacted.
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
};

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
