/**
 * The echo fault: a platform that refuses a request and quotes it back, as some do in their
 * validation messages. Every piece of the request (the Authorization header, each string value of
 * a JSON body, the raw body) is written back in each of the fault's forms: lower or upper case,
 * percent-encoded (either hex case, or a form's `+` for a space), JSON-escaped (or every
 * non-ASCII character as `\uXXXX`), HTML-escaped, with text around it. The secrets tests point
 * the provider at it to prove that nothing quoted back reaches the user unredacted.
 */
import type { EchoForm, EchoTransform } from "./control-types";

/** Every echo answer starts with this, so a test can tell whether the answer was shown. */
export const ECHO_MARKER = "platform-echo-Q7";

const transforms: Readonly<Record<EchoTransform, (text: string) => string>> = {
  lower: (text) => text.toLowerCase(),
  upper: (text) => text.toUpperCase(),
  percent: (text) => encodeURIComponent(text),
  "percent-lower-hex": (text) =>
    encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
  form: (text) => encodeURIComponent(text).replace(/%20/g, "+"),
  json: (text) => JSON.stringify(text).slice(1, -1),
  "json-ascii": (text) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`),
  html: (text) =>
    text.replace(
      /[&<>"']|[^\x00-\x7f]/gu,
      (char) => `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};`,
    ),
};

/** Every transform an echo fault can apply, in the order above. */
export const echoTransforms = Object.keys(transforms) as [EchoTransform, ...EchoTransform[]];

function quoted(piece: string, form: EchoForm): string {
  return (
    form.before + form.transforms.reduce((text, name) => transforms[name](text), piece) + form.after
  );
}

/** Every string value in a JSON value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The answer's content type and text for a request with this body and Authorization header. */
export function echoAnswer(
  forms: readonly EchoForm[],
  as: "json" | "text",
  body: string,
  authorization: string,
): { contentType: string; text: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  // The short pieces first: a platform's message is often cut, the raw body is the longest.
  const pieces = [authorization, ...stringsOf(parsed), body];
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
