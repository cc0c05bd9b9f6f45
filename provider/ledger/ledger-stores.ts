/**
 * Where ledger entries are kept: a folder (a file backend's, or one set in VOICEPLATFORM_LEDGER),
 * or the state backend itself (backend-stores.ts, loaded only for those backends), each entry
 * written once under a name of its own (ledger-entry.ts), so runners never overwrite or lock
 * each other, and a retried write only writes the same bytes.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  entryFileName,
  entryLine,
  LEDGER_PREFIX,
  parsedEntry,
  type LedgerEntry,
} from "./ledger-entry";

export interface LedgerStore {
  /** Where it is, for messages: never a credential. */
  readonly where: string;
  write(entry: LedgerEntry): Promise<void>;
  /** Every entry, in time order; files that are no entry are skipped. */
  readAll(): Promise<LedgerEntry[]>;
}

/** The ledger folder under a backend folder's root (`<root>/.pulumi/voiceplatform-ledger`). */
export function folderStore(root: string): LedgerStore {
  const folder = join(root, LEDGER_PREFIX);
  // Made at the store's first write, not at each one: a create writes two entries.
  let made = false;
  return {
    where: `the folder ${folder}`,
    async write(entry) {
      if (!made) mkdirSync(folder, { recursive: true });
      made = true;
      const name = entryFileName(entry);
      // Written beside, then renamed: a reader never sees half an entry.
      const partial = join(folder, `.${name}.partial`);
      writeFileSync(partial, entryLine(entry), { flag: "w", mode: 0o644 });
      renameSync(partial, join(folder, name));
    },
    async readAll() {
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return inTimeOrder(
        names
          .filter((name) => name.endsWith(".json") && !name.startsWith("."))
          .map((name) => readFileSync(join(folder, name), "utf8")),
      );
    },
  };
}

/** Entries from their texts, those that are none skipped, in time order (by their names). */
export function inTimeOrder(texts: readonly string[]): LedgerEntry[] {
  return texts
    .flatMap((text) => {
      const entry = parsedEntry(text);
      return entry === undefined ? [] : [entry];
    })
    .sort((a, b) => entryFileName(a).localeCompare(entryFileName(b)));
}
