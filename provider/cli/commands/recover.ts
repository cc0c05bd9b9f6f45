/**
 * `recover`: records interrupted creates as the objects the platform holds, drops the ones named
 * with --forget, and imports the result, after saving the state it replaces.
 */
import type { Inputs } from "../../core/resource-descriptor";
import { descriptorOf } from "../../resources";
import { cliStackAccess, type StackTarget } from "../backends/pulumi-stack";
import {
  describeLock,
  holdersInLockedError,
  livenessOf,
  thisMachine,
  type HeldLock,
  type LocalMachine,
  type StackAccess,
} from "../backends/stack-lock";
import { LockedRefusal, PulumiCliError, RecoveryRefused, StackCommandError } from "../errors";
import {
  declaredName,
  pendingOperations,
  revealed,
  type ExportedStack,
  type StateResource,
} from "../state/exported-state";
import {
  idProblem,
  outputsAfterCreate,
  recordedResource,
  sealOutputs,
} from "../state/recovered-resource";
import { editedDeployment, planRecovery, type RecoveryPlan } from "../state/recovery-plan";
import type { CommandResult } from "./command-result";
import { newEntry, stackOfResource } from "../../ledger/ledger-entry";
import { ledgerLocation } from "../../ledger/ledger-location";
import type { LedgerStore } from "../../ledger/ledger-stores";
import { ledgerAnswers, type LedgerAnswer } from "../state/ledger-answers";
import { guardedImport, type StackEdit } from "./guarded-import";

export interface RecoverOptions extends StackTarget {
  readonly assignments: readonly string[];
  readonly forget: readonly string[];
  /** Release a lock whose holder is not running on this machine (a stopped run's). */
  readonly cancelStaleLock?: boolean;
}

/** What recover writes: the plan, and each recorded create as the resource a finished one leaves. */
interface Recovered {
  readonly plan: RecoveryPlan;
  readonly recorded: StateResource[];
  /** URNs whose id came from the ledger, not the command line. */
  readonly fromLedger: ReadonlySet<string>;
  readonly ledger: PendingInLedger;
}

export async function recover(
  options: RecoverOptions,
  now = new Date(),
  access: StackAccess = cliStackAccess(targetOf(options)),
  machine: LocalMachine = thisMachine,
): Promise<CommandResult> {
  const edit = recoverEdit(options, access, machine, now);
  // Its plan is never undefined (there is always a state to write), so there is an answer.
  const done = (await guardedImport(options, edit, { access, machine, now }))!;
  const noted = await noteForgottenInLedger(done.plan, options, now);
  return {
    exitCode: 0,
    text: [...done.said, ...summary(done.plan.plan, done.plan.fromLedger), ...noted].join("\n"),
  };
}

function recoverEdit(
  options: RecoverOptions,
  access: StackAccess,
  machine: LocalMachine,
  now: Date,
): StackEdit<Recovered> {
  const cancelStaleLock = options.cancelStaleLock === true;
  return {
    refuseLocks: (locks) => refuseLocked(locks, cancelStaleLock, now),
    plan: async (stored, projectDir) => {
      const ledger = await ledgerOfPending(stored, projectDir);
      const named = (urn: string) =>
        options.forget.includes(urn) || options.assignments.some((a) => a.startsWith(`${urn}=`));
      // A create whose answer the ledger holds needs no id typed by hand.
      const fromLedger = [...ledger.answers].flatMap(([urn, answer]) =>
        "id" in answer && !named(urn) ? [{ urn, id: answer.id }] : [],
      );
      const plan = planRecovery(
        stored.deployment,
        [...options.assignments, ...fromLedger.map(({ urn, id }) => `${urn}=${id}`)],
        options.forget,
        (urn) => {
          const answer = ledger.answers.get(urn);
          return answer !== undefined && "cutAt" in answer
            ? `The ledger shows its request was sent at ${answer.cutAt} and no answer arrived: it may exist on the platform without an id`
            : undefined;
        },
      );
      if (plan.record.length + plan.forget.length === 0) {
        throw new RecoveryRefused(
          "nothing to recover: no URN=ID or --forget URN was given, and the stack has no interrupted create whose answer the ledger holds. Run `pulumi-voice-platform preflight` to list what is pending",
        );
      }
      const plainInputsOf = await plainPendingInputs(access, plan);
      refuseWrongIds(plan, plainInputsOf);
      return {
        plan,
        recorded: await recordedResources(plan, plainInputsOf, projectDir, now),
        fromLedger: new Set(fromLedger.map(({ urn }) => urn)),
        ledger,
      };
    },
    edited: (stored, { recorded }) => ({
      ...stored,
      deployment: editedDeployment(stored.deployment, recorded),
    }),
    someUrn: ({ plan }) => plan.record[0]?.pending.urn ?? plan.forget[0]?.urn,
    // An update that started (or finished a step) since the plan was made changed the state: the
    // import would overwrite what it recorded.
    changedMeanwhile:
      "the stack changed since recover read it (an update ran or is running): nothing was imported. Run preflight again",
    importStack: async (edited, locksNow) =>
      (await importReleasingStaleLock(access, edited, { locksNow, machine, cancelStaleLock, now }))
        ? ["Released the lock the interrupted run left on the stack (pulumi cancel --yes)."]
        : [],
    verify: (after, { recorded }, backup) => verifyImported(after, recorded, backup),
  };
}

