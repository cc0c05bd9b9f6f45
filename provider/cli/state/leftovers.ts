/**
 * What the stacks left on the platform: every object the ledger saw made or adopted that no stack
 * holds now, each with where it came from and how it left, and the creates cut before their answer
 * (they may have made an object whose id nobody has). Pure: the ledger's entries and the stacks'
 * current state in, the list out.
 */
import type { LedgerEntry } from "../../ledger/ledger-entry";
import { kindOfType } from "../../schema/type-tokens";
import type { ExportedStack } from "./exported-state";

/** A stack as the backend holds it now: its resources' objects and its pending creates' URNs. */
export interface StackNow {
  readonly project: string;
  readonly stack: string;
  /** `<kind>/<id>` of each object of this package the stack holds. */
  readonly objects: ReadonlySet<string>;
  readonly pendingUrns: ReadonlySet<string>;
}

/** How an object came to be left, in words a person reads and a script matches. */
export type LeftHow =
  | "destroyed"
  | "removed from the program"
  | "replaced"
  | "replaced (deleteBeforeReplace)"
  | "stack removed"
  | "interrupted run"
  | "forgotten by recover"
  | "left the stack without a delete (pulumi state delete, or retainOnDelete)";

export interface Leftover {
  readonly kind: string;
  readonly id: string;
  readonly name?: string;
  readonly organization?: string;
  readonly subOrganization?: string;
  readonly host?: string;
  readonly project?: string;
  readonly stack?: string;
  readonly urn?: string;
  /** When it came under management (created or adopted). */
  readonly since: string;
  readonly how: LeftHow;
  /** When it left, where the provider saw it leave. */
  readonly leftAt?: string;
  /** A person's settlement, when there is one (`--all` lists these too). */
  readonly settled?: { readonly at: string; readonly reason: string };
}

/** A create whose request was sent and whose answer never reached the ledger. */
export interface CutCreate {
  readonly kind: string;
  readonly operation: string;
  readonly urn?: string;
  readonly project?: string;
  readonly stack?: string;
  readonly name?: string;
  readonly subOrganization?: string;
  readonly host?: string;
  readonly at: string;
  readonly settled?: { readonly at: string; readonly reason: string };
}

export interface LeftoverReport {
  readonly leftovers: Leftover[];
  readonly cutCreates: CutCreate[];
}

export const objectKey = (kind: string, id: string) => `${kind}/${id}`;

/** What a stack's export holds of this package (either front end's resources). */
export function stackNow(project: string, stack: string, exported: ExportedStack): StackNow {
  const objects = new Set<string>();
  for (const resource of exported.deployment.resources ?? []) {
    const known = kindOfType(resource.type);
    if (known !== undefined && typeof resource.id === "string" && resource.id !== "")
      objects.add(objectKey(known.kind, resource.id));
  }
  const pendingUrns = new Set(
    (exported.deployment.pending_operations ?? []).map((op) => op.resource.urn),
  );
  return { project, stack, objects, pendingUrns };
}

const stackKey = (project?: string, stack?: string) => `${project ?? ""}/${stack ?? ""}`;

/**
 * The report: `stacks` must hold every stack that exists among those the ledger names (a stack
 * missing from it was removed); an object any of them holds is never listed.
 */
export function leftoversOf(
  entries: readonly LedgerEntry[],
  stacks: readonly StackNow[],
): LeftoverReport {
  const held = new Set(stacks.flatMap((s) => [...s.objects]));
  const existing = new Map(stacks.map((s) => [stackKey(s.project, s.stack), s]));
  const ordered = [...entries].sort((a, b) => a.at.localeCompare(b.at));
  const arrived = new Map<string, LedgerEntry>();
  const lastLeft = new Map<string, LedgerEntry>();
  const settled = new Map<string, LedgerEntry>();
  const answered = new Set<string>();
  for (const entry of ordered) {
    if (entry.operation !== undefined && entry.event === "created") answered.add(entry.operation);
    if (entry.event === "settled") {
      const settles = entry.id === undefined ? entry.operation : objectKey(entry.kind, entry.id);
      if (settles !== undefined) settled.set(settles, entry);
      continue;
    }
    if (entry.id === undefined) continue;
    const key = objectKey(entry.kind, entry.id);
    if (entry.event === "created" || entry.event === "adopted") {
      arrived.set(key, entry);
      lastLeft.delete(key);
      settled.delete(key);
    } else if (entry.event === "left") lastLeft.set(key, entry);
  }
  const leftovers: Leftover[] = [];
  for (const [key, origin] of arrived) {
    if (held.has(key)) continue;
    const left = lastLeft.get(key);
    const settlement = settled.get(key);
    leftovers.push({
      kind: origin.kind,
      id: origin.id!,
      ...factsOf(origin),
      since: origin.at,
      how: howItLeft(origin, left, existing),
      ...(left === undefined ? {} : { leftAt: left.at }),
      ...(settlement === undefined
        ? {}
        : { settled: { at: settlement.at, reason: settlement.reason ?? "" } }),
    });
  }
  const cutCreates: CutCreate[] = ordered
    .filter((e) => e.event === "intent" && e.operation !== undefined && !answered.has(e.operation))
    .filter((e) => lastLeftOfOperation(ordered, e.operation!) === undefined)
    .map((intent) => {
      const settlement = settled.get(intent.operation!);
      return {
        kind: intent.kind,
        operation: intent.operation!,
        ...factsOf(intent),
        at: intent.at,
        ...(settlement === undefined
          ? {}
          : { settled: { at: settlement.at, reason: settlement.reason ?? "" } }),
      };
    });
  return { leftovers, cutCreates };
}

/** A `left` entry that closed a cut create (`recover --forget`). */
function lastLeftOfOperation(
  entries: readonly LedgerEntry[],
  operation: string,
): LedgerEntry | undefined {
  return entries.find((e) => e.event === "left" && e.operation === operation);
}

function factsOf(entry: LedgerEntry) {
  const picked = {
    name: entry.name,
    organization: entry.organization,
    subOrganization: entry.subOrganization,
    host: entry.host,
    project: entry.project,
    stack: entry.stack,
    urn: entry.urn,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined));
}

function howItLeft(
  origin: LedgerEntry,
  left: LedgerEntry | undefined,
  stacks: ReadonlyMap<string, StackNow>,
): LeftHow {
  switch (left?.how) {
    case "replaced":
      return "replaced";
    case "deleteBeforeReplace":
      return "replaced (deleteBeforeReplace)";
    case "removed":
      return "removed from the program";
    case "destroyed":
      return "destroyed";
    case "recover":
      return "forgotten by recover";
  }
  const stack = stacks.get(stackKey(origin.project, origin.stack));
  if (stack === undefined) return "stack removed";
  if (origin.urn !== undefined && stack.pendingUrns.has(origin.urn)) return "interrupted run";
  return "left the stack without a delete (pulumi state delete, or retainOnDelete)";
}
