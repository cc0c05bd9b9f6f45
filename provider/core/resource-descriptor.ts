/**
 * Everything about one resource, independent of the front end that serves it: its inputs and
 * outputs (zod schemas whose fields carry their own facts, see field-facts.ts), an example, its
 * handlers and what recovery needs. A resource file writes a `ResourceDefinition`;
 * `defineResource` derives the rest (check, the default diff, secret paths, secret wire fields,
 * the diff plan, the outputs). The dynamic classes and stubs, the runtime entry, the plugin
 * schema, the SDKs, the served handlers, redaction and the CLI are all derived from the list of
 * descriptors in provider/resources. Inputs and state are plain property bags: no `__provider`,
 * no gRPC structs, secrets in plaintext (the front end keeps them secret using `secretInputs`).
 * A resource file's create, update and stateAfterCreate get their inputs already parsed by its
 * input schema (`z.output<Schema>`), and every handler that acts gets the call's context first
 * (provider-context.ts), as pulumi-go-provider's `infer` hands `Create(ctx, req)`.
 */
import type { z } from "zod";
import {
  checkedInputs,
  checkResource,
  type CheckAnswer,
  type CheckContext,
  type CheckFailure,
} from "./check";
import { diffInputs, type DiffAnswer, type DiffPlan } from "./diff";
import type { Inputs } from "./property-bag";
import type { ProviderContext } from "./provider-context";
import { warnStaysOnPlatform } from "./provider-log";
import {
  diffPlanOf,
  outputFieldsOf,
  secretPaths,
  secretWireFields,
  sortedSets,
  type OutputField,
} from "./field-facts";

export type { CheckAnswer, CheckContext, CheckFailure } from "./check";
export type { DiffAnswer } from "./diff";
export type { Inputs } from "./property-bag";
export type { ProviderContext } from "./provider-context";

/**
 * Resource options a call is made under, where the front end knows them: the paths of the
 * program's `ignoreChanges` (an update leaves those fields as the platform has them) and
 * `replaceOnChanges`.
 */
export interface CallOptions {
  readonly ignoreChanges?: readonly string[];
  readonly replaceOnChanges?: readonly string[];
  /**
   * Top-level inputs the user marked secret that the package does not treat as secret
   * (`name: pulumi.secret(...)`): kept out of messages and returned secret. The plugin learns
   * them from the engine; a dynamic provider is never told (the engine strips the markers).
   */
  readonly markedSecret?: readonly string[];
}