/**
 * Imports the edited state. `pulumi stack import` refuses a locked stack: the lock it names (a
 * stale one --cancel-stale-lock let through, or one preflight cannot see) is refused as any lock
 * is, or, when allowed, released once before the import is tried again. Whether one was released.
 */
async function importReleasingStaleLock(
  access: StackAccess,
  edited: ExportedStack,
  context: {
    readonly locksNow: () => Promise<HeldLock[]>;
    readonly machine: LocalMachine;
    readonly cancelStaleLock: boolean;
    readonly now: Date;
  },
): Promise<boolean> {
  try {
    await access.importStack(edited);
    return false;
  } catch (error) {
    if (!(error instanceof PulumiCliError && error.isLocked)) throw error;
    const named = holdersInLockedError(error.stderr).map((holder) => ({
      holder,
      liveness: livenessOf(holder, context.machine),
    }));
    const found = await context.locksNow();
    refuseLocked(
      named.length > 0 || found.length > 0
        ? [...named, ...found]
        : [{ holder: {}, liveness: "unknown" }],
      context.cancelStaleLock,
      context.now,
    );
    await access.cancelUpdate();
    await access.importStack(edited);
    return true;
  }
}

/**
 * Secret inputs (a SIP password, webhook headers) are needed in plain text to run the same
 * mapping a create runs. They stay in this process: the imported state reuses the stored
 * ciphertext, and nothing of this export is printed or written.
 */
async function plainPendingInputs(
  access: StackAccess,
  plan: RecoveryPlan,
): Promise<(urn: string) => Inputs> {
  const plain =
    plan.record.length > 0 ? await access.exportStack({ showSecrets: true }) : undefined;
  return (urn) => {
    const match = plain?.deployment.pending_operations?.find(
      (op) => op.resource.urn === urn && op.type === "creating",
    );
    if (match === undefined) {
      throw new RecoveryRefused(
        `${urn} is no longer a pending create: the stack changed while recover ran. Run preflight again`,
      );
    }
    return revealed(match.resource.inputs ?? {}) as Inputs;
  };
}

/** Every id given that cannot be its object's, all named at once. */
function refuseWrongIds(plan: RecoveryPlan, plainInputsOf: (urn: string) => Inputs): void {
  const problems = plan.record.flatMap(({ pending, id }) => {
    const problem = idProblem(pending.kind, id, plainInputsOf(pending.urn));
    return problem === undefined ? [] : [`the id for ${pending.urn} ${problem}`];
  });
  if (problems.length > 0) throw new RecoveryRefused(problems.join("\n"));
}

/** Each recorded create as the resource a finished create would have left, secrets sealed. */
async function recordedResources(
  plan: RecoveryPlan,
  plainInputsOf: (urn: string) => Inputs,
  projectDir: string,
  now: Date,
): Promise<StateResource[]> {
  const recorded: StateResource[] = [];
  for (const { pending, id } of plan.record) {
    const plainInputs = plainInputsOf(pending.urn);
    const outputs = await outputsAfterCreate(pending.kind, plainInputs, id, projectDir).catch(
      (error: Error) => {
        throw new RecoveryRefused(
          `${pending.urn}: its state cannot be built from the stored inputs (${error.message})`,
        );
      },
    );
    const sealed = sealOutputs(
      outputs,
      pending.resource.inputs ?? {},
      plainInputs,
      pending.resource.additionalSecretOutputs,
    );
    recorded.push(recordedResource(pending, id, sealed, now));
  }
  return recorded;
}

/** The imported state holds every recorded resource and no pending operation, or says how to undo it. */
function verifyImported(
  after: ExportedStack,
  recorded: readonly StateResource[],
  backup: string,
): void {
  const left = pendingOperations(after.deployment);
  const missing = recorded.filter(
    (r) => !(after.deployment.resources ?? []).some((a) => a.urn === r.urn && a.id === r.id),
  );
  if (missing.length > 0 || (after.deployment.pending_operations ?? []).length > 0) {
    throw new StackCommandError(
      `the imported state does not hold what recover wrote (${missing.length} recovered resource(s) missing, ${left.ours.length + left.others.length} pending operation(s) left); restore it with \`pulumi stack import --file ${backup}\``,
    );
  }
}

