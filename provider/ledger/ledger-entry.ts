/**
 * One ledger entry, as it is stored: one JSON object on one line, in a file (or object, or row) of
 * its own named `<at>-<event>-<entry>.json`, under `.pulumi/voiceplatform-ledger/` of the state
 * backend. So `cat .pulumi/voiceplatform-ledger/*.json` is the ledger as JSON lines, in time
 * order, and many runners write at once without a lock: no file is ever written twice.
 * The layout is documented in docs/operations.md ("The ledger"); a field is only ever added.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";

export const LEDGER_VERSION = 1;

/** Where the entries live, from the backend's root (a folder, a bucket, a container, a table). */
export const LEDGER_PREFIX = ".pulumi/voiceplatform-ledger/";

const leaveHows = [
  "replaced",
  "deleteBeforeReplace",
  "removed",
  "destroyed",
  "recover",
  "settled",
] as const;

export const ledgerEntrySchema = z.object({
  v: z.literal(LEDGER_VERSION),
  /** The entry's own id (a UUID): the file's name ends with it. */
  entry: z.string().min(1),
  at: z.iso.datetime(),
  event: z.enum(["intent", "created", "adopted", "left", "settled"]),
  kind: z.string().min(1),
  /** The platform's id of the object; an intent has none yet. */
  id: z.string().optional(),
  /** Links an intent to the `created` entry of the same create. */
  operation: z.string().optional(),
  urn: z.string().optional(),
  project: z.string().optional(),
  stack: z.string().optional(),
  /** The host of the base URL the object was made on (`api.example.com`). */
  host: z.string().optional(),
  name: z.string().optional(),
  organization: z.string().optional(),
  subOrganization: z.string().optional(),
  how: z.enum(leaveHows).optional(),
  /** Why a person settled the object (`settled` entries). */
  reason: z.string().optional(),
});

export type LedgerEntry = z.output<typeof ledgerEntrySchema>;

/** A new entry: its version, an id of its own and the time, beside the fields given. */
export function newEntry(
  fields: Omit<LedgerEntry, "v" | "entry" | "at">,
  now: Date = new Date(),
): LedgerEntry {
  return { v: LEDGER_VERSION, entry: randomUUID(), at: now.toISOString(), ...fields };
}

/** The entry's file name: sorts in time order, unique by the entry's id. */
export function entryFileName(entry: LedgerEntry): string {
  return `${entry.at.replace(/[:.]/g, "-")}-${entry.event}-${entry.entry}.json`;
}

export function entryLine(entry: LedgerEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** An entry read back; undefined for a file that is not one (cut short, another tool's). */
export function parsedEntry(text: string): LedgerEntry | undefined {
  try {
    const parsed = ledgerEntrySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>`: the stack and project it names. */
export function stackOfResource(urn: string): { project: string; stack: string } | undefined {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return match === null ? undefined : { stack: match[1]!, project: match[2]! };
}
