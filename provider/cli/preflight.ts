/**
 * `preflight`: exit 0 when the stack has no pending operation on this package's resources,
 * otherwise print each one with what to look for on the platform and the command that settles it
 * (exit 1). A stack locked by an update that may still run exits 3 without a command: its pending
 * operations are that update's creates in flight, not a stopped run's.
 */
import type { Inputs } from "../core/resource-descriptor";
import { descriptorOf } from "../resources";
import { knownId } from "./recovered-resource";
import {
  containsSecret,
  pendingOperations,
  revealed,
  stackOfUrn,
  type ExportedStack,
  type PendingOfPackage,
} from "./exported-state";
import { lockedByUpdateReport, preflightReport } from "./pending-report";
import { cliStackAccess, targetFlags, type StackTarget } from "./pulumi-stack";
import { projectDirectory } from "./recover";
import {
  describeLock,
  findStackLocks,
  mayBeRunning,
  thisMachine,
  unseenLocksNote,
  type LocalMachine,
  type StackAccess,
} from "./stack-lock";

export interface CommandResult {
  readonly exitCode: number;
  readonly text: string;
}

/**
 * The exit statuses of both commands, one meaning each, so a pipeline can act on them: 0 done or
 * nothing pending; 1 pending operations of a stopped run (preflight) or a refusal, nothing changed
 * (recover); 2 a bad command line; 3 locked by an update that may still be running; 4 the stack does
 * not exist; 5 the backend (state or locks) could not be read, or the Pulumi CLI could not run.
 */
export const EXIT = {
  clean: 0,
  pending: 1,
  refused: 1,
  usage: 2,
  lockedByUpdate: 3,
  stackNotFound: 4,
  backendUnreadable: 5,
} as const;

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
  if (running.length > 0) {
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
      const { knownIds, idNote } = await knownIdsOf(pending.ours, access);
      text += `\n\nOnly if that update is known to be gone, this is what it left:\n${preflightReport(
        pending,
        {
          stackLabel: label,
          flags: targetFlags(target),
          knownIds,
          ...(idNote === undefined ? {} : { idNote }),
          staleLocks: described,
        },
      )}`;
    }
    return { exitCode: PREFLIGHT_EXIT.lockedByUpdate, text };
  }
  const { knownIds, idNote } = await knownIdsOf(pending.ours, access);
  const unseen = unseenLocksNote(await access.backendUrl());
  const staleLocks = locks.map((lock) => describeLock(lock, now));
  const text = preflightReport(pending, {
    stackLabel: label,
    flags: targetFlags(target),
    knownIds,
    ...(idNote === undefined ? {} : { idNote }),
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

/**
 * The ids creates would record when their inputs decide them (an adopted carrier's, a webhook's
 * derived one). One that reads secret inputs needs the decrypted state; only the id, which holds
 * no secret, leaves this function.
 */
async function knownIdsOf(
  ours: readonly PendingOfPackage[],
  access: StackAccess,
): Promise<{ knownIds: Map<string, string>; idNote?: string }> {
  const knownIds = new Map<string, string>();
  const creates = ours.filter((op) => op.operation === "creating");
  const needsPlain = (op: PendingOfPackage) =>
    descriptorOf(op.kind).recovery.knownIdReadsSecrets === true &&
    containsSecret(op.resource.inputs);
  let idNote: string | undefined;
  let plain: ExportedStack | undefined;
  if (creates.some(needsPlain)) {
    plain = await access.exportStack({ showSecrets: true }).catch((error: Error) => {
      idNote = `Some ids are derived from secret inputs and need the decrypted state, which could not be read (${error.message.split("\n")[0]}); recover names the expected id when given a wrong one.`;
      return undefined;
    });
  }
  for (const op of creates) {
    // Inputs not needing the decrypted state are read as stored: their secrets stay envelopes.
    const source = needsPlain(op)
      ? revealed(
          plain?.deployment.pending_operations?.find((p) => p.resource.urn === op.urn)?.resource
            .inputs,
        )
      : op.resource.inputs;
    const id = source === undefined ? undefined : knownId(op.kind, source as Inputs);
    if (id !== undefined) knownIds.set(op.urn, id);
  }
  return idNote === undefined ? { knownIds } : { knownIds, idNote };
}

function stackLabelOf(target: StackTarget, anyUrn: string | undefined): string {
  const stackName = target.stack ?? (anyUrn === undefined ? undefined : stackOfUrn(anyUrn));
  return stackName === undefined ? "The current stack" : `Stack ${stackName}`;
}
