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
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { topLevelOf } from "../core/secret-paths";
import type { SampleFacts } from "../platform/sample-files";
import { campaignWebhook } from "../resources/campaign-webhook";
import { sipCarrier } from "../resources/sip-carrier";
import { voice } from "../resources/voice";
import type { CampaignWebhookArgs, SipCarrierArgs, VoiceArgs, WebhookEvent } from "./args";
import { PROVIDER_KEY } from "./dynamic-adapter";
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
  if (PROVIDER_KEY in args) {
    throw new InputError(
      `${definition.type} "${name}": ${PROVIDER_KEY} is not an input; it is reserved for the dynamic provider. Remove it`,
    );
  }
  const props: Record<string, unknown> = { ...args };
  for (const { name: key } of definition.outputs) props[key] = undefined;
  props.stateVersion = undefined;
  const secrets = topLevelOf(definition.secretInputs).filter((key) => props[key] !== undefined);
  for (const key of secrets) props[key] = pulumi.secret(props[key]);
  props[PROVIDER_KEY] = providerText(definition.type as StubKind);
  const options =
    secrets.length === 0
      ? opts
      : {
          ...opts,
          additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets],
        };
  return [`pulumi-nodejs:dynamic/${MODULE}:${definition.type}`, name, props, options];
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
}
