/**
 * The one layer both front ends serve a resource through: every secret of a call remembered before
 * anything can fail (the engine's credentials too), every error leaving redacted, every failure in
 * the form the engine prints, previews answered without a call, diffs in the engine's detailed
 * form with the program's `ignoreChanges` and `replaceOnChanges` applied, a partly created
 * resource kept when the update that finishes it fails, and import, `get` and refresh handled the
 * same way for the dynamic resources and the plugin. The front ends only translate their wire
 * format (`__provider`, gRPC structs) onto it.
 */
import { forEngine, type EngineFailureContext } from "./check";
import { IncompleteCreateError } from "./errors";
import { INCOMPLETE_CREATE, isIncompleteCreate } from "./hidden-properties";
import {
  canonical,
  diffAnswer,
  withoutIgnored,
  withReplaceOnChanges,
  type DiffAnswer,
  type DiffKind,
} from "./diff";
import { requiredInputNames } from "./field-facts";
import { noLedger, type ObjectFacts, type ObjectLedger } from "./object-ledger";
import { importIdProblem } from "./import-id";
import { plannedCreateState, plannedUpdateState } from "./planned-state";
import { parsePath, pathContains } from "./property-path";
import {
  endsReplacement,
  rememberDiffedInPlace,
  replacedByEngine,
  programChecked,
  rememberChecked,
  rememberCreated,
  rememberReplacing,
} from "./replacements";
import { warnWillStay } from "./provider-log";
import { withMarkedSecrets, type ProviderContext } from "./provider-context";
import { markedSecretValues, secretValues } from "./secret-paths";
import type { CallOptions, CheckAnswer, Inputs, ResourceDescriptor } from "./resource-descriptor";
import { InputError, rethrowRedacted } from "../platform/errors";
import { rememberSecret, rememberSecretWireFields } from "../platform/redaction";
import { engineCredentials, readSettings } from "../settings/config";
import { randomUUID } from "node:crypto";

/**
 * Marks the inputs of an object adopted by id without a read (import), for as long as the stack
 * holds it: a required input may be missing from them (the program has not declared it yet, or an
 * `ignoreChanges` keeps it out), since nothing could be read to fill it. Internal (`__`): the
 * engine shows it nowhere, and Pulumi's import leaves it out of the code it prints.
 */
export const ADOPTED = "__adopted";

/**
 * Marks the state of an object adopted by id while its adoption is open: the API has no read, so
 * only what the id tells is known, and each update records the inputs the program declares
 * without a call. The adoption closes with the update that records every required input (or
 * finds it named by `ignoreChanges`); from then on changes are what they are for any object. So
 * the code `pulumi import` generates (no input the id does not tell) can be pasted as it is, and
 * the inputs declared later are recorded, not a replacement. Earlier versions wrote
 * `importedWithoutRead`, which is read the same.
 */
export const IMPORTED_WITHOUT_READ = "__importedWithoutRead";
const FIRST_IMPORT_MARKER = "importedWithoutRead";

const importedWithoutRead = (olds: Inputs) =>
  olds[IMPORTED_WITHOUT_READ] === true || olds[FIRST_IMPORT_MARKER] === true;

/** A bag without the markers this layer adds: what the descriptors see. */
function unmarked(bag: Inputs): Inputs {
  const {
    [ADOPTED]: _adopted,
    [IMPORTED_WITHOUT_READ]: _imported,
    [FIRST_IMPORT_MARKER]: _first,
    [INCOMPLETE_CREATE]: _incomplete,
    ...rest
  } = bag;
  return rest;
}

/**
 * An update of a create's leftover state that failed: the object stays recorded with its id and
 * that state (created-object.ts), whichever engine step ran the update.
 */
function stillIncomplete(id: string, stored: Inputs, error: unknown): never {
  if (error instanceof IncompleteCreateError) throw error;
  throw new IncompleteCreateError(
    id,
    stored,
    error instanceof Error ? error : new Error(String(error)),
  );
}

