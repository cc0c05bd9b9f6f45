/**
 * What the generated resource classes (resources.ts, written by `npm run args`) share: dynamic
 * resources, served by Pulumi's Node.js dynamic-provider process, whose `__provider` is a one-line
 * stub (provider-stubs.ts) that loads the runtime entry. Inputs named secret by a descriptor are
 * made secret here, so the engine encrypts them (and the outputs of the same name) in state.
 *
 * The classes extend `CustomResource` and register what `pulumi.dynamic.Resource` would (its type
 * token and a `__provider` input), because that class serializes any provider through the closure
 * serializer's ~250-byte wrapper and adds a stack frame of its own, which would make every
 * resource's recorded source position this package instead of the program's line.
 *
 * The dynamic provider protocol carries none of a resource's options, and the provider does not
 * learn which resource a call is for. The classes see both, so they pass them in a hidden input
 * (`__resource`, see dynamic-adapter.ts): the URN, so messages land on the resource, the
 * `ignoreChanges` and `replaceOnChanges` the provider's diff and calls honour, and the names of
 * inputs the user marked secret that the package does not call secret (the engine strips the
 * marker before a dynamic provider sees them), so their values stay out of messages. An id given to
 * adopt an object (`import`, `id`, `get`) cannot work, the protocol having no read: the option is
 * not passed on, and the refusal, pointing at the input that adopts the object instead, rides in
 * `__resource` for the provider's check to fail the preview with, on the resource, like any bad
 * input (a throw here would print as the program's unhandled exception, with its stack).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { topLevelOf } from "../core/secret-paths";
import { InputError } from "../platform/errors";
import { descriptorOf, type ResourceKind, type resources } from "../resources";
import { PROVIDER_KEY, RESOURCE_KEY } from "../core/hidden-properties";
import type { ResourceFacts } from "./dynamic-adapter";
import { providerText } from "./provider-stubs";

/** The type token's module: `pulumi-nodejs:dynamic/voiceplatform:<type>`. Fixed: it is in every URN. */
const MODULE = "voiceplatform";

/** What a resource of a kind stores: its inputs and outputs, as its descriptor types them. */
export type StateOfKind<Kind extends ResourceKind> =
  Extract<(typeof resources)[number], { readonly type: Kind }> extends ResourceDescriptor<
    infer State,
    Kind
  >
    ? State
    : never;

/**
 * The arguments of `CustomResource` for one resource: the dynamic type token; the declared
 * inputs with `__provider` and the descriptor's outputs left undefined; each given input holding
 * a secret at any depth made secret whole, as is the output of the same name.
 */
export function dynamicArgs(
  kind: ResourceKind,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): ConstructorParameters<typeof pulumi.CustomResource> {
  const descriptor = descriptorOf(kind);
  for (const reserved of [PROVIDER_KEY, RESOURCE_KEY]) {
    if (reserved in args) {
      throw new InputError(
        `${kind} "${name}": ${reserved} is not an input; it is reserved for the dynamic provider. Remove it`,
      );
    }
  }
  const { import: importId, id: readId, ...kept } = opts ?? {};
  const adoptedId = importId ?? readId;
  const refused = adoptedId === undefined ? undefined : adoptionByIdRefused(descriptor, adoptedId);
  const type = `pulumi-nodejs:dynamic/${MODULE}:${kind}`;
  const props: Record<string, unknown> = { ...args };
  for (const { name: key } of descriptor.outputs) props[key] = undefined;
  const secrets = topLevelOf(descriptor.secretInputs).filter((key) => props[key] !== undefined);
  for (const key of secrets) props[key] = pulumi.secret(props[key]);
  props[PROVIDER_KEY] = providerText(kind);
  const plain = plainSecretsOf(args as Record<string, unknown>, descriptor.secretInputs);
  props[RESOURCE_KEY] = resourceFacts(
    type,
    name,
    kept,
    markedSecretOf(args, secrets),
    plain,
    refused,
  );
  const options =
    secrets.length === 0
      ? kept
      : {
          ...kept,
          additionalSecretOutputs: [...(kept.additionalSecretOutputs ?? []), ...secrets],
        };
  return [type, name, props, options];
}

