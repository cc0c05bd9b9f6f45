/**
 * What the ledger knows of a stack's interrupted creates: the provider writes an intent before a
 * create's request and the id the moment the platform answers, so a create whose answer arrived
 * has its id here (recover records it without anyone searching the platform), and one cut before
 * its answer is known to have been sent (it may exist on the platform without an id).
 */
import type { LedgerEntry } from "../../ledger/ledger-entry";

export type LedgerAnswer =
  | { readonly id: string; readonly at: string; readonly operation: string }
  | { readonly cutAt: string; readonly operation: string };

/** For each URN, what its latest create left in the ledger; URNs the ledger never saw are absent. */
export function ledgerAnswers(
  entries: readonly LedgerEntry[],
  urns: readonly string[],
): Map<string, LedgerAnswer> {
  const answers = new Map<string, LedgerAnswer>();
  const ordered = [...entries].sort((a, b) => a.at.localeCompare(b.at));
  for (const urn of urns) {
    const intent = ordered.filter((e) => e.event === "intent" && e.urn === urn).at(-1);
    if (intent?.operation === undefined) continue;
    const created = ordered.find(
      (e) => e.event === "created" && e.operation === intent.operation && e.id !== undefined,
    );
    answers.set(
      urn,
      created === undefined
        ? { cutAt: intent.at, operation: intent.operation }
        : { id: created.id!, at: created.at, operation: intent.operation },
    );
  }
  return answers;
}