/** How a warning names an object: its type, its resource's name where known, and its id. */
function objectNamed(type: string, urn: string, id: string): string {
  const name = urn === "" ? "" : ` "${urn.slice(urn.lastIndexOf("::") + 2)}"`;
  return `${type}${name} (${id})`;
}

/** The owning organization, where the platform's answer told it (a voice's `organizationId`). */
function organizationOf(state: object): { organization?: string } {
  const organization = (state as Inputs).organizationId;
  return typeof organization === "string" && organization !== "" ? { organization } : {};
}

/** The provider's sub-organization setting, or none when the settings cannot be read. */
function subOrganizationSetting(context: ProviderContext): string | undefined {
  try {
    return readSettings(context.settings).subOrganizationId;
  } catch {
    return undefined;
  }
}

/** What a read answers: the state, and the inputs to record when they are not the stored ones. */
export interface ReadAnswer {
  readonly state: Inputs;
  readonly inputs?: Inputs;
}

export interface ServedResource {
  readonly descriptor: ResourceDescriptor<object>;
  /** Failures come in the engine's form (see `forEngine`). */
  check(
    context: ProviderContext,
    olds: Inputs,
    news: Inputs,
    options?: CallOptions,
  ): Promise<CheckAnswer>;
  diff(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    news: Inputs,
    options?: CallOptions,
  ): Promise<DiffAnswer>;
  /** A preview gets the planned state and no id: nothing is sent. */
  create(
    context: ProviderContext,
    news: Inputs,
    preview?: boolean,
    options?: CallOptions,
  ): Promise<{ id?: string; state: object }>;
  update(
    context: ProviderContext,
    id: string,
    olds: Inputs,
    news: Inputs,
    preview?: boolean,
    options?: CallOptions,
  ): Promise<object>;
  delete(context: ProviderContext, id: string, olds: Inputs, options?: CallOptions): Promise<void>;
  /**
   * The API has no read. A refresh gets back what state holds, and says so; an import or a `get`
   * (an id and no state) gets what the id alone tells and the markers, so the update that follows
   * records the declared inputs without a call.
   */
  read(context: ProviderContext, id: string, state: Inputs): Promise<ReadAnswer>;
}

/**
 * `ledger` is where the objects this resource makes, adopts and lets go are recorded (the front
 * end's, provider/ledger/); none by default, as for the mocks and tests in process.
 */
