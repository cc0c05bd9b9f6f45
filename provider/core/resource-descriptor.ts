/**
 * Everything about one resource, independent of the front end that serves it: its inputs (zod, with
 * descriptions), outputs, secrets, handlers and what recovery needs. The dynamic classes, the
 * plugin schema, the served handlers, redaction and the CLI are all derived from the list of them
 * in provider/resources. Inputs and state are plain property bags: no `__provider`, no gRPC
 * structs, secrets in plaintext (the front end keeps them secret using `secretInputs`).
 */
import type { z } from "zod";
import type { CheckAnswer, CheckContext } from "./check";
import type { DiffAnswer } from "./diff";
import type { Inputs } from "./property-bag";

export type { CheckAnswer, CheckContext, CheckFailure } from "./check";
export type { DiffAnswer } from "./diff";
export type { Inputs } from "./property-bag";

/**
 * Resource options a call is made under, where the front end knows them: the paths of the
 * program's `ignoreChanges` (an update leaves those fields as the platform has them) and
 * `replaceOnChanges`.
 */
export interface CallOptions {
  readonly ignoreChanges?: readonly string[];
  readonly replaceOnChanges?: readonly string[];
}

/** Why delete is called: a destroy (or removal from the program), or the end of a replacement. */
export interface DeleteContext {
  /** The object is being replaced: a new one was (or is about to be) created in its place. */
  readonly replacing: boolean;
}

/** A Pulumi schema type spec (`{ type: "string" }`, `{ $ref: ... }`), for what has no zod schema. */
export type TypeSpec = Record<string, unknown>;

/** An object type of the schema that only outputs use. */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description?: string;
  readonly properties: Record<string, TypeSpec & { description?: string; secret?: boolean }>;
  readonly required?: string[];
}

/** A property the provider writes, beside the inputs it echoes back. */
export interface OutputProperty {
  readonly name: string;
  readonly description: string;
  readonly type: TypeSpec;
  /** Always present in a created resource's state (a required output of the schema). */
  readonly always?: boolean;
  /**
   * The calls whose answer gives it: unknown in a preview of those, where nothing is sent
   * (provider/core/planned-state).
   */
  readonly writtenBy: "create" | "create and update";
}

/**
 * What `preflight` and `recover` need to settle an interrupted create: how to find the object on
 * the platform, and which ids can be its id.
 */
export interface RecoveryHooks {
  /** What to look for, completed by the identifying inputs: "a SIP carrier on the platform with". */
  readonly lookFor: string;
  /** What the user copies from the platform: "carrier id". */
  readonly idLabel: string;
  /** Declared inputs (paths such as `advancedWebhook.url`) that tell the object apart there. */
  readonly identifyingInputs: readonly string[];
  /** How some identifying inputs read best (a gateway as `ipv4:port/protocol`). */
  readonly showInput?: Readonly<
    Record<string, (value: unknown, show: (value: unknown) => string) => string>
  >;
  /**
   * The id to record for an interrupted create of these (declared, possibly still encrypted)
   * inputs when the platform's answer is not needed for it: the id they decide (an adopted
   * carrier's) or a new one the provider makes up (a webhook's). Reads no secret input.
   */
  knownId?(inputs: Inputs): string | undefined;
  /** Where knownId's id comes from, as preflight says it: "the provider derives it from the inputs". */
  readonly knownIdSays?: string;
  /**
   * Ids an earlier version wrote that this one no longer does (a webhook id derived from secret
   * inputs): `pulumi-voice-platform rekey` gives such a resource the id knownId makes instead.
   */
  staleId?(id: string): boolean;
  /** Why `id` cannot be this object's id, beyond what no id can be; undefined when it can. */
  idProblem?(id: string, inputs: Inputs): string | undefined;
  /**
   * Outputs a create sets with a later call an interrupted create may not have made: left out of
   * the recorded state, so the next `pulumi up` sets them.
   */
  unsettledOutputs?(inputs: Inputs): readonly string[];
  /** Said of a recorded object whose state lacks what only the platform's answer gives. */
  readonly afterRecording?: string;
  /** What an interrupted update means, when the update calls the platform (others only record inputs). */
  readonly interruptedUpdate?: string;
}

export interface ResourceDescriptor<State extends object = Inputs, Type extends string = string> {
  /** The type name: `Voice`, `SipCarrier`, `CampaignWebhook`. */
  readonly type: Type;
  /** What the resource is, in a sentence or two: every SDK's description starts with it. */
  readonly summary: string;
  /** What an import takes as the id, and an example command (schema's Import section). */
  readonly importId: string;
  /** Names, types, required fields and one-line descriptions of every input. */
  readonly inputSchema: z.ZodObject;
  /** Names for the object and enum types nested in the inputs, by property path (`a.b`). */
  readonly objectTypes: Readonly<Record<string, string>>;
  /** Outputs beyond the echoed inputs, and the object types only they use. */
  readonly outputs: readonly OutputProperty[];
  readonly outputTypes?: Readonly<Record<string, ObjectTypeSpec>>;
  /**
   * Inputs whose values are secret, as paths: `registerPassword`, and `advancedWebhook.headers[].value`
   * for a field of every item of a list.
   */
  readonly secretInputs: readonly string[];
  /**
   * The same secrets as the API's bodies name them, blanked wherever they appear in a body this
   * package logs or quotes: `register_password`, and `headers[].value` for a field of list items.
   */
  readonly secretWireFields: readonly string[];
  /**
   * Validates and normalizes news; never throws for bad input, returns failures instead, each
   * naming the full path of its property (`gateways[0].ipv4`).
   */
  check(olds: Inputs, news: Inputs, context?: CheckContext): Promise<CheckAnswer>;
  /** Compares the stored state with the new, checked inputs. */
  diff(id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer>;
  create(inputs: Inputs, options?: CallOptions): Promise<{ id: string; state: State }>;
  update(id: string, olds: Inputs, news: Inputs, options?: CallOptions): Promise<State>;
  delete(id: string, olds: Inputs, context: DeleteContext): Promise<void>;
  /**
   * The state a create that made the object `id` stores, built from the checked inputs without a
   * call: for recording an object created by an interrupted run, or adopted by import.
   */
  stateAfterCreate(id: string, inputs: Inputs): Promise<State>;
  /**
   * The outputs an id alone tells (a carrier's `carrierId` is its id): what `get()` and an
   * import know before any input is declared, the API having no read.
   */
  outputsFromId?(id: string): Inputs;
  /**
   * How a program records an existing object without `import`, the only way the dynamic
   * resources have: the input to set, for the object `id`.
   */
  adoptWith(id: string): string;
  readonly recovery: RecoveryHooks;
}

/** Names of the outputs whose values the given call's answer gives. */
export function outputsWrittenBy(
  descriptor: ResourceDescriptor<object>,
  call: "create" | "update",
): string[] {
  return descriptor.outputs
    .filter((output) => call === "create" || output.writtenBy === "create and update")
    .map((output) => output.name);
}
