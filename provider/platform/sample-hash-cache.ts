/**
 * The sample hashes this process computed, by path: check, diff and create of one `pulumi up`
 * run in the same process and look at the same files (sample-files.ts).
 */
import { stateSlot } from "../settings/process-state";

export interface SampleHashEntry {
  /** Size, modification time and inode of the file the entry is for. */
  readonly stamp: string;
  readonly facts: Promise<{
    readonly name: string;
    readonly sha256: string;
    readonly size: number;
  }>;
  /** Set once the hash is known, for callers that cannot wait for it. */
  sha256?: string;
}

const hashes = stateSlot(() => new Map<string, SampleHashEntry>());

export function sampleHashes(): Map<string, SampleHashEntry> {
  return hashes();
}
