/**
 * What `recover` will do, decided from the command line and the exported state before anything is
 * written, and the edit of the deployment itself. Pure: the command runs the CLI around it.
 */
import { pathSegmentProblem } from "../../platform/path-segment";
import { kindOfType } from "../../schema/type-tokens";
import { RecoveryRefused } from "../errors";
import {
  pendingOperations,
  type Deployment,
  type PendingOfPackage,
  type StateResource,
} from "./exported-state";

export interface Recovery {
  readonly pending: PendingOfPackage;
  readonly id: string;
}

export interface RecoveryPlan {
  readonly record: Recovery[];
  readonly forget: PendingOfPackage[];
  /** Pending operations `stack import` drops although nobody named them: other packages' only. */
  readonly alsoDropped: { urn: string; operation: string; type: string }[];
}

/**
 * Splits each `URN=ID` against the pending URNs (a URN's name and an id may both hold "="), and
 * checks that every interrupted create of this package is named exactly once: `stack import`
 * drops every pending operation, so one left out would be created again by the next `up`.
 */
export function planRecovery(
  deployment: Deployment,
  assignments: readonly string[],
  forget: readonly string[],
  /** What else is known of a URN left unnamed (the ledger's word that its answer never came). */
  noteOn: (urn: string) => string | undefined = () => undefined,
): RecoveryPlan {
  const { ours, others } = pendingOperations(deployment);
  const problems: string[] = [];
  const named = new Map<string, string>();
  const name = (urn: string, as: string) => {
    const before = named.get(urn);
    if (before !== undefined)
      problems.push(`${urn} is named twice (${before} and ${as}): name it once`);
    named.set(urn, as);
  };
  const record: Recovery[] = [];
  for (const assignment of assignments) {
    const found = recoveryOf(deployment, ours, assignment);
    if (typeof found === "string") problems.push(found);
    else {
      name(found.pending.urn, "URN=ID");
      const unsafe = unsafeIdProblem(found);
      if (unsafe === undefined) record.push(found);
      else problems.push(unsafe);
    }
  }
  const forgotten: PendingOfPackage[] = [];
  for (const urn of forget) {
    const pending = ours.find((op) => op.urn === urn);
    if (pending === undefined) problems.push(notPendingCreate(deployment, urn));
    else {
      name(urn, "--forget");
      forgotten.push(pending);
    }
  }
  problems.push(...unnamedCreates(ours, named, noteOn));
  if (problems.length > 0) throw new RecoveryRefused(problems.join("\n"));
  const unnamed = ours
    .filter((op) => op.operation !== "creating" && !named.has(op.urn))
    .map((op) => ({ urn: op.urn, operation: op.operation, type: op.resource.type }));
  return { record, forget: forgotten, alsoDropped: [...unnamed, ...others] };
}

/** The pending create a `URN=ID` names (the longest URN it starts with), or why it names none. */
function recoveryOf(
  deployment: Deployment,
  ours: readonly PendingOfPackage[],
  assignment: string,
): Recovery | string {
  const pending = ours
    .filter((op) => assignment.startsWith(`${op.urn}=`))
    .sort((a, b) => b.urn.length - a.urn.length)[0];
  if (pending === undefined) return notPendingCreate(deployment, assignment);
  if (pending.operation !== "creating") {
    return `${pending.urn} is a pending ${pending.operation}, not a create: nothing to record; use --forget ${pending.urn} to clear it`;
  }
  return { pending, id: assignment.slice(pending.urn.length + 1) };
}

/** The id becomes a path segment of later calls (PUT /voices/{id}). */
function unsafeIdProblem({ pending, id }: Recovery): string | undefined {
  const unsafe = pathSegmentProblem(id);
  return unsafe === undefined
    ? undefined
    : `the id ${JSON.stringify(id)} given for ${pending.urn} ${unsafe}: give the id the platform answered`;
}

/** Every interrupted create the command line leaves out: the next `up` would create it again. */
function unnamedCreates(
  ours: readonly PendingOfPackage[],
  named: ReadonlyMap<string, string>,
  noteOn: (urn: string) => string | undefined,
): string[] {
  return ours
    .filter((op) => op.operation === "creating" && !named.has(op.urn))
    .map((op) => {
      const note = noteOn(op.urn);
      return (
        `${op.urn} is an interrupted create not named on the command line: importing the state drops every pending ` +
        `operation, so the next \`pulumi up\` would create it again. ${note === undefined ? "" : `${note}. `}Add ${op.urn}=<id> if the platform has it, or --forget ${op.urn} if not`
      );
    });
}

function notPendingCreate(deployment: Deployment, argument: string): string {
  const stored = (deployment.resources ?? []).find(
    (resource) => argument === resource.urn || argument.startsWith(`${resource.urn}=`),
  );
  const other = (deployment.pending_operations ?? []).find(
    (op) => argument === op.resource.urn || argument.startsWith(`${op.resource.urn}=`),
  );
  if (other !== undefined) {
    return `${other.resource.urn} is a pending ${other.type} of ${other.resource.type}, not a resource of pulumi-voice-platform: recover only records this package's creates`;
  }
  if (stored !== undefined) {
    return kindOfType(stored.type) === undefined
      ? `${stored.urn} is a recorded ${stored.type}, not a pending create of pulumi-voice-platform`
      : `${stored.urn} is already recorded (id ${JSON.stringify(stored.id)}), not a pending create: nothing to recover`;
  }
  return `${JSON.stringify(argument)} names no pending create of this stack: run \`pulumi-voice-platform preflight\` for the exact URNs`;
}

/**
 * The deployment with each recovery recorded and every pending operation gone. A recovered
 * resource goes after everything it may refer to (its provider and parent are recorded before any
 * create starts); when a live resource already holds the URN (an interrupted replacement), the old
 * one is marked for deletion, as the engine records a finished create-before-replace, and the next
 * `up` deletes it from the stack.
 */
export function editedDeployment(deployment: Deployment, recorded: StateResource[]): Deployment {
  const resources = [...(deployment.resources ?? [])];
  for (const resource of recorded) {
    const live = resources.findIndex((r) => r.urn === resource.urn && r.delete !== true);
    if (live === -1) {
      resources.push(resource);
    } else {
      resources[live] = { ...resources[live]!, delete: true };
      resources.splice(live + 1, 0, resource);
    }
  }
  return { ...deployment, resources, pending_operations: [] };
}
