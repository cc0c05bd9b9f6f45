/**
 * The fault matrix: every platform operation the provider calls, under every fault the emulator
 * can inject, with the one behaviour expected of the provider in each cell. `fault-matrix.test.ts`
 * runs each cell against the emulator; `fault-matrix.md` is rendered from this table (the test
 * fails when the two drift apart).
 */
import type { FaultAction } from "../../provider/emulator";

export const operationKeys = ["clone", "cloneFollowUp", "update", "carrier", "subscribe"] as const;
export type OperationKey = (typeof operationKeys)[number];

export interface OperationSpec {
  readonly label: string;
  /** The route the fault is put on. */
  readonly method: "POST" | "PUT";
  readonly path: string;
  /** What the emulator holds: "voices", "carriers" or "subscriptions". */
  readonly objects: "voices" | "carriers" | "subscriptions";
}

export const operations: Record<OperationKey, OperationSpec> = {
  clone: {
    label: "clone voice<br>`POST /voices/voice-clone`",
    method: "POST",
    path: "/voices/voice-clone",
    objects: "voices",
  },
  cloneFollowUp: {
    label: "clone + isMultilingual<br>fault on the follow-up `PUT /voices/{id}`",
    method: "PUT",
    path: "/voices/*",
    objects: "voices",
  },
  update: {
    label: "update voice<br>`PUT /voices/{id}`",
    method: "PUT",
    path: "/voices/*",
    objects: "voices",
  },
  carrier: {
    label: "create SIP carrier<br>`POST /organization/sip`",
    method: "POST",
    path: "/organization/sip",
    objects: "carriers",
  },
  subscribe: {
    label: "subscribe webhook<br>`POST /campaigns/{id}/webhook/subscribe`",
    method: "POST",
    path: "/campaigns/*/webhook/subscribe",
    objects: "subscriptions",
  },
};

export const faultKeys = [
  "429-retry-after",
  "429",
  "500",
  "502",
  "503",
  "503-retry-after",
  "504",
  "latency",
  "reset-before",
  "reset-after",
  "malformed-json",
  "empty-clone",
  "data-false",
  "500-always",
] as const;
export type FaultKey = (typeof faultKeys)[number];