export function servedResource(
  descriptor: ResourceDescriptor<object>,
  ledger: ObjectLedger = noLedger,
): ServedResource {
  /**
   * The secrets of a call's bags and the engine's credentials remembered, and the call run with
   * the ones the user marked in its context.
   */
  const withSecrets = <T>(
    context: ProviderContext,
    options: CallOptions,
    bags: Inputs[],
    work: (context: ProviderContext) => T,
  ): T => {
    rememberSecretWireFields(descriptor.secretWireFields);
    engineCredentials().forEach(rememberSecret);
    const marked = bags.flatMap((bag) =>
      markedSecretValues(bag, options.markedSecret ?? []).map(({ name, value }) => ({
        name: `${name} (marked secret)`,
        value,
      })),
    );
    bags.forEach((bag) => secretValues(bag, descriptor.secretInputs).forEach(rememberSecret));
    marked.forEach(({ value }) => rememberSecret(value));
    return work(withMarkedSecrets(context, marked));
  };
  const failureContextOf = (options: CallOptions): EngineFailureContext => ({
    inputNames: Object.keys(descriptor.inputSchema.shape),
    secretPaths: [...descriptor.secretInputs, ...(options.markedSecret ?? [])],
  });
  const label = (id: string) => `${descriptor.type} ${JSON.stringify(id)}`;
  const inputNames = Object.keys(descriptor.inputSchema.shape);
  return Object.freeze({
    descriptor,
    check(context: ProviderContext, olds: Inputs, news: Inputs, options: CallOptions = {}) {
      const adopted = olds[ADOPTED] === true || news[ADOPTED] === true;
      const [before, after] = [unmarked(olds), unmarked(news)];
      rememberChecked(context.states);
      return withSecrets(context, options, [before, after], async (call) => {
        const result = await descriptor
          .check(call, before, after, { olds: before, adopted, markedSecret: options.markedSecret })
          .catch(rethrowRedacted);
        return {
          inputs: adopted ? { ...result.inputs, [ADOPTED]: true } : result.inputs,
          failures: result.failures.map((f) =>
            // Reasons quote no secret: check shows "[secret]" for their values (core/check).
            forEngine(f, after, failureContextOf(options)),
          ),
        };
      });
    },
    diff(
      context: ProviderContext,
      id: string,
      olds: Inputs,
      news: Inputs,
      options: CallOptions = {},
    ) {
      const declared = unmarked(news);
      return withSecrets(context, options, [olds, declared], async (call) => {
        if (importedWithoutRead(olds)) return adoptionDiff(id, unmarked(olds), declared);
        let answer = await descriptor
          .diff(call, id, unmarked(olds), declared)
          .catch(rethrowRedacted);
        answer = withoutIgnored(answer, options.ignoreChanges ?? []);
        answer = withReplaceOnChanges(answer, options.replaceOnChanges ?? []);
        const urn = call.log.resource;
        if (answer.replaces.length > 0) {
          rememberReplacing(call.states, descriptor.type, id);
          warnWillStay(call.log, objectNamed(descriptor.type, urn, id));
        } else if (urn !== "") rememberDiffedInPlace(call.states, urn, id);
        return answer;
      });
    },
    create(context: ProviderContext, news: Inputs, preview = false, options: CallOptions = {}) {
      const declared = unmarked(news);
      return withSecrets(context, options, [declared], async (call) => {
        const urn = call.log.resource;
        if (preview) {
          // A replacement the engine chose after a diff in place: the old object stays too.
          const replaced = urn === "" ? undefined : replacedByEngine(call.states, urn);
          if (replaced !== undefined) {
            warnWillStay(call.log, objectNamed(descriptor.type, urn, replaced));
          }
          return { state: plannedCreateState(descriptor, declared) };
        }
        const operation = randomUUID();
        const object = factsOf(call, declared);
        if (urn !== "") await ledger.record(call, { event: "intent", operation, object });
        const created = await descriptor.create(call, declared, options).catch(async (error) => {
          // A create that made the object before it failed still hands its id to the engine.
          if (urn !== "" && error instanceof IncompleteCreateError) {
            await ledger.record(call, { event: "created", operation, id: error.id, object });
          }
          return rethrowRedacted(error);
        });
        if (urn !== "") {
          rememberCreated(call.states, urn);
          await ledger.record(call, {
            event: "created",
            operation,
            id: created.id,
            object: { ...object, ...organizationOf(created.state) },
          });
        }
        return created;
      });
    },
    update(
      context: ProviderContext,
      id: string,
      olds: Inputs,
      news: Inputs,
      preview = false,
      options: CallOptions = {},
    ) {
      const declared = unmarked(news);
      return withSecrets(context, options, [olds, declared], async (call) => {
        if (importedWithoutRead(olds)) {
          const state = preview
            ? plannedCreateState(descriptor, declared)
            : await descriptor.stateAfterCreate(id, declared).catch(rethrowRedacted);
          return adoptionOpen(declared, options)
            ? { ...state, [IMPORTED_WITHOUT_READ]: true }
            : state;
        }
        const stored = unmarked(olds);
        if (preview) return plannedUpdateState(descriptor, stored, declared);
        const finishing = isIncompleteCreate(olds);
        return descriptor
          .update(call, id, stored, declared, options)
          .catch((error: unknown) =>
            finishing ? stillIncomplete(id, stored, error) : rethrowRedacted(error),
          );
      });
    },
    delete(context: ProviderContext, id: string, olds: Inputs, options: CallOptions = {}) {
      return withSecrets(context, options, [olds], async (call) => {
        const urn = call.log.resource;
        const ending = endsReplacement(call.states, descriptor.type, id, urn);
        const context = { replacing: ending !== "no" };
        await descriptor.delete(call, id, unmarked(olds), context).catch(rethrowRedacted);
        if (urn === "") return;
        const how =
          ending === "deleteFirst"
            ? "deleteBeforeReplace"
            : ending === "after"
              ? "replaced"
              : programChecked(call.states)
                ? "removed"
                : "destroyed";
        const object = { ...factsOf(call, unmarked(olds)), ...organizationOf(olds) };
        await ledger.record(call, { event: "left", id, how, object });
      });
    },
    async read(context: ProviderContext, id: string, state: Inputs): Promise<ReadAnswer> {
      if (Object.keys(state).length > 0) {
        context.log.inform(
          `refresh kept ${label(id)} as the stack holds it: the platform has no read operation, ` +
            "so a change made on the platform is not detected",
        );
        return { state };
      }
      const problem = importIdProblem(descriptor, id, {});
      // Ids become path segments of later calls: refused here, before state holds one.
      if (problem !== undefined) {
        throw new InputError(
          `${label(id)} cannot be imported or looked up: the id ${problem}. Nothing was recorded`,
        );
      }
      const known = descriptor.outputsFromId?.(id) ?? {};
      const urn = context.log.resource;
      if (urn !== "")
        await ledger.record(context, { event: "adopted", id, object: factsOf(context, known) });
      const told = Object.keys(known);
      // What the id tells of the inputs (a webhook's campaignId) is all the code `pulumi import`
      // generates; the rest the program declares.
      const toldInputs = told.filter((key) => inputNames.includes(key));
      context.log.warn(
        `${label(id)} is looked up by id, but the platform has no read operation: ` +
          (told.length > 0
            ? `only ${told.join(", ")} (from the id) is known; `
            : "only the id is known; ") +
          "every other output stays empty. An import records the inputs the program declares, without a call: declare them as the platform holds them",
      );
      return {
        state: { ...known, [IMPORTED_WITHOUT_READ]: true },
        inputs: {
          ...Object.fromEntries(toldInputs.map((key) => [key, known[key]])),
          [ADOPTED]: true,
        },
      };
    },
  });

  /** What the ledger may hold of an object: its kind, URN, name and sub-organization, no secret. */
  function factsOf(context: ProviderContext, inputs: Inputs): ObjectFacts {
    const urn = context.log.resource;
    const name = inputs.name;
    const subOrganization = inputs.subOrganizationId ?? subOrganizationSetting(context);
    return {
      kind: descriptor.type,
      urn,
      ...(typeof name === "string" && !descriptor.secretInputs.includes("name") ? { name } : {}),
      ...(typeof subOrganization === "string" && subOrganization !== "" ? { subOrganization } : {}),
    };
  }

  /**
   * While an adoption is open: the update that records the declared inputs where they differ from
   * those recorded so far, none replacing; refused when the declared inputs cannot be the
   * object's, as `recover` refuses the same id.
   */
  function adoptionDiff(id: string, stored: Inputs, declared: Inputs): DiffAnswer {
    const problem = importIdProblem(descriptor, id, declared);
    if (problem !== undefined) {
      throw new InputError(
        `${label(id)} cannot be imported with these inputs: the id ${problem}. Nothing was recorded; fix the id or the inputs`,
      );
    }
    const changed = inputNames.flatMap((key): [string, { kind: DiffKind; replace: false }][] => {
      if (canonical(stored[key]) === canonical(declared[key])) return [];
      const kind =
        stored[key] === undefined ? "add" : declared[key] === undefined ? "delete" : "update";
      return [[key, { kind, replace: false }]];
    });
    return diffAnswer(Object.fromEntries(changed));
  }

  /**
   * Whether an adoption stays open after recording `declared`: a required input is neither
   * declared nor named by `ignoreChanges` (the program has not said it yet).
   */
  function adoptionOpen(declared: Inputs, options: CallOptions): boolean {
    const ignored = (options.ignoreChanges ?? []).map(parsePath);
    return requiredInputNames(descriptor.inputSchema).some(
      (key) =>
        declared[key] === undefined &&
        !ignored.some((path) => path !== undefined && pathContains(path, [key])),
    );
  }
}
