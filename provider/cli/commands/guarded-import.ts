/**
 * The one way `recover` and `rekey` replace a stack's state. In order: read the stack and the
 * locks the backend shows (each command refuses them its own way); plan the edit from what was
 * read; read the stack again and refuse if anything but timestamps changed (an update ran
 * meanwhile, and the import would overwrite what it recorded); save the state being replaced as a
 * backup, after that last read, so a read that fails leaves no backup behind; import the edit;
 * read the stack back and check that it holds the edit. A run stopped at its deadline once the
 * backup is written names the backup that restores the stack.
 */
import type { StackTarget } from "../backends/pulumi-stack";
import {
  findStackLocks,
  type HeldLock,
  type LocalMachine,
  type StackAccess,
} from "../backends/stack-lock";
import { RecoveryRefused } from "../errors";
import { sameApartFromTimestamps, type ExportedStack } from "../state/exported-state";
import { namingBackup, projectDirectory, saveBackup } from "../state/project-folder";

/** What a command that replaces the stack's state decides; guardedImport runs the steps around it. */
export interface StackEdit<Plan> {
  /** Throws when the command does not go on under these locks (none: an empty list). */
  refuseLocks(locks: readonly HeldLock[]): void;
  /** What to change, from the state read first (it may read more); undefined when nothing. */
  plan(stored: ExportedStack, projectDir: string): Promise<Plan | undefined>;
  /** The state to import. */
  edited(stored: ExportedStack, plan: Plan): ExportedStack;
  /** A URN of the stack, whose stack name names the backup when --stack does not. */
  someUrn(plan: Plan): string | undefined;
  /** The refusal when the stack changed between the first read and the last. */
  readonly changedMeanwhile: string;
  /**
   * The import itself, when the command does more than `pulumi stack import` (recover may
   * release a stale lock first), and the lines that say what it did.
   */
  importStack?(edited: ExportedStack, locksNow: () => Promise<HeldLock[]>): Promise<string[]>;
  /** Throws when the imported state does not hold the edit, naming the backup that restores it. */
  verify(after: ExportedStack, plan: Plan, backup: string): void;
}

export interface GuardedImport<Plan> {
  readonly plan: Plan;
  readonly backup: string;
  /** The lines that say what was saved and done, for the command's output. */
  readonly said: string[];
}

/** Replaces the stack's state as `edit` says; undefined when there was nothing to change. */
export async function guardedImport<Plan>(
  target: StackTarget,
  edit: StackEdit<Plan>,
  context: { readonly access: StackAccess; readonly machine: LocalMachine; readonly now: Date },
): Promise<GuardedImport<Plan> | undefined> {
  const { access, machine, now } = context;
  const projectDir = projectDirectory(target.cwd ?? process.cwd());
  const stored = await access.exportStack();
  const locksNow = () =>
    findStackLocks(
      access,
      stored,
      { ...(target.stack === undefined ? {} : { stack: target.stack }), projectDir },
      machine,
    );
  edit.refuseLocks(await locksNow());
  const plan = await edit.plan(stored, projectDir);
  if (plan === undefined) return undefined;
  const edited = edit.edited(stored, plan);
  if (!sameApartFromTimestamps(stored, await access.exportStack())) {
    throw new RecoveryRefused(edit.changedMeanwhile);
  }
  const backup = await saveBackup(stored, edit.someUrn(plan), target.stack, projectDir, now);
  try {
    const done =
      edit.importStack === undefined
        ? await access.importStack(edited).then(() => [])
        : await edit.importStack(edited, locksNow);
    edit.verify(await access.exportStack(), plan, backup);
    return { plan, backup, said: [`Saved the state being replaced to ${backup}`, ...done] };
  } catch (error) {
    throw namingBackup(error, backup);
  }
}
