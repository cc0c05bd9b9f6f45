/**
 * The dynamic provider's front end: the served resource (provider/core/served-resource) as
 * `@pulumi/pulumi/cmd/dynamic-provider` calls it. `__provider` and `__resource`, which the
 * resource classes set (core/hidden-properties.ts names them), are taken off every property bag on
 * the way in and put back where the engine needs them on the way out.
 *
 * The dynamic protocol passes a diff's `changes`, `replaces` and `deleteBeforeReplace` and nothing
 * else: no changed inputs, no detailed diff, no resource options, no URN. So:
 *
 * - `__resource` (set by the classes) carries the URN, for messages on the resource they concern,
 *   and the `ignoreChanges` and `replaceOnChanges` the diff and the calls honour;
 * - a diff with changes answers "unknown" when the engine's own comparison of the stored and new
 *   inputs sees a change too, and none of `__provider` or `__resource` (check, which sees both,
 *   records it by URN): the engine then computes the changed inputs and a detailed diff itself,
 *   shows `[diff: ~name]` and only the changed inputs, and applies `replaceOnChanges`, while the
 *   provider's `replaces` still decide. Otherwise it answers "some", and the engine shows the
 *   stored outputs against the new inputs: for a change only the provider sees (new content under
 *   the same sample path), and once after an upgrade of the package or a new URN, whose hidden
 *   inputs the engine would show.
 */
import type { Inputs, ResourceDescriptor } from "../core/resource-descriptor";
import { canonical } from "../core/diff";
import { servedResource } from "../core/served-resource";
import { withoutUndefined } from "../core/serializable";
import { IncompleteCreateError } from "../core/errors";
import { hidden, RESOURCE_KEY, withoutProvider } from "../core/hidden-properties";
import { InputError } from "../platform/errors";
import { readSettings } from "../settings/config";
import { processProviderStates, type ProviderStates } from "../settings/process-state";
import { inputChangesShown } from "./input-changes-shown";
import { providerContext, type ProviderContext } from "../core/provider-context";
import { providerLedger } from "../ledger/provider-ledger";
import { forwardConsoleToEngine, printToEngine } from "../plugin/engine-log";

export interface ResourceFacts {
  readonly urn: string;
  /** Why the resource cannot be registered as declared (an id given to adopt it): check fails with it. */
  readonly refused?: string;
  readonly ignoreChanges?: readonly string[];
  readonly replaceOnChanges?: readonly string[];
  /** Inputs the user marked secret that the package does not call secret (dynamic-class.ts). */
  readonly markedSecret?: readonly string[];
  /** Secret inputs the program gave as plain values, by path: read by the policy pack only. */
  readonly plainSecrets?: readonly string[];
}

function factsOf(bag: Inputs): ResourceFacts | undefined {
  const facts = bag[RESOURCE_KEY] as Partial<ResourceFacts> | undefined;
  return typeof facts?.urn === "string" ? (facts as ResourceFacts) : undefined;
}

/** The bag's `__resource`, which the outputs keep too: delete and read find the URN there. */
function resourceOf(bag: Inputs): Inputs {
  return bag[RESOURCE_KEY] === undefined ? {} : { [RESOURCE_KEY]: bag[RESOURCE_KEY] };
}

/**
 * What the engine's own comparison of the stored and new inputs will show for this resource: the
 * declared inputs that changed, or nothing usable when `__provider` or `__resource` changed too
 * (the engine would show those).
 */
function recordInputChanges(
  context: ProviderContext,
  urn: string,
  olds: Inputs,
  news: Inputs,
  checked: Inputs,
): void {
  const shown = inputChangesShown(context.states);
  if (canonical(hidden(olds)) !== canonical(hidden(news))) {
    shown.delete(urn);
    return;
  }
  const stored = withoutProvider(olds);
  const keys = new Set([...Object.keys(stored), ...Object.keys(checked)]);
  shown.set(
    urn,
    new Set([...keys].filter((key) => canonical(stored[key]) !== canonical(checked[key]))),
  );
}

let engineLogStarted = false;

/**
 * Inside the dynamic-provider process (started with the engine's address as its argument), what
 * the handlers print goes to the engine's log on the resource's URN. Elsewhere (a test calling
 * the handlers) the console stays as it is.
 */
function startEngineLog(): void {
  if (engineLogStarted) return;
  engineLogStarted = true;
  const main = require.main?.filename.replace(/\\/g, "/") ?? "";
  if (/\/cmd\/dynamic-provider(\/index\.js)?$/.test(main)) {
    // The process's own stderr would show it again, on the stack.
    forwardConsoleToEngine(process.argv[2], { stderr: "when-undelivered" });
  }
}