/** Why delete is called: a destroy (or removal from the program), or the end of a replacement. */
export interface DeleteContext {
  /** The object is being replaced: a new one was (or is about to be) created in its place. */
  readonly replacing: boolean;
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

/**
 * One example program in each language the SDKs are generated for, and YAML: Pulumi's generators
 * keep, in each SDK's docstring, the code block of that SDK's language. `go` is the body of the
 * function `pulumi.Run` runs; the codegen writes the program around it.
 */
export interface ResourceExample {
  readonly title: string;
  readonly typescript: string;
  readonly python: string;
  readonly go: string;
  readonly yaml: string;
}

/**
 * What a resource file writes: the facts and handlers only it knows. Create is the one handler
 * every resource has; the others default to what the spec's resources share (see `defineResource`).
 */
export interface ResourceDefinition<
  State extends object = Inputs,
  Type extends string = string,
  Schema extends z.ZodObject = z.ZodObject,
> {
  /** The type name: `Voice`, `SipCarrier`, `CampaignWebhook`. */
  readonly type: Type;
  /** What the resource is, in a sentence or two: every SDK's description starts with it. */
  readonly summary: string;
  /**
   * What an import takes as the id, and an example command (schema's Import section); by default
   * the id the create answered.
   */
  readonly importId?: string;
  /** The example every SDK's documentation shows. */
  readonly example: ResourceExample;
  /**
   * Names, types, required fields, descriptions and facts (secret, wire name, replace on change,
   * set, nested type names) of every input.
   */
  readonly inputSchema: Schema;
  /** What the provider writes beside the inputs it echoes back, each field saying `writtenBy`. */
  readonly outputSchema: z.ZodObject;
  /** Advice about valid, wholly known inputs: said at check, never enforced; none by default. */
  warnings?(inputs: z.output<Schema>): string[];
  /** Problems zod cannot see, such as a sample file that cannot be read. */
  moreFailures?(news: Inputs): Promise<CheckFailure[]>;
  /** Normalization beyond what the facts say (sets are sorted anyway): a case fixed. */
  normalize?(news: Inputs): Inputs;
  /** Compares the stored state with the new, checked inputs; by default along the diff plan. */
  diff?(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    news: Inputs,
    plan: DiffPlan,
  ): Promise<DiffAnswer>;
  /** The inputs are parsed by the input schema, once, before it is called. */
  create(
    context: ProviderContext,
    inputs: z.output<Schema>,
    options?: CallOptions,
  ): Promise<{ id: string; state: State }>;
  /**
   * By default a resource has no update call: every input replaces it (`defineResource` refuses
   * a schema with an input that does not), so an update only records the new inputs. The new
   * inputs come parsed (as they are when an adopted object still lacks a required one).
   */
  update?(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    news: z.output<Schema>,
    options?: CallOptions,
  ): Promise<State>;
  /** By default the API has no delete: the object stays on the platform, and delete says so. */
  delete?(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    deleteContext: DeleteContext,
  ): Promise<void>;
  /**
   * The state a create that made the object `id` stores, built from the checked inputs without a
   * call: for recording an object created by an interrupted run, or adopted by import. By default
   * the checked inputs and the outputs `outputsFromId` tells.
   */
  stateAfterCreate?(id: string, inputs: z.output<Schema>): Promise<State>;
  /**
   * The outputs an id alone tells (a carrier's `carrierId` is its id): what `get()` and an
   * import know before any input is declared, the API having no read.
   */
  outputsFromId?(id: string): Inputs;
  /**
   * How a program records an existing object without `import`, the only way the dynamic
   * resources have: the input to set, for the object `id`. Without it, only the plugin's
   * resources adopt an object (by import).
   */
  adoptWith?(id: string): string;
  readonly recovery: RecoveryHooks;
}

/** A resource as the front ends, the codegen and the CLI use it: its definition and what follows. */
export interface ResourceDescriptor<
  State extends object = Inputs,
  Type extends string = string,
> extends Omit<
  ResourceDefinition<State, Type>,
  | "warnings"
  | "moreFailures"
  | "normalize"
  | "diff"
  | "importId"
  | "create"
  | "update"
  | "delete"
  | "stateAfterCreate"
> {
  readonly importId: string;
  /** Parses `news` with the input schema (a ZodError when check would have refused them). */
  create(
    context: ProviderContext,
    news: Inputs,
    options?: CallOptions,
  ): Promise<{ id: string; state: State }>;
  update(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    news: Inputs,
    options?: CallOptions,
  ): Promise<State>;
  delete(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    deleteContext: DeleteContext,
  ): Promise<void>;
  stateAfterCreate(id: string, inputs: Inputs): Promise<State>;
  /**
   * Validates and normalizes news; never throws for bad input, returns failures instead, each
   * naming the full path of its property (`gateways[0].ipv4`). Warnings go to the call's log.
   */
  check(
    context: ProviderContext,
    olds: Inputs,
    news: Inputs,
    checkContext?: CheckContext,
  ): Promise<CheckAnswer>;
  /** Compares the stored state with the new, checked inputs. */
  diff(context: ProviderContext, id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer>;
  /** How diff compares the inputs: which replace, which are sets. */
  readonly diffPlan: DiffPlan;
  /** Outputs beyond the echoed inputs. */
  readonly outputs: readonly OutputField[];
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
}

/** A descriptor from what its resource file writes, with the defaults for what it leaves out. */
export function defineResource<
  State extends object,
  Type extends string,
  Schema extends z.ZodObject,
>(definition: ResourceDefinition<State, Type, Schema>): ResourceDescriptor<State, Type> {
  const { warnings, moreFailures, normalize, diff, ...rest } = definition;
  const schema = definition.inputSchema;
  const diffPlan = diffPlanOf(schema);
  if (definition.update === undefined) requireEveryInputReplaces(definition.type, diffPlan);
  const secretInputs = secretPaths(schema);
  const outputs = outputFieldsOf(definition.outputSchema);
  const given = definition.stateAfterCreate;
  const stateAfterCreate = given
    ? (id: string, news: Inputs) => given(id, checkedInputs(schema, news) as z.output<Schema>)
    : stateOfInputs(definition, outputs);
  const update = definition.update;
  const rules = {
    type: definition.type,
    schema,
    secretPaths: secretInputs,
    warnings: warnings ?? (() => []),
    moreFailures,
    normalize: (news: Inputs) => sortedSets(schema, normalize?.(news) ?? news),
  };
  return Object.freeze({
    ...rest,
    importId: definition.importId ?? defaultImportId(definition.type),
    create: (context: ProviderContext, news: Inputs, options?: CallOptions) =>
      definition.create(context, schema.parse(news) as z.output<Schema>, options),
    update: update
      ? (context: ProviderContext, id: string, olds: Inputs, news: Inputs, options?: CallOptions) =>
          update(context, id, olds, checkedInputs(schema, news) as z.output<Schema>, options)
      : recordInputs(stateAfterCreate),
    delete: definition.delete ?? staysOnPlatform(definition.type),
    stateAfterCreate,
    diffPlan,
    outputs,
    secretInputs,
    secretWireFields: secretWireFields(schema),
    check: (context: ProviderContext, _olds: Inputs, news: Inputs, checkContext?: CheckContext) =>
      checkResource(context, rules, news, checkContext),
    diff: (context: ProviderContext, id: string, olds: Inputs, news: Inputs) =>
      diff?.(context, id, olds, news, diffPlan) ??
      Promise.resolve(diffInputs(storedState(olds), news, diffPlan)),
  });
}

/** A resource without an update call must replace on every input, or a change would be lost. */
function requireEveryInputReplaces(type: string, plan: DiffPlan): void {
  const inPlace = plan.keys.filter((key) => !plan.replaceKeys.has(key));
  if (inPlace.length === 0) return;
  throw new Error(
    `${type}: ${inPlace.join(", ")} would change in place, but the resource has no update: ` +
      "give it an update, or mark every input replaceOnChange (`.meta({ replaceOnChange: true })` on its input schema)",
  );
}

/** What a create's answer need not tell: the checked inputs, and the outputs the id tells. */
function stateOfInputs<State extends object>(
  definition: ResourceDefinition<State, string, z.ZodObject>,
  outputs: readonly OutputField[],
): (id: string, news: Inputs) => Promise<State> {
  const outputNames = new Set(outputs.map((output) => output.name));
  return async (id, news) => {
    const told = Object.entries(definition.outputsFromId?.(id) ?? {});
    return {
      ...checkedInputs(definition.inputSchema, news),
      ...Object.fromEntries(told.filter(([name]) => outputNames.has(name))),
    } as State;
  };
}

/**
 * The update of a resource whose every input replaces it: only reached when nothing the platform
 * holds changes, so it records the new inputs over the stored state, without a call.
 */
function recordInputs<State extends object>(
  stateAfterCreate: (id: string, news: Inputs) => Promise<State>,
): (context: ProviderContext, id: string, olds: Inputs, news: Inputs) => Promise<State> {
  return async (_context, id, olds, news) => ({
    ...(storedState(olds) as State),
    ...(await stateAfterCreate(id, news)),
  });
}

/** The spec's resources have no delete call: the object outlives its resource. */
function staysOnPlatform(
  type: string,
): (context: ProviderContext, id: string, olds: Inputs, deleted: DeleteContext) => Promise<void> {
  return async (context, id, _olds, deleted) =>
    warnStaysOnPlatform(context.log, `${type} ${id}`, deleted);
}

function defaultImportId(type: string): string {
  return `the id the platform's create answered: \`pulumi import voiceplatform:index:${type} <name> <id>\``;
}

/**
 * A stored state as the handlers read it: any shape this package ever wrote. States carry no
 * version: the only shape so far, with or without the `stateVersion: 1` the first releases wrote;
 * a later shape would add a hidden `__stateVersion`.
 */
export function storedState(olds: Inputs): Inputs {
  const { stateVersion: _firstReleases, ...state } = olds;
  return state;
}

/** The state a resource's handlers produce: its inputs and outputs, as its schemas type them. */
export type StateOf<Inputs extends z.ZodType, Outputs extends z.ZodType> = z.output<Inputs> &
  z.output<Outputs>;

/** Names of the outputs whose values the given call's answer gives. */
export function outputsWrittenBy(
  descriptor: ResourceDescriptor<object>,
  call: "create" | "update",
): string[] {
  return descriptor.outputs
    .filter((output) => call === "create" || output.writtenBy === "create and update")
    .map((output) => output.name);
}
