/**
 * The plugin's one view of the resources: each core definition (provider/core/resource-definition)
 * with the handlers wrapped as every front end must (secrets remembered before anything can fail,
 * errors and failures leaving redacted), plus what the schema needs beyond the inputs: the
 * outputs only the provider writes, and names for nested types.
 *
 * The gRPC server and the schema build on this file alone.
 */
import {
  secretValues,
  type CheckAnswer,
  type DiffAnswer,
  type Inputs,
  type ResourceDefinition,
} from "../core/resource-definition";
import { rethrowRedacted } from "../platform/errors";
import { redactSecrets, rememberSecret } from "../platform/redaction";
import { campaignWebhook } from "../resources/campaign-webhook";
import { sipCarrier } from "../resources/sip-carrier";
import { voice } from "../resources/voice";
import {
  campaignWebhookExample,
  examplesSection,
  sipCarrierExample,
  voiceExample,
  type ResourceExample,
} from "./resource-examples";
import { rememberEngineConfig, settingSources, type SettingName } from "../settings/config";

export type { CheckFailure, Inputs } from "../core/resource-definition";

/** A property the provider writes, beside the inputs it echoes back. */
export interface OutputProperty {
  readonly name: string;
  readonly description: string;
  /** A Pulumi schema type spec, written by hand: these outputs have no zod schema. */
  readonly type: Record<string, unknown>;
  /** Always present in a created resource's state. */
  readonly always?: boolean;
}

export interface PluginResource {
  readonly definition: ResourceDefinition<object>;
  readonly description: string;
  readonly outputs: readonly OutputProperty[];
  /** Names for the object and enum types nested in the inputs, by property path (`a.b`). */
  readonly objectTypes: Readonly<Record<string, string>>;
}

/**
 * Every resource's state says which shape it is, so later versions can read older ones. Internal:
 * not a required output, so no SDK makes programs depend on it.
 */
const stateVersion: OutputProperty = {
  name: "stateVersion",
  description: "Version of the stored state's shape (internal to the provider).",
  type: { type: "integer" },
};

/**
 * A resource's description: what it is, an example in each SDK's language, and how to import it
 * (every SDK's docstring shows all three).
 */
function describeResource(summary: string, example: ResourceExample, importId: string): string {
  return [
    summary,
    "",
    examplesSection(example),
    "",
    "## Import",
    "",
    `The API has no read: an import adopts the id and the next update records the declared inputs, without a call. The id is ${importId}.`,
    "",
    "For the same reason, looking the resource up by id (\`get\` in the SDKs) returns the id and no other property: nothing can be read from the platform.",
  ].join("\n");
}

