/**
 * Named fault profiles: a few fault rules each, for the failures a team wants its programs tested
 * against without writing rules (`--faults <name>`, `startEmulator({ faults })`, `setFaults`).
 * Each says what it shows; docs/testing-your-stacks.md lists them.
 */
import type { EchoForm, FaultAction, FaultRule } from "./control-types";
import { EmulatorError } from "./errors";
import { faultRuleSchema } from "./faults";
import { parseWireBody } from "./wire-validation";

/** The four operations of api-spec.md, as fault rules match them (both origins). */
const OPERATIONS = [
  { method: "POST", path: "/voices/voice-clone" },
  { method: "PUT", path: "/voices/*" },
  { method: "POST", path: "/organization/sip" },
  { method: "POST", path: "/campaigns/*/webhook/subscribe" },
] as const;

const CREATES = OPERATIONS.filter((operation) => operation.method === "POST");

/** How long the latency profile holds each request. */
export const PROFILE_LATENCY_MS = 1000;
/** The Retry-After the rate-limited profile answers with, in seconds. */
export const PROFILE_RETRY_AFTER_SECONDS = 1;

/** The quoting forms of the echo profile: as sent, and as platforms escape what they quote. */
const ECHO_FORMS: EchoForm[] = [
  { transforms: [], before: "", after: "" },
  { transforms: ["lower"], before: "", after: "" },
  { transforms: ["upper"], before: "", after: "" },
  { transforms: ["percent"], before: "", after: "" },
  { transforms: ["json"], before: "", after: "" },
  { transforms: ["html"], before: "", after: "" },
];

export interface FaultProfile {
  /** What the profile does. */
  readonly does: string;
  /** What a `pulumi up` against it shows about the provider. */
  readonly shows: string;
  readonly rules: readonly FaultRule[];
}

function onEach(
  operations: readonly { method: string; path: string }[],
  action: FaultAction,
  times?: number,
): FaultRule[] {
  return operations.map(({ method, path }) => ({
    method,
    path,
    ...(times === undefined ? {} : { times }),
    action,
  }));
}

export const faultProfiles = {
  latency: {
    does: `Every request of every operation waits ${PROFILE_LATENCY_MS} ms before it is processed.`,
    shows:
      "A slow platform: the provider's calls run side by side (maxConcurrency) within their " +
      "deadline (timeoutSeconds); every object is still created once.",
    rules: onEach(OPERATIONS, { kind: "latency", ms: PROFILE_LATENCY_MS }),
  },
  "rate-limited": {
    does:
      "The first request of each operation is answered 429 with " +
      `Retry-After: ${PROFILE_RETRY_AFTER_SECONDS}, before it is processed (nothing stored).`,
    shows:
      "The provider waits what Retry-After asks and sends the request again: the log shows a 429 " +
      "then the success, and the platform holds each object once.",
    rules: onEach(
      OPERATIONS,
      { kind: "status", status: 429, retryAfterSeconds: PROFILE_RETRY_AFTER_SECONDS },
      1,
    ),
  },
  "server-errors": {
    does: "The first request of each operation is answered 500, before it is processed (nothing stored).",
    shows:
      "An update is sent again until it succeeds. A create is not: the API has no idempotency key, " +
      "so a create answered 500 may have been processed, and the provider fails that resource " +
      "saying the object may exist rather than risk a second one. Here it does not exist (the " +
      "state shows nothing), and the next `pulumi up` creates it once.",
    rules: onEach(OPERATIONS, { kind: "status", status: 500 }, 1),
  },
  "lost-answer": {
    does:
      "The first create of each kind is processed and stored, then its connection is cut before " +
      "the answer: the platform did it, the client never heard.",
    shows:
      "The provider never sends that create again (no second object); its error says the object " +
      "may exist and how to adopt it. The request log shows the create without a status and the " +
      "state holds the object, whose id the adoption needs.",
    rules: onEach(CREATES, { kind: "reset-after" }, 1),
  },
  echo: {
    does:
      "Every request of every operation is refused with 400 quoting the request back (the " +
      "Authorization header and each string of the body) as sent, lower- and upper-cased, " +
      "percent-encoded, JSON- and HTML-escaped. Nothing is stored.",
    shows:
      "The provider's errors show the platform's message with every secret (the API key, SIP " +
      "passwords, the advanced webhook's fields) as [redacted], never readable.",
    rules: onEach(OPERATIONS, { kind: "echo", status: 400, forms: ECHO_FORMS }),
  },
} as const satisfies Record<string, FaultProfile>;

export type FaultProfileName = keyof typeof faultProfiles;

export const faultProfileNames = Object.keys(faultProfiles) as FaultProfileName[];

/** A named profile, or fault rules of your own; a list mixes both, applied in order. */
export type FaultsSpec = FaultProfileName | readonly (FaultProfileName | FaultRule)[];

export function isFaultProfileName(name: string): name is FaultProfileName {
  return Object.hasOwn(faultProfiles, name);
}

export function unknownProfileMessage(name: string): string {
  return `No fault profile "${name}"; the profiles are ${faultProfileNames.join(", ")}.`;
}

/** The rules of a profile, fresh (a rule's `times` counts down in the registry). */
export function profileRules(name: FaultProfileName): FaultRule[] {
  return faultProfiles[name].rules.map((rule) => structuredClone(rule) as FaultRule);
}

/**
 * Every rule a faults spec names, profiles expanded in place; an unknown profile or a rule the
 * control surface would refuse is an EmulatorError saying why.
 */
export function rulesOf(faults: FaultsSpec): FaultRule[] {
  const items = typeof faults === "string" ? [faults] : faults;
  return items.flatMap((item): FaultRule[] => {
    if (typeof item !== "string") return [checkedRule(item)];
    if (!isFaultProfileName(item)) throw new EmulatorError(unknownProfileMessage(item));
    return profileRules(item);
  });
}

function checkedRule(rule: unknown): FaultRule {
  try {
    return parseWireBody(faultRuleSchema, rule);
  } catch (error) {
    throw new EmulatorError(`a fault rule cannot be used: ${(error as Error).message}`);
  }
}
