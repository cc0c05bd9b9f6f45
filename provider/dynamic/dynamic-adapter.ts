/**
 * The dynamic provider's front end: adapts a resource definition to what
 * `@pulumi/pulumi/cmd/dynamic-provider` calls. Besides the resource classes, which set it, the
 * only place that knows `__provider`: it is taken off every property bag on the way in and put
 * back where the engine needs it on the way out. Every secret in the inputs is remembered before
 * anything can fail, and every error and failure leaves with secrets redacted.
 */
import { secretValues, type Inputs, type ResourceDefinition } from "../core/resource-definition";
import { withoutUndefined } from "../core/serializable";
import { IncompleteCreateError, rethrowRedacted } from "../platform/errors";
import { redactSecrets, rememberSecret } from "../platform/redaction";
import { readSettings } from "../settings/config";

/** Where the engine keeps the serialized provider, in inputs and outputs alike. */
export const PROVIDER_KEY = "__provider";

function withoutProvider(bag: Inputs): Inputs {
  const { [PROVIDER_KEY]: _provider, ...rest } = bag;
  return rest;
}

export function dynamicHandlers<State extends object>(definition: ResourceDefinition<State>) {
  const plain = (bag: Inputs) => {
    const inputs = withoutProvider(bag);
    secretValues(inputs, definition.secretInputs).forEach(rememberSecret);
    return inputs;
  };
  return Object.freeze({
    async check(olds: Inputs, news: Inputs) {
      // A bad setting fails the preview here, not the first call of the update.
      readSettings();
      // The engine puts `__provider` back into the inputs check returns.
      const result = await definition.check(plain(olds), plain(news)).catch(rethrowRedacted);
      return {
        inputs: result.inputs,
        failures: result.failures.map((f) => ({
          property: f.property,
          reason: redactSecrets(f.reason),
        })),
      };
    },
    diff: (id: string, olds: Inputs, news: Inputs) =>
      definition.diff(id, plain(olds), plain(news)).catch(rethrowRedacted),
    create: (news: Inputs) =>
      definition.create(plain(news)).then(
        ({ id, state }) => ({ id, outs: withoutUndefined(state) }),
        (error: unknown) => {
          // The engine stores these properties as the resource's outputs, and delete and read
          // run the provider found there: without it the recorded resource could never be destroyed.
          if (error instanceof IncompleteCreateError && news[PROVIDER_KEY] !== undefined)
            error.properties[PROVIDER_KEY] = news[PROVIDER_KEY];
          return rethrowRedacted(error);
        },
      ),
    update: (id: string, olds: Inputs, news: Inputs) =>
      definition
        .update(id, plain(olds), plain(news))
        .then((state) => ({ outs: withoutUndefined(state) }), rethrowRedacted),
    delete: (id: string, olds: Inputs) => definition.delete(id, plain(olds)).catch(rethrowRedacted),
  });
}