function summary(plan: RecoveryPlan, fromLedger: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  for (const { pending, id } of plan.record) {
    lines.push(
      `Recorded ${pending.kind} "${declaredName(pending.urn)}" as ${id}${fromLedger.has(pending.urn) ? " (the platform's answer, from the ledger)" : ""}`,
    );
  }
  for (const op of plan.forget) {
    lines.push(
      op.operation === "creating"
        ? `Forgot the interrupted create of ${op.kind} "${declaredName(op.urn)}": the next \`pulumi up\` creates it`
        : `Cleared the interrupted ${op.operation} of ${op.kind} "${declaredName(op.urn)}"`,
    );
  }
  for (const op of plan.alsoDropped) {
    lines.push(
      `Also dropped the pending ${op.operation} of ${op.urn} (stack import drops every pending operation)`,
    );
  }
  const kinds = new Set(plan.record.map(({ pending }) => pending.kind));
  for (const kind of kinds) {
    const note = descriptorOf(kind).recovery.afterRecording;
    if (note !== undefined) lines.push(note);
  }
  lines.push("Run `pulumi preview`: it should create nothing that was recorded here.");
  return lines;
}

function targetOf(options: RecoverOptions): StackTarget {
  return {
    ...(options.stack === undefined ? {} : { stack: options.stack }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
}

/**
 * A locked stack may be under a live update, whose pending creates are in flight: importing would
 * drop them and releasing its lock would let both write the state. Only a lock whose holder is
 * not running on this machine is released, and only when asked.
 */
function refuseLocked(locks: readonly HeldLock[], cancelStaleLock: boolean, now: Date): void {
  if (locks.length === 0) return;
  const described = locks.map((lock) => `  - ${describeLock(lock, now)}`);
  if (locks.some((lock) => lock.liveness === "alive")) {
    throw new LockedRefusal(
      [
        "the stack is locked by an update running on this machine:",
        ...described,
        "Wait for it to finish, then run preflight again. recover never releases the lock of a running process, even with --cancel-stale-lock.",
      ].join("\n"),
    );
  }
  if (cancelStaleLock) return;
  const allDead = locks.every((lock) => lock.liveness === "dead");
  throw new (allDead ? RecoveryRefused : LockedRefusal)(
    [
      "the stack is locked:",
      ...described,
      allDead
        ? "The process that took it no longer runs: a stopped run's lock. Add --cancel-stale-lock to release it."
        : "An update may be running: wait for it to finish and run preflight again. Only if it is known to be gone (its job or machine was killed) add --cancel-stale-lock to release the lock.",
    ].join("\n"),
  );
}

/** The ledger beside the state, and what it holds of the stack's interrupted creates. */
interface PendingInLedger {
  readonly store?: LedgerStore;
  readonly answers: ReadonlyMap<string, LedgerAnswer>;
}

async function ledgerOfPending(
  stored: ExportedStack,
  projectDir: string,
): Promise<PendingInLedger> {
  const creates = pendingOperations(stored.deployment)
    .ours.filter((op) => op.operation === "creating")
    .map((op) => op.urn);
  const location = ledgerLocation(projectDir);
  if (!("store" in location)) return { answers: new Map() };
  const entries = creates.length === 0 ? [] : await location.store.readAll();
  return { store: location.store, answers: ledgerAnswers(entries, creates) };
}

/**
 * A forgotten create leaves the stack: the ledger says so (`recover`), for its object when the
 * platform answered (it is a leftover now) and for its request when none came (no longer cut).
 */
async function noteForgottenInLedger(
  { plan, ledger }: Recovered,
  options: RecoverOptions,
  now: Date,
): Promise<string[]> {
  const forgotten = plan.forget.filter((op) => op.operation === "creating");
  if (ledger.store === undefined || forgotten.length === 0) return [];
  try {
    for (const op of forgotten) {
      const answer = ledger.answers.get(op.urn);
      await ledger.store.write(
        newEntry(
          {
            event: "left",
            kind: op.kind,
            how: "recover",
            urn: op.urn,
            ...(stackOfResource(op.urn) ?? {}),
            ...(answer === undefined ? {} : { operation: answer.operation }),
            ...(answer !== undefined && "id" in answer ? { id: answer.id } : {}),
          },
          now,
        ),
      );
    }
    return [`The ledger (${ledger.store.where}) notes the forgotten create(s).`];
  } catch (error) {
    return [
      `The ledger (${ledger.store.where}) could not note the forgotten create(s): ${(error as Error).message}; \`pulumi-voice-platform leftovers\` may list them as cut short`,
    ];
  }
}
