/**
 * `preflight`: exit 0 when the stack has no pending operation on this package's resources,
 * otherwise print each one with what to look for on the platform and the command that settles it
 * (exit 1). A stack locked by an update that may still run exits 3 without a command: its pending
 * operations are that update's creates in flight, not a stopped run's.
 */
import type { Inputs } from "../../core/resource-descriptor";
import { EXIT, type CommandResult } from "./command-result";
import { ledgerAnswers, type LedgerAnswer } from "../state/ledger-answers";
import { ledgerLocation } from "../../ledger/ledger-location";
import { knownId } from "../state/recovered-resource";
import {
  pendingOperations,
  stackOfUrn,
  type PendingOfPackage,
  type PendingOperations,
} from "../state/exported-state";
import { lockedByUpdateReport, preflightReport, targetFlags } from "../state/pending-report";
import { cliStackAccess, type StackTarget } from "../backends/pulumi-stack";
import { projectDirectory } from "../state/project-folder";
import {
  describeLock,
  findStackLocks,
  mayBeRunning,
  thisMachine,
  unseenLocksNote,
  type HeldLock,
  type LocalMachine,
  type StackAccess,
} from "../backends/stack-lock";

/** preflight's own statuses (the others come from main). */
export const PREFLIGHT_EXIT = {
  clean: EXIT.clean,
  pending: EXIT.pending,
  lockedByUpdate: EXIT.lockedByUpdate,
} as const;

export async function preflight(
  target: StackTarget,
  access: StackAccess = cliStackAccess(target),
  machine: LocalMachine = thisMachine,
  now = new Date(),
): Promise<CommandResult> {
  const exported = await access.exportStack();
  const pending = pendingOperations(exported.deployment);
  const locks = await findStackLocks(
    access,
    exported,
    {
      ...(target.stack === undefined ? {} : { stack: target.stack }),
      projectDir: projectDirectory(target.cwd ?? process.cwd()),
    },
    machine,
  );
  const anyUrnAtAll = pending.ours[0]?.urn ?? exported.deployment.resources?.[0]?.urn;
  const label = stackLabelOf(target, anyUrnAtAll);
  const running = mayBeRunning(locks);
  if (running.length > 0) return lockedByUpdate(target, label, running, pending, now);
  const unseen = unseenLocksNote(await access.backendUrl());
  const staleLocks = locks.map((lock) => describeLock(lock, now));
  const ledger = await interruptedCreatesInLedger(target, pending.ours);
  const text = preflightReport(pending, {
    stackLabel: label,
    flags: targetFlags(target),
    knownIds: knownIdsOf(pending.ours, ledger),
    ...(ledger === undefined ? {} : { ledger }),
    ...(staleLocks.length === 0 ? {} : { staleLocks }),
  });
  const unseenNote = unseen === undefined ? "" : `\n${unseen}`;
  if (pending.ours.length > 0)
    return { exitCode: PREFLIGHT_EXIT.pending, text: `${text}${unseenNote}` };
  const note =
    staleLocks.length === 0
      ? ""
      : `\nThe stack still carries the lock of a stopped run (${staleLocks.join("; ")}): \`pulumi cancel\` releases it.`;
  return { exitCode: PREFLIGHT_EXIT.clean, text: `${text}${note}${unseenNote}` };
}

/** Locked by an update that may still run: wait, and no recover command unless it may be gone. */
function lockedByUpdate(
  target: StackTarget,
  label: string,
  running: readonly HeldLock[],
  pending: PendingOperations,
  now: Date,
): CommandResult {
  const described = running.map((lock) => describeLock(lock, now));
  let text = lockedByUpdateReport(
    label,
    described,
    pending,
    running.some((lock) => lock.liveness === "unknown"),
  );
  // A holder on another machine cannot be checked: if it is known to be gone (a killed CI
  // runner), the one who knows needs what it left and the command that settles it.
  if (running.every((lock) => lock.liveness === "unknown") && pending.ours.length > 0) {
    text += `\n\nOnly if that update is known to be gone, this is what it left:\n${preflightReport(
      pending,
      {
        stackLabel: label,
        flags: targetFlags(target),
        knownIds: knownIdsOf(pending.ours),
        staleLocks: described,
      },
    )}`;
  }
  return { exitCode: PREFLIGHT_EXIT.lockedByUpdate, text };
}

/**
 * The ids creates would record without the platform's answer (an adopted carrier's, a new one for
 * a webhook), worked out from the stored inputs: no hook reads a secret input, so the export
 * without --show-secrets is enough.
 */
function knownIdsOf(
  ours: readonly PendingOfPackage[],
  ledger?: ReadonlyMap<string, LedgerAnswer>,
): Map<string, string> {
  const knownIds = new Map<string, string>();
  for (const op of ours) {
    if (op.operation !== "creating") continue;
    const answer = ledger?.get(op.urn);
    if (answer !== undefined && "id" in answer) {
      knownIds.set(op.urn, answer.id);
      continue;
    }
    const id = knownId(op.kind, (op.resource.inputs ?? {}) as Inputs);
    if (id !== undefined) knownIds.set(op.urn, id);
  }
  return knownIds;
}

function stackLabelOf(target: StackTarget, anyUrn: string | undefined): string {
  const stackName = target.stack ?? (anyUrn === undefined ? undefined : stackOfUrn(anyUrn));
  return stackName === undefined ? "The current stack" : `Stack ${stackName}`;
}

/**
 * What the ledger beside the state holds of the interrupted creates; undefined when there is no
 * ledger to read here (preflight then says what to look for, as without one).
 */
export async function interruptedCreatesInLedger(
  target: StackTarget,
  ours: readonly PendingOfPackage[],
): Promise<ReadonlyMap<string, LedgerAnswer> | undefined> {
  const creates = ours.filter((op) => op.operation === "creating").map((op) => op.urn);
  if (creates.length === 0) return undefined;
  const location = ledgerLocation(projectDirectory(target.cwd ?? process.cwd()));
  if (!("store" in location)) return undefined;
  return ledgerAnswers(await location.store.readAll(), creates);
}