export const pluginResources: readonly PluginResource[] = [
  {
    definition: voice as ResourceDefinition<object>,
    description: describeResource(
      "A voice cloned from audio samples, or an existing voice adopted with existingVoiceId.",
      voiceExample,
      "the voice record's `id` (the one the update path takes): `pulumi import voiceplatform:index:Voice support-voice <id>`",
    ),
    outputs: [
      stateVersion,
      {
        name: "voiceId",
        description: "The voice's id at the synthesis provider.",
        type: { type: "string" },
      },
      {
        name: "organizationId",
        description: "Organization that owns the voice.",
        type: { type: "string" },
      },
      {
        name: "settings",
        description:
          "Synthesis settings as the platform answered them: the spec shows `stability` and `style`. Other keys the platform answers are kept in state and shown by the TypeScript SDK.",
        type: { $ref: "#/types/voiceplatform:index:VoiceSettings" },
      },
      {
        name: "ttsClient",
        description: "Synthesis client the platform uses for the voice.",
        type: { type: "string" },
      },
      {
        name: "clonedVoices",
        description: "Every voice the clone answered with, as the API gave them.",
        type: { type: "array", items: { $ref: "#/types/voiceplatform:index:ClonedVoice" } },
        always: true,
      },
      {
        name: "samples",
        description: "Name, sha256 and size of each uploaded sample, in upload order.",
        type: { type: "array", items: { $ref: "#/types/voiceplatform:index:VoiceSample" } },
        always: true,
      },
    ],
    objectTypes: {},
  },
  {
    definition: sipCarrier as ResourceDefinition<object>,
    description: describeResource(
      "A SIP carrier (trunk) with registration credentials, gateways and phone numbers. The API has no update, so changing any input replaces it.",
      sipCarrierExample,
      "the carrier's id as the create answered it: `pulumi import voiceplatform:index:SipCarrier main-trunk <id>`",
    ),
    outputs: [
      stateVersion,
      {
        name: "carrierId",
        description: "The carrier's id on the platform.",
        type: { type: "string" },
        always: true,
      },
    ],
    objectTypes: { gateways: "SipGateway", phoneNumbers: "SipPhoneNumber" },
  },
  {
    definition: campaignWebhook as ResourceDefinition<object>,
    description: describeResource(
      "A webhook subscribed to a campaign's post-processing events: a simple URL or a full advanced request. The API has no update, so any change replaces it.",
      campaignWebhookExample,
      "not the platform's (the API returns none): `<campaignId>/<16 hex>`, derived from the inputs; `pulumi-voice-platform preflight` prints it for an interrupted create",
    ),
    outputs: [
      stateVersion,
      {
        name: "status",
        description: "What the subscribe answered; absent for a recorded subscription.",
        type: { type: "string" },
      },
      {
        name: "data",
        description: "What the subscribe answered; absent for a recorded subscription.",
        type: { type: "boolean" },
      },
    ],
    objectTypes: {
      events: "WebhookEvent",
      advancedWebhook: "AdvancedWebhook",
      "advancedWebhook.headers": "WebhookHeader",
      "advancedWebhook.parameters": "WebhookParameter",
    },
  },
];

/** Provider inputs by name: their stack config key and environment variable, as the runtime reads them. */
export const providerInputSources: Readonly<Record<SettingName, { key: string; env: string }>> =
  settingSources;

/**
 * Hands the provider's checked inputs to the runtime's one configuration reader, under the stack
 * config keys it knows. Environment variables stay the fallback for inputs left out, read at call time.
 */
export function configureRuntime(inputs: Readonly<Record<string, string | undefined>>): void {
  const byKey = new Map<string, string | undefined>();
  for (const [name, { key }] of Object.entries(settingSources)) byKey.set(key, inputs[name]);
  rememberEngineConfig({ get: (key) => byKey.get(key) });
}

/** The definition's handlers as the plugin calls them: secrets remembered, messages redacted. */
export function redactingHandlers(definition: ResourceDefinition<object>) {
  const remember = (...bags: Inputs[]) =>
    bags.forEach((bag) => secretValues(bag, definition.secretInputs).forEach(rememberSecret));
  return {
    async check(olds: Inputs, news: Inputs): Promise<CheckAnswer> {
      remember(olds, news);
      const result = await definition.check(olds, news).catch(rethrowRedacted);
      return {
        inputs: result.inputs,
        failures: result.failures.map((f) => ({ ...f, reason: redactSecrets(f.reason) })),
      };
    },
    diff(id: string, olds: Inputs, news: Inputs): Promise<DiffAnswer> {
      remember(olds, news);
      return definition.diff(id, olds, news).catch(rethrowRedacted);
    },
    create(news: Inputs): Promise<{ id: string; state: object }> {
      remember(news);
      return definition.create(news).catch(rethrowRedacted);
    },
    update(id: string, olds: Inputs, news: Inputs): Promise<object> {
      remember(olds, news);
      return definition.update(id, olds, news).catch(rethrowRedacted);
    },
    delete(id: string, olds: Inputs): Promise<void> {
      remember(olds);
      return definition.delete(id, olds).catch(rethrowRedacted);
    },
    /** An object adopted by id (import) with the declared inputs, recorded without a call. */
    adopt(id: string, news: Inputs): Promise<object> {
      remember(news);
      return definition.stateAfterCreate(id, news).catch(rethrowRedacted);
    },
  };
}