/**
 * The given inputs holding a secret at any depth that the package does not make secret itself:
 * what the user marked (`name: pulumi.secret(...)`).
 */
async function markedSecretOf(args: object, packageSecrets: readonly string[]): Promise<string[]> {
  const marked = await Promise.all(
    Object.entries(args).map(async ([key, value]) =>
      value !== undefined &&
      !packageSecrets.includes(key) &&
      (await pulumi.isSecret(pulumi.output(value)))
        ? key
        : undefined,
    ),
  );
  return marked.filter((key): key is string => key !== undefined);
}

/**
 * The secret inputs the program gave as plain values (a literal, or an output not secret), by the
 * path it wrote (`advancedWebhook.headers[0].value`): the package makes every secret input secret
 * below, so only here can the policy pack's secrets-from-secret-config rule learn which were
 * plain. Below an output that is not secret the path is not followed (that would wait on its value).
 */
async function plainSecretsOf(
  args: Record<string, unknown>,
  patterns: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  const isPlain = async (value: unknown) =>
    !pulumi.Output.isInstance(value) || !(await pulumi.isSecret(value));
  const walk = async (holder: Record<string, unknown>, segments: readonly string[], at: string) => {
    const [head, ...rest] = segments as [string, ...string[]];
    const list = head.endsWith("[]");
    const key = list ? head.slice(0, -2) : head;
    const value = holder[key];
    const path = at === "" ? key : `${at}.${key}`;
    if (value === undefined || value === null) return;
    if (rest.length === 0) {
      if (await isPlain(value)) found.push(path);
      return;
    }
    if (pulumi.Output.isInstance(value) || value instanceof Promise) return;
    const children: [unknown, string][] = list
      ? (Array.isArray(value) ? value : []).map((item, index) => [item, `${path}[${index}]`])
      : [[value, path]];
    for (const [child, childPath] of children) {
      if (child !== null && typeof child === "object" && !pulumi.Output.isInstance(child))
        await walk(child as Record<string, unknown>, rest, childPath);
    }
  };
  for (const pattern of patterns) await walk(args, pattern.split("."), "");
  return found;
}

/** What the provider learns of the resource beside its inputs (see dynamic-adapter.ts). */
function resourceFacts(
  type: string,
  name: string,
  opts: pulumi.CustomResourceOptions,
  markedSecret: Promise<string[]>,
  plainSecrets: Promise<string[]>,
  refused: string | undefined,
): pulumi.Output<ResourceFacts> {
  const { ignoreChanges, replaceOnChanges } = opts;
  return pulumi
    .all([pulumi.createUrn(name, type, opts.parent), markedSecret, plainSecrets])
    .apply(([urn, marked, plain]) => ({
      urn,
      ...(ignoreChanges?.length ? { ignoreChanges } : {}),
      ...(replaceOnChanges?.length ? { replaceOnChanges } : {}),
      ...(marked.length ? { markedSecret: marked } : {}),
      ...(plain.length ? { plainSecrets: plain } : {}),
      ...(refused === undefined ? {} : { refused }),
    }));
}

/** Why an id cannot adopt an object here, and the input that can (the engine names the resource). */
function adoptionByIdRefused(
  descriptor: ResourceDescriptor<object>,
  id: pulumi.Input<string>,
): string {
  const shown = typeof id === "string" ? id : "<id>";
  return (
    "the dynamic resources cannot adopt an object by id (the `import` or `id` option, `get()`, `pulumi import`): " +
    "Pulumi's dynamic provider protocol has no read, so nothing was recorded and nothing sent. " +
    (descriptor.adoptWith === undefined
      ? "Use"
      : `Declare the resource with ${descriptor.adoptWith(shown)}, or use`) +
    ` the plugin's resources (voiceplatform:index:${descriptor.type}), which import by id`
  );
}
