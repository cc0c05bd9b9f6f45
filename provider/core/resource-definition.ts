/**
 * What a resource is, independent of the front end that serves it: the dynamic provider
 * (provider/dynamic) and the provider plugin adapt the same definitions. Inputs and state are
 * plain property bags: no `__provider`, no gRPC structs, secrets in plaintext (the front end
 * keeps them secret and out of messages, using `secretInputs`).
 */
import type { z } from "zod";

export type Inputs = Record<string, unknown>;

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/** What check answers: the inputs to use from now on, and every problem found. */
export interface CheckAnswer {
  readonly inputs: Inputs;
  readonly failures: CheckFailure[];
}

export interface DiffAnswer {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
}

export interface ResourceDefinition<State extends object = Inputs> {
  /** The type name: `Voice`, `SipCarrier`, `CampaignWebhook`. */
  readonly type: string;
  /** Names, types, required fields and one-line descriptions of every input. */
  readonly inputSchema: z.ZodObject;
  /**
   * Inputs whose values are secret, as paths: `registerPassword`, and `advancedWebhook.headers[].value`
   * for a field of every item of a list.
   */
  readonly secretInputs: readonly string[];
  /**
   * Outputs only the platform's answer gives, by the call that writes them: unknown in a preview,
   * where nothing is sent (provider/core/planned-state).
   */
  readonly platformOutputs: {
    readonly create: readonly string[];
    readonly update: readonly string[];
  };
  /** Validates and normalizes news; never throws for bad input, returns failures instead. */
  check(olds: Inputs, news: Inputs): Promise<CheckAnswer>;
  /** Compares the stored state with the new, checked inputs. */
  diff(id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer>;
  create(inputs: Inputs): Promise<{ id: string; state: State }>;
  update(id: string, olds: Inputs, news: Inputs): Promise<State>;
  delete(id: string, olds: Inputs): Promise<void>;
  /**
   * The state a create that made the object `id` stores, built from the checked inputs without a
   * call: for recording an object created by an interrupted run, or adopted by import.
   */
  stateAfterCreate(id: string, inputs: Inputs): Promise<State>;
}

/** Every value at the given secret paths of a property bag (unknown or missing ones left out). */
export function secretValues(inputs: Inputs, paths: readonly string[]): unknown[] {
  const found: unknown[] = [];
  const walk = (value: unknown, segments: readonly string[]) => {
    if (segments.length === 0) {
      found.push(value);
      return;
    }
    const [head, ...rest] = segments as [string, ...string[]];
    const list = head.endsWith("[]");
    const key = list ? head.slice(0, -2) : head;
    if (value === null || typeof value !== "object") return;
    const field = (value as Inputs)[key];
    if (list) {
      if (Array.isArray(field)) for (const item of field) walk(item, rest);
    } else walk(field, rest);
  };
  for (const path of paths) walk(inputs, path.split("."));
  return found;
}
