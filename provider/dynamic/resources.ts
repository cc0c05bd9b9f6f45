/**
 * The resource classes a TypeScript program declares: dynamic resources, served by Pulumi's
 * Node.js dynamic-provider process, whose `__provider` is a one-line stub (provider-stubs.ts) that
 * loads the runtime entry. Inputs named secret by a definition are made secret here, so the engine
 * encrypts them (and the outputs of the same name) in state.
 *
 * They extend `CustomResource` and register what `pulumi.dynamic.Resource` would (its type token
 * and a `__provider` input), because that class serializes any provider through the closure
 * serializer's ~250-byte wrapper and adds a stack frame of its own, which would make every
 * resource's recorded source position this file instead of the program's line.
 *
 * The dynamic provider protocol carries none of a resource's options, and the provider does not
 * learn which resource a call is for. The classes see both, so they pass them in a hidden input
 * (`__resource`, see dynamic-adapter.ts): the URN, so messages land on the resource, and the
 * `ignoreChanges` and `replaceOnChanges` the provider's diff and calls honour. An id given to
 * adopt an object (`import`, `id`, `get`) cannot work, the protocol having no read: refused here,
 * pointing at the input that adopts it instead.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { topLevelOf } from "../core/secret-paths";
import type { SampleFacts } from "../platform/sample-files";
import { campaignWebhook } from "../resources/campaign-webhook";
import { sipCarrier } from "../resources/sip-carrier";
import { voice } from "../resources/voice";
import type { CampaignWebhookArgs, SipCarrierArgs, VoiceArgs, WebhookEvent } from "./args";
import { PROVIDER_KEY, RESOURCE_KEY, type ResourceFacts } from "./dynamic-adapter";
import { providerText, type StubKind } from "./provider-stubs";
import { InputError } from "../platform/errors";

/** The type token's module: `pulumi-nodejs:dynamic/voiceplatform:<type>`. Fixed: it is in every URN. */
const MODULE = "voiceplatform";

/**
 * The arguments of `CustomResource` for one resource: the dynamic type token; the declared
 * inputs with `__provider` and the descriptor's outputs left undefined; each given input holding
 * a secret at any depth made secret whole, as is the output of the same name.
 */
function dynamicArgs(
  definition: ResourceDescriptor<object>,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): ConstructorParameters<typeof pulumi.CustomResource> {
  for (const reserved of [PROVIDER_KEY, RESOURCE_KEY]) {
    if (reserved in args) {
      throw new InputError(
        `${definition.type} "${name}": ${reserved} is not an input; it is reserved for the dynamic provider. Remove it`,
      );
    }
  }
  const adoptedId = opts?.import ?? opts?.id;
  if (adoptedId !== undefined) throw adoptionByIdRefused(definition, name, adoptedId);
  const type = `pulumi-nodejs:dynamic/${MODULE}:${definition.type}`;
  const props: Record<string, unknown> = { ...args };
  for (const { name: key } of definition.outputs) props[key] = undefined;
  const secrets = topLevelOf(definition.secretInputs).filter((key) => props[key] !== undefined);
  for (const key of secrets) props[key] = pulumi.secret(props[key]);
  props[PROVIDER_KEY] = providerText(definition.type as StubKind);
  props[RESOURCE_KEY] = resourceFacts(type, name, opts);
  const options =
    secrets.length === 0
      ? opts
      : {
          ...opts,
          additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets],
        };
  return [type, name, props, options];
}

/** What the provider learns of the resource beside its inputs (see dynamic-adapter.ts). */
function resourceFacts(
  type: string,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.Output<ResourceFacts> {
  const { ignoreChanges, replaceOnChanges } = opts ?? {};
  return pulumi.createUrn(name, type, opts?.parent).apply((urn) => ({
    urn,
    ...(ignoreChanges?.length ? { ignoreChanges } : {}),
    ...(replaceOnChanges?.length ? { replaceOnChanges } : {}),
  }));
}

/** Why an id cannot adopt an object here, and the input that can. */
function adoptionByIdRefused(
  definition: ResourceDescriptor<object>,
  name: string,
  id: pulumi.Input<string>,
): InputError {
  const shown = typeof id === "string" ? id : "<id>";
  return new InputError(
    `${definition.type} "${name}": the dynamic resources cannot adopt an object by id (the \`import\` or \`id\` ` +
      "option, `get()`, `pulumi import`): Pulumi's dynamic provider protocol has no read. Declare the resource " +
      `with ${definition.adoptWith(shown)}, or use the plugin's resources (voiceplatform:index:${definition.type}), ` +
      "which import by id",
  );
}

/** `get()`, refused the same way: nothing can be read from the platform. */
function refuseGet(
  definition: ResourceDescriptor<object>,
  name: string,
  id: pulumi.Input<string>,
): never {
  throw adoptionByIdRefused(definition, name, id);
}

/** A voice cloned from audio samples, or an existing voice adopted with `existingVoiceId`. */
export class Voice extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly voiceId: pulumi.Output<string | undefined>;
  declare readonly organizationId: pulumi.Output<string | undefined>;
  declare readonly settings: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly ttsClient: pulumi.Output<string | undefined>;
  declare readonly supportedLocales: pulumi.Output<string[] | undefined>;
  declare readonly isMultilingual: pulumi.Output<boolean | undefined>;
  declare readonly clonedVoices: pulumi.Output<Record<string, unknown>[]>;
  declare readonly samples: pulumi.Output<SampleFacts[]>;

  constructor(name: string, args: VoiceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicArgs(voice, name, args, opts));
  }

  /** Refused: the dynamic resources cannot read an object by id; adopt it with existingVoiceId. */
  static get(name: string, id: pulumi.Input<string>): Voice {
    return refuseGet(voice, name, id);
  }
}

/** A SIP carrier (trunk) with registration credentials, gateways and phone numbers. */
export class SipCarrier extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly carrierId: pulumi.Output<string>;
  declare readonly registerPassword: pulumi.Output<string | undefined>;
  declare readonly gateways: pulumi.Output<Record<string, unknown>[] | undefined>;
  declare readonly phoneNumbers: pulumi.Output<Record<string, unknown>[] | undefined>;

  constructor(name: string, args: SipCarrierArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicArgs(sipCarrier, name, args, opts));
  }

  /** Refused: the dynamic resources cannot read an object by id; adopt it with existingCarrierId. */
  static get(name: string, id: pulumi.Input<string>): SipCarrier {
    return refuseGet(sipCarrier, name, id);
  }
}

/** A webhook subscribed to a campaign's post-processing events: a simple URL or a full advanced request. */
export class CampaignWebhook extends pulumi.CustomResource {
  declare readonly campaignId: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly events: pulumi.Output<WebhookEvent[] | undefined>;
  declare readonly advancedWebhook: pulumi.Output<Record<string, unknown> | undefined>;
  declare readonly status: pulumi.Output<string | undefined>;
  declare readonly data: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: CampaignWebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(...dynamicArgs(campaignWebhook, name, args, opts));
  }

  /** Refused: the dynamic resources cannot read an object by id; record it with alreadySubscribed. */
  static get(name: string, id: pulumi.Input<string>): CampaignWebhook {
    return refuseGet(campaignWebhook, name, id);
  }
}