export interface FaultSpec {
  readonly label: string;
  readonly action: FaultAction;
  /** Every attempt is hit (no `times`); all other faults hit only the first attempt. */
  readonly persistent?: boolean;
  /** Stack config for the cell, without namespace. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The deadline in latency cells: `voiceplatform:timeoutSeconds` 1 (a clone adds 1 s per MB started). */
export const LATENCY_MS = 3500;

export const faults: Record<FaultKey, FaultSpec> = {
  "429-retry-after": {
    label: "429, Retry-After: 1",
    action: { kind: "status", status: 429, retryAfterSeconds: 1 },
  },
  "429": { label: "429, no Retry-After", action: { kind: "status", status: 429 } },
  "500": { label: "500", action: { kind: "status", status: 500 } },
  "502": { label: "502", action: { kind: "status", status: 502 } },
  "503": { label: "503, no Retry-After", action: { kind: "status", status: 503 } },
  "503-retry-after": {
    label: "503, Retry-After: 1",
    action: { kind: "status", status: 503, retryAfterSeconds: 1 },
  },
  "504": { label: "504", action: { kind: "status", status: 504 } },
  latency: {
    label: `latency ${LATENCY_MS} ms, timeoutSeconds 1`,
    action: { kind: "latency", ms: LATENCY_MS },
    settings: { timeoutSeconds: "1" },
  },
  "reset-before": { label: "connection reset before processing", action: { kind: "reset-before" } },
  "reset-after": { label: "processed, then connection reset", action: { kind: "reset-after" } },
  "malformed-json": {
    label: "processed, answer is malformed JSON",
    action: { kind: "malformed-json" },
  },
  "empty-clone": { label: "clone answers `[]` (nothing stored)", action: { kind: "empty-clone" } },
  "data-false": {
    label: "subscribe answers `data: false` (nothing stored)",
    action: { kind: "data-false" },
  },
  "500-always": {
    label: "500 on every attempt",
    action: { kind: "status", status: 500 },
    persistent: true,
  },
};

/**
 * Where anything the platform holds after the cell is recorded:
 * - `result`: the create/update succeeded and its id is the platform's object;
 * - `error-id`: an IncompleteCreateError carries the id, so the engine records the resource;
 * - `may-exist`: the outcome is unknown to the provider, and the error says the object may exist
 *   and how to take it over instead of creating a second one;
 * - `none`: nothing was created and the error says so or needs no adoption.
 */
export type Recorded = "result" | "error-id" | "may-exist" | "none";

export interface Cell {
  readonly outcome: "ok" | "error";
  /** Requests the emulator saw on the faulted route. */
  readonly attempts: number;
  /** Objects of the operation's kind the emulator holds afterwards. */
  readonly objects: number;
  readonly recorded: Recorded;
  /** What the error message must say: what happened and what to do. */
  readonly says: readonly RegExp[];
  /** The behaviour, one line, for fault-matrix.md. */
  readonly doc: string;
}

export const names = {
  voice: "Matrix voice",
  carrier: "matrix-trunk",
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
} as const;

const adoptHint: Record<"clone" | "carrier" | "subscribe", RegExp> = {
  clone: new RegExp(
    `The platform may have cloned voice "${names.voice}" although this call failed\\. .*adopt it with existingVoiceId instead of cloning a second one`,
  ),
  carrier: new RegExp(
    `The platform may have created SIP carrier "${names.carrier}" although this call failed\\. .*record it with existingCarrierId instead of creating a second one`,
  ),
  subscribe: new RegExp(
    `The platform may have subscribed the webhook to campaign ${names.campaignId} although this call failed\\. Check the campaign's webhook subscriptions on the platform before running \`pulumi up\` again`,
  ),
};

const adoptDoc: Record<"clone" | "carrier" | "subscribe", string> = {
  clone: "adopt it with existingVoiceId",
  carrier: "record it with existingCarrierId",
  subscribe: "check the campaign's subscriptions before re-running",
};

const objectNoun: Record<"clone" | "carrier" | "subscribe", string> = {
  clone: "voice",
  carrier: "carrier",
  subscribe: "subscription",
};

const statusText: Record<number, string> = {
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function retried(attempts: number, objects = 1, extra = ""): Cell {
  return {
    outcome: "ok",
    attempts,
    objects,
    recorded: "result",
    says: [],
    doc: `retried → ok (${attempts} attempts)${extra}`,
  };
}

/** A POST answered with an error status before the emulator processed it: never re-sent. */
function postStatus(op: "clone" | "carrier" | "subscribe", status: number): Cell {
  return {
    outcome: "error",
    attempts: 1,
    objects: 0,
    recorded: "may-exist",
    says: [new RegExp(`failed: ${status} ${statusText[status]}`), adoptHint[op]],
    doc: `error, not re-sent: "${status} … may have … ${adoptDoc[op]}"; 0 ${objectNoun[op]}s`,
  };
}

function postLost(
  op: "clone" | "carrier" | "subscribe",
  what: RegExp,
  whatDoc: string,
  objects: number,
): Cell {
  const held = `${objects} ${objectNoun[op]}${objects === 1 ? "" : "s"}`;
  return {
    outcome: "error",
    attempts: 1,
    objects,
    recorded: "may-exist",
    says: [what, adoptHint[op]],
    doc: `error, not re-sent: "${whatDoc} … may have … ${adoptDoc[op]}"; ${held}`,
  };
}

const timeout = /failed: no complete answer within the deadline/;
const connection = /failed: connection failed \(\w+\)/;
const malformed = /failed: 20[01] (OK|Created): the answer was not the JSON the API describes/;
function postColumn(op: "clone" | "carrier" | "subscribe"): Partial<Record<FaultKey, Cell>> {
  return {
    "429-retry-after": retried(2, 1, ", waits the Retry-After"),
    "429": retried(2),
    "500": postStatus(op, 500),
    "502": postStatus(op, 502),
    "503": postStatus(op, 503),
    "503-retry-after": retried(2, 1, ", waits the Retry-After"),
    "504": postStatus(op, 504),
    latency: postLost(op, timeout, "no complete answer within the deadline", 0),
    "reset-before": postLost(op, connection, "connection failed (ECONNRESET)", 0),
    "reset-after": postLost(op, connection, "connection failed (ECONNRESET)", 1),
    "malformed-json": postLost(op, malformed, "not the JSON the API describes", 1),
    "500-always": postStatus(op, 500),
  };
}

/** Every fault hits only the first PUT, which is idempotent, so every one is retried. */
function putColumn(extra: string): Partial<Record<FaultKey, Cell>> {
  return {
    "429-retry-after": retried(2, 1, `, waits the Retry-After${extra}`),
    "429": retried(2, 1, extra),
    "500": retried(2, 1, extra),
    "502": retried(2, 1, extra),
    "503": retried(2, 1, extra),
    "503-retry-after": retried(2, 1, `, waits the Retry-After${extra}`),
    "504": retried(2, 1, extra),
    latency: retried(2, 1, `, the first attempt cut at the deadline${extra}`),
    "reset-before": retried(2, 1, extra),
    "reset-after": retried(2, 1, `; the PUT ran twice, harmless${extra}`),
    "malformed-json": retried(2, 1, extra),
  };
}

export const matrix: Record<OperationKey, Partial<Record<FaultKey, Cell>>> = {
  clone: {
    ...postColumn("clone"),
    "empty-clone": postLost(
      "clone",
      /the platform answered an empty list, so no voice id is known/,
      "answered an empty list, so no voice id is known",
      0,
    ),
  },
  cloneFollowUp: {
    ...putColumn("; 1 voice, isMultilingual set"),
    "500-always": {
      outcome: "error",
      attempts: 6,
      objects: 1,
      recorded: "error-id",
      says: [
        /^created \w+ on the platform, then: set isMultilingual on the new voice "Matrix voice" \(\w+\) failed: 500 Internal Server Error/,
        /The resource is recorded in the stack; the next `pulumi up` finishes it$/,
      ],
      doc: "IncompleteCreateError with the voice id after 6 PUT attempts: the engine records the voice, the next `pulumi up` finishes it",
    },
  },
  update: {
    ...putColumn("; the voice renamed"),
    "500-always": {
      outcome: "error",
      attempts: 6,
      objects: 1,
      recorded: "none",
      says: [
        /failed: 500 Internal Server Error: .*; still failing after 6 attempts/,
        /run `pulumi up` again later, or raise voiceplatform:maxRetries$/,
      ],
      doc: 'error: "500 …; still failing after 6 attempts … run `pulumi up` again later, or raise voiceplatform:maxRetries"; the voice unchanged',
    },
  },
  carrier: postColumn("carrier"),
  subscribe: {
    ...postColumn("subscribe"),
    "data-false": {
      outcome: "error",
      attempts: 1,
      objects: 0,
      recorded: "none",
      says: [
        /the platform answered status "success" and data false, so the subscription is not confirmed \(POST .*\)\. Check the campaign on the platform, then run `pulumi up` again/,
      ],
      doc: 'error: "answered status success and data false … not confirmed. Check the campaign …, then run `pulumi up` again"; 0 subscriptions',
    },
  },
};

/** How long a fault makes the provider wait before it can retry, roughly: what a cell costs. */
function waitOf(fault: FaultKey): number {
  const { action } = faults[fault];
  if (action.kind === "latency") return action.ms;
  if (action.kind === "status" && action.retryAfterSeconds !== undefined)
    return action.retryAfterSeconds * 1000;
  // A 429 without Retry-After is retried after the backoff delay; other faults fail or retry at once.
  return action.kind === "status" && action.status === 429 ? 1 : 0;
}

/** Faults in the order a covering set prefers them: those without a wait first. */
const CHEAPEST_FIRST: readonly FaultKey[] = [...faultKeys].sort((a, b) => waitOf(a) - waitOf(b));

/**
 * The fewest cells that still hold every fault once and every outcome of every operation once
 * (the operation, its outcome, where the object is recorded): what a second front end over the
 * same served-resource layer has of its own to show, how each outcome crosses its boundary. The
 * whole matrix runs through the dynamic runtime (fault-matrix.test.ts).
 */
export function coveringCells(): readonly (readonly [OperationKey, FaultKey])[] {
  const chosen: [OperationKey, FaultKey][] = [];
  const faultsSeen = new Set<FaultKey>();
  const outcomesSeen = new Set<string>();
  const take = (op: OperationKey, fault: FaultKey) => {
    const cell = matrix[op][fault]!;
    chosen.push([op, fault]);
    faultsSeen.add(fault);
    outcomesSeen.add(`${op} ${cell.outcome} ${cell.recorded}`);
  };
  for (const op of operationKeys) {
    const faultsOf = CHEAPEST_FIRST.filter((fault) => matrix[op][fault] !== undefined);
    for (const fault of faultsOf) {
      const cell = matrix[op][fault]!;
      if (outcomesSeen.has(`${op} ${cell.outcome} ${cell.recorded}`)) continue;
      const unseen = faultsOf.find(
        (other) =>
          !faultsSeen.has(other) &&
          matrix[op][other]!.outcome === cell.outcome &&
          matrix[op][other]!.recorded === cell.recorded,
      );
      take(op, unseen ?? fault);
    }
  }
  for (const fault of CHEAPEST_FIRST) {
    if (faultsSeen.has(fault)) continue;
    const op = operationKeys.find((key) => matrix[key][fault] !== undefined)!;
    take(op, fault);
  }
  return chosen;
}

/** The matrix as a markdown table, faults down, operations across. */
export function renderMatrix(): string {
  const header = `| fault | ${operationKeys.map((key) => operations[key].label).join(" | ")} |`;
  const rule = `| --- | ${operationKeys.map(() => "---").join(" | ")} |`;
  const rows = faultKeys.map((fault) => {
    const cells = operationKeys.map((op) => {
      const cell = matrix[op][fault];
      return cell === undefined ? "n/a" : cell.doc.replace(/\|/g, "\\|");
    });
    return `| ${faults[fault].label} | ${cells.join(" | ")} |`;
  });
  return [header, rule, ...rows].join("\n");
}

export const MATRIX_BEGIN = "<!-- fault-matrix:begin (rendered from fault-matrix.ts) -->";
export const MATRIX_END = "<!-- fault-matrix:end -->";
