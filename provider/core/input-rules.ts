import { z } from "zod";
import { PATH_SEGMENT_PROBLEMS } from "../platform/path-segment";
import { HEADER_VALUE_PROBLEMS } from "../settings/setting-rules";
import { withStringRule } from "./declared-rules";

/** Field rules shared by the resources' schemas, each with a message that says how to fix it. */

export const text = z.string().min(1, "must not be empty: remove it or give a value");

/** An id the API puts in a request's path: nothing that would change the address. */
export const pathId = withStringRule(text, {
  rule: "pathSegment",
  messages: PATH_SEGMENT_PROBLEMS,
});

/**
 * A sub-organization id, which every call sends in the x-sub-organization-id header: refused at
 * check when the header cannot carry it as written.
 */
export const subOrganizationId = withStringRule(text, {
  rule: "headerValue",
  messages: HEADER_VALUE_PROBLEMS,
});

/** z.number() refuses NaN and ±Infinity itself ("must be a finite number"). */
export const finiteNumber = z.number();

export const absoluteUrl = withStringRule(z.string(), {
  rule: "absoluteUrl",
  message: "must be an absolute http(s) URL such as https://hooks.example.com/calls",
  notCarried:
    "a host name only the URL parser's IDNA tables refuse (a character IDNA disallows, an xn-- label whose punycode decodes to one, a zero-width non-joiner out of place): the Python check has no IDNA tables",
});

/** A locale in the form the spec gives, language-REGION (en-US); case is fixed by normalization. */
export const localeCode = z
  .string()
  .regex(
    /^[A-Za-z]{2,3}-([A-Za-z]{2}|\d{3})$/,
    "must be a locale code in the form language-REGION, e.g. en-US",
  );

export function normalizeLocale(code: string): string {
  const [language = "", region = ""] = code.split("-");
  return `${language.toLowerCase()}-${region.toUpperCase()}`;
}

/** A literal IPv4 address, dotted decimal. */
export const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export const ipv4Address = z
  .string()
  .regex(IPV4, "must be a literal IPv4 address such as 203.0.113.10");

/** A hostname or IPv4 address: what an outbound-only SIP gateway may use. */
export const hostOrIpv4 = z
  .string()
  .regex(
    /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
    "must be a hostname or an IPv4 address such as sip.example.com or 203.0.113.10",
  );

/** RFC 7230 token: what an HTTP header name may be. */
export const headerName = z
  .string()
  .regex(
    /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/,
    "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)",
  );

/** Header values may not contain CR, LF or NUL: they would split or end the outgoing request. */
export const headerValue = z
  .string()
  .regex(/^[^\r\n\0]*$/, "must not contain line breaks or NUL characters");

/**
 * A phone number as E.164 writes it, the leading plus optional: 7 to 15 digits, the first not 0.
 * Advice in the carrier's check, a rule of the policy pack (provider/policy).
 */
export const E164 = /^\+?[1-9]\d{6,14}$/;

export const e164Number = z.string().regex(E164, "must be an E.164 number such as +14155550100");

export const objectId = z
  .string()
  .regex(/^[0-9a-fA-F]{24}$/, "must be a campaign ObjectId: 24 hexadecimal characters");
