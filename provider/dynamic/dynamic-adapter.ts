/**
 * The dynamic provider's front end: the served resource (provider/core/served-resource) as
 * `@pulumi/pulumi/cmd/dynamic-provider` calls it. Besides the resource classes, which set it, the
 * only place that knows `__provider`: it is taken off every property bag on the way in and put
 * back where the engine needs it on the way out.
 */
import type { Inputs, ResourceDescriptor } from "../core/resource-descriptor";
import { servedResource } from "../core/served-resource";
import { withoutUndefined } from "../core/serializable";
import { IncompleteCreateError } from "../platform/errors";
import { readSettings } from "../settings/config";

/** Where the engine keeps the serialized provider, in inputs and outputs alike. */
export const PROVIDER_KEY = "__provider";

export function withoutProvider(bag: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, ...rest } = bag;
  return rest;
}

export function dynamicHandlers<State extends object>(descriptor: ResourceDescriptor<State>) {
  // Dynamic resources never get preview creates or updates, so every state is the handlers' own.
  const served = servedResource(descriptor as ResourceDescriptor<object>);
  return Object.freeze({
    async check(olds: Inputs, news: Inputs) {
      // A bad setting fails the preview here, not the first call of the update.
      readSettings();
      // The engine puts `__provider` back into the inputs check returns.
      return served.check(withoutProvider(olds), withoutProvider(news));
    },
    diff: (id: string, olds: Inputs, news: Inputs) =>
      served.diff(id, withoutProvider(olds), withoutProvider(news)),
    create: (news: Inputs) =>
      served.create(withoutProvider(news)).then(
        ({ id, state }) => ({ id: id!, outs: withoutUndefined(state as State) }),
        (error: unknown) => {
          // The engine stores these properties as the resource's outputs, and delete and read
          // run the provider found there: without it the recorded resource could never be destroyed.
          if (error instanceof IncompleteCreateError && news[PROVIDER_KEY] !== undefined)
            error.properties[PROVIDER_KEY] = news[PROVIDER_KEY];
          throw error;
        },
      ),
    update: (id: string, olds: Inputs, news: Inputs) =>
      served
        .update(id, withoutProvider(olds), withoutProvider(news))
        .then((state) => ({ outs: withoutUndefined(state as State) })),
    delete: (id: string, olds: Inputs) => served.delete(id, withoutProvider(olds)),
  });
}