/**
 * Runs a handler with the call's context: its messages on the resource named by `bag`, when it
 * names one. Pulumi's dynamic-provider runtime calls the serialized `__provider` functions with
 * the engine's values only, no context, and loads the runtime entry once per process for one
 * provider: so the context is made from the process's own provider states, whose settings the
 * entry's `configure` (runtime.ts) wrote (the `states` dynamicHandlers is given by default).
 */
function onResource<T>(
  states: ProviderStates,
  bag: Inputs,
  work: (context: ProviderContext) => Promise<T>,
): Promise<T> {
  startEngineLog();
  const resource = factsOf(bag)?.urn ?? "";
  return work(providerContext({ states, resource, print: printToEngine }));
}

/**
 * A partly created resource's error, its properties given `__provider` and `__resource`: the
 * engine stores them as the resource's outputs, and delete and read run the provider found there,
 * so without it the recorded resource could never be destroyed.
 */
function withProviderKept(error: unknown, news: Inputs): never {
  if (error instanceof IncompleteCreateError) Object.assign(error.properties, hidden(news));
  throw error;
}

export function dynamicHandlers<State extends object>(
  descriptor: ResourceDescriptor<State>,
  states: ProviderStates = processProviderStates(),
) {
  // Dynamic resources never get preview creates or updates, so every state is the handlers' own.
  const served = servedResource(descriptor as ResourceDescriptor<object>, providerLedger);
  const outputs = (state: object, news: Inputs) => ({
    ...withoutUndefined(state as State),
    ...resourceOf(news),
  });
  return Object.freeze({
    check: (olds: Inputs, news: Inputs) =>
      onResource(states, news, async (context) => {
        const refused = factsOf(news)?.refused;
        if (refused !== undefined) {
          return { inputs: resourceOf(news), failures: [{ property: "", reason: refused }] };
        }
        // A bad setting fails the preview here, not the first call of the update.
        readSettings(context.settings);
        const answer = await served.check(context, withoutProvider(olds), withoutProvider(news), {
          markedSecret: factsOf(news)?.markedSecret,
        });
        // The engine puts `__provider` back into the inputs check returns; `__resource` is ours.
        const inputs = { ...answer.inputs, ...resourceOf(news) };
        const urn = factsOf(news)?.urn;
        if (urn !== undefined) recordInputChanges(context, urn, olds, news, answer.inputs);
        return { inputs, failures: answer.failures };
      }),
    diff: (id: string, olds: Inputs, news: Inputs) =>
      onResource(states, news, async (context) => {
        const facts = factsOf(news);
        const answer = await served.diff(
          context,
          id,
          withoutProvider(olds),
          withoutProvider(news),
          {
            ignoreChanges: facts?.ignoreChanges,
            replaceOnChanges: facts?.replaceOnChanges,
            markedSecret: facts?.markedSecret,
          },
        );
        const shown =
          facts === undefined ? undefined : inputChangesShown(context.states).get(facts.urn);
        // The engine shows its own comparison only when it finds every change this diff found.
        const showable = shown !== undefined && answer.diffs.every((key) => shown.has(key));
        return {
          // undefined: "unknown", the engine works out the details (see the top of this file).
          changes: answer.changes ? (showable ? undefined : true) : false,
          replaces: answer.replaces,
          deleteBeforeReplace: answer.deleteBeforeReplace,
        };
      }),
    create: (news: Inputs) =>
      onResource(states, news, (context) => {
        // Check refused it already: nothing reaches the platform for such a resource.
        const refused = factsOf(news)?.refused;
        if (refused !== undefined) return Promise.reject(new InputError(refused));
        return served.create(context, withoutProvider(news), false, factsOf(news)).then(
          ({ id, state }) => ({ id: id!, outs: outputs(state, news) }),
          (error: unknown) => withProviderKept(error, news),
        );
      }),
    update: (id: string, olds: Inputs, news: Inputs) =>
      onResource(states, news, (context) =>
        served
          .update(context, id, withoutProvider(olds), withoutProvider(news), false, factsOf(news))
          .then(
            (state) => ({ outs: outputs(state, news) }),
            (error: unknown) => withProviderKept(error, news),
          ),
      ),
    delete: (id: string, olds: Inputs) =>
      onResource(states, olds, (context) =>
        served.delete(context, id, withoutProvider(olds), factsOf(olds)),
      ),
    /** A refresh: what state holds, said to be kept as it was. */
    read: (id: string, props: Inputs) =>
      onResource(states, props, async (context) => {
        const read = await served.read(context, id, withoutProvider(props));
        return { id, props: { ...read.state, ...hidden(props) } };
      }),
  });
}
