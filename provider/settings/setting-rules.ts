/**
 * What a setting that reaches the network may be, for both front ends: the dynamic resources
 * read settings through config.ts, the plugin checks its provider inputs through
 * provider-config.ts, and both ask these functions. Each answers a problem that says how to fix
 * it, or undefined.
 */

/** Bounds of the counts: a deadline or a retry count without one can stall an update for hours. */
export const settingBounds = {
  timeoutSeconds: { min: 1, max: 600, whole: false },
  maxRetries: { min: 0, max: 10, whole: true },
  maxConcurrency: { min: 1, max: 256, whole: true },
} as const;

export type CountSetting = keyof typeof settingBounds;

export function countRule(name: CountSetting): string {
  const { min, max, whole } = settingBounds[name];
  return `must be a ${whole ? "whole number" : "number"} from ${min} to ${max}`;
}

export function countProblem(name: CountSetting, value: number): string | undefined {
  const { min, max, whole } = settingBounds[name];
  const fits = Number.isFinite(value) && value >= min && value <= max;
  return fits && (!whole || Number.isInteger(value)) ? undefined : countRule(name);
}

/**
 * The one parse of an http(s) address that the checks of addresses start from (the API's base
 * URLs here, webhook targets in core/input-rules): the URL, or undefined for anything else.
 */
export function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A base URL of the platform's API: https, or plain http to a loopback address (an emulator on
 * this machine); no user info (the key travels in its own header), no query or fragment (paths
 * are appended to it).
 */
export function baseUrlProblem(value: string): string | undefined {
  const url = parseHttpUrl(value);
  if (url === undefined) return "must be an absolute https URL such as https://api.example.com";
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.test(url.hostname)) {
    return "must use https: plain http is accepted only for a loopback address (localhost, 127.0.0.1, [::1])";
  }
  if (url.username !== "" || url.password !== "") {
    return "must not hold a user name or password: give the key through apiKey";
  }
  if (url.search !== "" || value.includes("?")) {
    return "must not hold a query: give the address only, e.g. https://api.example.com";
  }
  if (url.hash !== "" || value.includes("#")) {
    return "must not hold a fragment: give the address only, e.g. https://api.example.com";
  }
  return undefined;
}

/** Header-bound text: a control character would split or corrupt the request it is sent in. */
export function controlCharacterProblem(value: string): string | undefined {
  return /[\u0000-\u001f\u007f]/.test(value) ? HEADER_VALUE_PROBLEMS.control : undefined;
}

/** What headerValueProblem answers, by problem (the Python mocks give the same words). */
export const HEADER_VALUE_PROBLEMS = {
  edgeWhiteSpace:
    "must not start or end with white space (a space, tab or line break): remove it; the value is sent in an HTTP header, which drops it, so it is never trimmed for you",
  control: "must not contain control characters such as line breaks or tabs",
  notAscii:
    "must hold only printable ASCII characters (letters, digits, punctuation and spaces): it is sent in an HTTP header, which carries no other characters as written",
} as const;

/**
 * A value sent as a header (the key, a sub-organization id): what an HTTP header carries as
 * written. The HTTP client refuses line breaks and other control characters when the request is
 * made, sends characters past U+00FF mangled or not at all, and the receiver drops spaces at
 * either end; so each is refused here, before anything is sent.
 */
export function headerValueProblem(value: string): string | undefined {
  // First: a line break pasted after a key is white space at its end, and is said so.
  if (value !== value.trim()) return HEADER_VALUE_PROBLEMS.edgeWhiteSpace;
  const control = controlCharacterProblem(value);
  if (control !== undefined) return control;
  if (/[^\u0020-\u007e]/.test(value)) return HEADER_VALUE_PROBLEMS.notAscii;
  return undefined;
}

/** The scheme written before the key: one word, as HTTP's auth-scheme token is. */
export function authSchemeProblem(value: string): string | undefined {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)
    ? undefined
    : "must be one word such as Bearer (letters, digits and !#$%&'*+-.^_`|~ only)";
}
