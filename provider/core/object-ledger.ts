/**
 * What the served resources tell the ledger of the objects they make, adopt and let go (the
 * platform cannot delete, list or read, so a stack that forgets an object is the only record
 * gone): the events, and the ledger a front end hands them to (provider/ledger/, which stores
 * them where the stack's state lives). Core knows no store: a front end that passes none gets
 * `noLedger`.
 */
import type { ProviderContext } from "./provider-context";

/**
 * How an object left its stack, as far as the provider sees it: `replaced` (the engine deleted
 * the old half after creating the new one), `deleteBeforeReplace` (before), `removed` (deleted in
 * a run that also checked the program's resources), `destroyed` (deleted with no program run in
 * this provider: `pulumi destroy`, or a program left with none of this provider's resources),
 * `recover` (a pending create `recover --forget` dropped), `settled` (a person marked it handled).
 * The paths that never reach a provider (`pulumi state delete`, `retainOnDelete`, `stack rm`)
 * are found by the `leftovers` command from the stacks' state.
 */
export type LeaveHow =
  "replaced" | "deleteBeforeReplace" | "removed" | "destroyed" | "recover" | "settled";

/**
 * One event. `intent` is written before a create's request and carries the operation that the
 * `created` entry written the moment the platform answers repeats, so a run killed between the two
 * leaves an intent without an id: a create that may have reached the platform.
 */
export type LedgerEvent =
  | { readonly event: "intent"; readonly operation: string; readonly object: ObjectFacts }
  | {
      readonly event: "created";
      readonly operation: string;
      readonly id: string;
      readonly object: ObjectFacts;
    }
  | { readonly event: "adopted"; readonly id: string; readonly object: ObjectFacts }
  | {
      readonly event: "left";
      readonly id: string;
      readonly how: LeaveHow;
      readonly object: ObjectFacts;
    };

/** What the served resource knows of the object: never a secret (names and ids only). */
export interface ObjectFacts {
  /** The resource kind (`SipCarrier`). */
  readonly kind: string;
  /** The resource's URN: its stack, project and declared name. */
  readonly urn: string;
  /** The object's display name on the platform, when the kind has one that is not secret. */
  readonly name?: string;
  /** The sub-organization the object was made for (the resource's input, else the setting). */
  readonly subOrganization?: string;
  /** The owning organization, when the platform's answer told it (a voice's organizationId). */
  readonly organization?: string;
}

export interface ObjectLedger {
  /**
   * Stores the event before it resolves; never rejects: a ledger that cannot be written is said
   * once with what to run, and the call goes on (the state still gets every id).
   */
  record(context: ProviderContext, event: LedgerEvent): Promise<void>;
}

/** The ledger of a provider that keeps none (the front end passed no store: tests in process). */
export const noLedger: ObjectLedger = Object.freeze({ record: async () => {} });
