/**
 * `rekey`: gives every resource whose id an earlier version wrote in a form this one no longer
 * does (a webhook id derived from its inputs, secret ones included) the id this version makes
 * (a webhook: `<campaignId>/<random UUID>`). The platform knows no such id, so nothing is
 * called and nothing is replaced: only the stack's record changes, through `pulumi stack export`
 * and `import`, after a backup of the state it replaces.
 */
import type { Inputs } from "../../core/resource-descriptor";
import { descriptorOf } from "../../resources";
import { kindOfType } from "../../schema/type-tokens";
import { cliStackAccess, type StackTarget } from "../backends/pulumi-stack";
import {
  describeLock,
  thisMachine,
  type LocalMachine,
  type StackAccess,
} from "../backends/stack-lock";
import { RecoveryRefused, StackCommandError } from "../errors";
import { declaredName, type ExportedStack, type StateResource } from "../state/exported-state";
import { knownId } from "../state/recovered-resource";
import type { CommandResult } from "./command-result";
import { guardedImport, type StackEdit } from "./guarded-import";

/** A resource to give a new id. */
interface Rekeyed {
  readonly urn: string;
  readonly kind: string;
  readonly from: string;
  readonly to: string;
}

export async function rekey(
  target: StackTarget,
  now = new Date(),
  access: StackAccess = cliStackAccess(target),
  machine: LocalMachine = thisMachine,
): Promise<CommandResult> {
  const done = await guardedImport(target, rekeyEdit(now), { access, machine, now });
  if (done === undefined) {
    return { exitCode: 0, text: "Every resource id of the stack is current: nothing to rekey." };
  }
  return {
    exitCode: 0,
    text: [
      ...done.said,
      ...done.plan.map((r) => `Rekeyed ${r.kind} "${declaredName(r.urn)}": its id is now ${r.to}`),
      "Nothing was sent to the platform, and nothing is replaced: the next `pulumi preview` shows no change.",
      "The backup and the backend's history still hold the old ids; delete old backups you do not need.",
    ].join("\n"),
  };
}

/**
 * What rekey changes. Any lock is refused, and so are interrupted operations, which the import
 * would drop.
 */
function rekeyEdit(now: Date): StackEdit<Rekeyed[]> {
  return {
    refuseLocks: (locks) => {
      if (locks.length === 0) return;
      throw new RecoveryRefused(
        [
          "the stack is locked:",
          ...locks.map((lock) => `  - ${describeLock(lock, now)}`),
          "Wait for the update to finish; if it was stopped, run `pulumi-voice-platform preflight` and settle it first.",
        ].join("\n"),
      );
    },
    plan: async (stored) => {
      if ((stored.deployment.pending_operations ?? []).length > 0) {
        throw new RecoveryRefused(
          "the stack has interrupted operations, which `pulumi stack import` would drop: run `pulumi-voice-platform preflight` and settle them first",
        );
      }
      const planned = rekeyPlan(stored.deployment.resources ?? []);
      return planned.length === 0 ? undefined : planned;
    },
    edited: rekeyed,
    someUrn: (planned) => planned[0]!.urn,
    changedMeanwhile:
      "the stack changed since rekey read it (an update ran or is running): nothing was imported. Run rekey again",
    verify: (after, planned, backup) => {
      const resources = after.deployment.resources ?? [];
      const missing = planned.filter(
        (r) => !resources.some((a) => a.urn === r.urn && a.id === r.to),
      );
      if (missing.length > 0) {
        throw new StackCommandError(
          `the imported state does not hold the new ids (${missing.length} missing); restore it with \`pulumi stack import --file ${backup}\``,
        );
      }
    },
  };
}

/** Each live resource of this package whose id its kind no longer writes, with its new id. */
function rekeyPlan(resources: readonly StateResource[]): Rekeyed[] {
  const planned: Rekeyed[] = [];
  for (const resource of resources) {
    const known = kindOfType(resource.type);
    if (known === undefined || resource.id === undefined || resource.delete === true) continue;
    const { recovery } = descriptorOf(known.kind);
    if (recovery.staleId?.(resource.id) !== true) continue;
    const to = knownId(known.kind, (resource.inputs ?? {}) as Inputs);
    if (to === undefined) {
      throw new RecoveryRefused(
        `${resource.urn} has an id this version no longer writes, and its stored inputs give no new one`,
      );
    }
    planned.push({ urn: resource.urn, kind: known.kind, from: resource.id, to });
  }
  return planned;
}

/**
 * The export with each planned resource's id replaced, and the old id replaced wherever the
 * stack's own outputs repeat it (a program that exports the id): the next `up` writes those
 * anyway, and they should not keep the old id until then.
 */
function rekeyed(stored: ExportedStack, planned: readonly Rekeyed[]): ExportedStack {
  const newId = new Map(planned.map((r) => [r.from, r.to]));
  const replaced = (value: unknown): unknown => {
    if (typeof value === "string") return newId.get(value) ?? value;
    if (Array.isArray(value)) return value.map(replaced);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaced(v)]));
    return value;
  };
  const byUrn = new Map(planned.map((r) => [r.urn, r.to]));
  const resources = (stored.deployment.resources ?? []).map((resource) => {
    const to = byUrn.get(resource.urn);
    if (to !== undefined && resource.delete !== true) return { ...resource, id: to };
    if (resource.type === "pulumi:pulumi:Stack")
      return { ...resource, outputs: replaced(resource.outputs ?? {}) as Inputs };
    return resource;
  });
  return { ...stored, deployment: { ...stored.deployment, resources } };
}
