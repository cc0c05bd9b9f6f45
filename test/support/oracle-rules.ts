/**
 * What the kinds' oracles (test/fixtures/kinds) share: the rules they restate from the API spec
 * and the field notes, independently of the provider's zod schemas, and the arbitraries their
 * valid inputs are made of.
 */
import fc from "fast-check";
import { UNKNOWN, isRecord, known } from "./hostile-values";

export type Inputs = Record<string, unknown>;

export function isStrictIpv4(value: string): boolean {
  const parts = value.split(".");
  return (
    parts.length === 4 &&
    parts.every(
      (part) => /^\d{1,3}$/.test(part) && String(Number(part)) === part && Number(part) <= 255,
    )
  );
}

export function isHex24(value: string): boolean {
  return value.length === 24 && [...value].every((c) => "0123456789abcdefABCDEF".includes(c));
}

export function isAbsoluteHttpUrl(value: string): boolean {
  // Scheme, "//" and a host; nothing a URL parser would silently strip or re-encode.
  if (!/^https?:\/\/[^/?#]/i.test(value)) return false;
  return ![...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f);
}

export function isHeaderToken(value: string): boolean {
  return value.length > 0 && [...value].every((c) => /[A-Za-z0-9!#$%&'*+\-.^_`|~]/.test(c));
}

/** Collects the reasons an input is certainly invalid. */
export class Violations {
  readonly found: string[] = [];

  add(reason: string): void {
    this.found.push(reason);
  }

  keys(where: string, value: Record<string, unknown>, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.add(`${where}: unknown key ${JSON.stringify(key.slice(0, 30))}`);
    }
  }

  /** A known value of the wrong kind, or a required value that is missing. */
  type(
    where: string,
    value: unknown,
    kind: "string" | "text" | "boolean" | "number",
    required = false,
  ): void {
    if (value === undefined) {
      if (required) this.add(`${where}: missing`);
      return;
    }
    if (value === UNKNOWN) return;
    const ok =
      kind === "boolean"
        ? typeof value === "boolean"
        : kind === "number"
          ? typeof value === "number" && Number.isFinite(value)
          : typeof value === "string" && (kind === "string" || value !== "");
    if (!ok) this.add(`${where}: not a ${kind}`);
  }

  /** An id sent as a path segment: never one a URL parser resolves away, no control character. */
  pathId(where: string, value: unknown): void {
    if (typeof value !== "string" || value === "") return;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // Not percent-encoded text: taken as written.
    }
    if (decoded === "." || decoded === ".." || /[\u0000-\u001f\u007f]/.test(decoded))
      this.add(`${where}: not safe as a path segment`);
  }

  /**
   * A value sent in an HTTP header (the x-sub-organization-id): what a header carries as
   * written, printable ASCII without a space at either end.
   */
  headerValue(where: string, value: unknown): void {
    if (typeof value !== "string" || value === "" || value === UNKNOWN) return;
    const printable = [...value].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e);
    if (!printable || value.startsWith(" ") || value.endsWith(" "))
      this.add(`${where}: not carried by an HTTP header as written`);
  }

  /** A known list; calls `each` for every known element. */
  list(where: string, value: unknown, each: (item: unknown, at: string) => void): void {
    if (!known(value)) return;
    if (!Array.isArray(value)) {
      this.add(`${where}: not a list`);
      return;
    }
    value.forEach((item, index) => {
      if (known(item)) each(item, `${where}[${index}]`);
    });
  }

  object(where: string, value: unknown, body: (value: Record<string, unknown>) => void): void {
    if (!known(value)) return;
    if (!isRecord(value)) this.add(`${where}: not an object`);
    else body(value);
  }
}

// ---------------------------------------------------------------------------------------------
// What valid inputs are made of.

export const text = fc.string({ unit: "binary", minLength: 1, maxLength: 20 });
/** An id the API can take as a path segment: not "." or "..", no control character. */
export const pathIdText = text.filter((value) => {
  const violations = new Violations();
  violations.pathId("id", value);
  return violations.found.length === 0;
});
export const anyString = fc.string({ unit: "binary", maxLength: 20 });
/** A sub-organization id a header carries as written. */
export const headerText = fc.stringMatching(/^[!-~]([ -~]{0,18}[!-~])?$/);
const byte = fc.integer({ min: 0, max: 255 });
export const ipv4 = fc.tuple(byte, byte, byte, byte).map((parts) => parts.join("."));
export const hostname = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?(\.[a-z]{2,6}){1,2}$/);
export const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
