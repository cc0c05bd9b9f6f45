/**
 * The plugin's one view of the resources: for each type token, its zod input schema, the handlers
 * (the same redacting tables the dynamic runtime serves), the inputs that are secret, the outputs
 * that only the provider writes, and how an object adopted without a read is recorded.
 *
 * This is the only plugin file that knows where the resource modules live and what shapes their
 * handlers take; the gRPC server and the schema build on it alone.
 */
import type { z } from "zod";
import * as campaignWebhook from "../resources/campaign-webhook";
import type { Inputs } from "../core/check-inputs";
import { rememberEngineConfig, settingSources, type SettingName } from "../settings/config";
import * as runtime from "../runtime";
import { describeSample, type SampleInput } from "../platform/sample-files";
import * as sipCarrier from "../resources/sip-carrier";
import * as voice from "../resources/voice";

export type { Inputs } from "../core/check-inputs";

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface ResourceHandlers {
  check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Inputs,
    news: Inputs,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(news: Inputs): Promise<{ id: string; outs: unknown }>;
  update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: unknown }>;
  delete(id: string, olds: Inputs): Promise<void>;
}

/** A property the provider writes, beside the inputs it echoes back. */
export interface OutputProperty {
  readonly name: string;
  readonly description: string;
  /** A Pulumi schema type spec, written by hand: these outputs have no zod schema. */
  readonly type: Record<string, unknown>;
  /** Always present in a created resource's state. */
  readonly always?: boolean;
}

export interface ResourceDefinition {
  /** `voiceplatform:index:<name>` */
  readonly name: "Voice" | "SipCarrier" | "CampaignWebhook";
  readonly description: string;
  readonly inputs: z.ZodObject;
  readonly handlers: ResourceHandlers;
  /** Top-level inputs that are secret in state wherever they appear (inputs and outputs). */
  readonly secretInputs: readonly string[];
  readonly outputs: readonly OutputProperty[];
  /**
   * The state of an object adopted by id (import) with the declared inputs, written without a
   * call: the API has no read. Local files may be hashed, nothing is sent.
   */
  adopt(id: string, inputs: Inputs): Promise<Inputs>;
  /** Names for the object types nested in the inputs, by property path (`a.b`, arrays as items). */
  readonly objectTypes: Readonly<Record<string, string>>;
}

const anyObject = { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } };

export const resourceDefinitions: readonly ResourceDefinition[] = [
  {
    name: "Voice",
    description:
      "A voice cloned from audio samples, or an existing voice adopted with existingVoiceId.",
    inputs: voice.VoiceInputs as unknown as z.ZodObject,
    handlers: runtime.Voice,
    secretInputs: [],
    outputs: [
      {
        name: "stateVersion",
        description: "Version of the stored state's shape.",
        type: { type: "integer" },
        always: true,
      },
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
        description: "Synthesis settings as the platform answered them.",
        type: anyObject,
      },
      {
        name: "ttsClient",
        description: "Synthesis client the platform uses for the voice.",
        type: { type: "string" },
      },
      {
        name: "clonedVoices",
        description: "Every voice the clone answered with, as the API gave them.",
        type: { type: "array", items: anyObject },
        always: true,
      },
      {
        name: "samples",
        description: "Name, sha256 and size of each uploaded sample, in upload order.",
        type: { type: "array", items: { $ref: "#/types/voiceplatform:index:VoiceSample" } },
        always: true,
      },
    ],
    async adopt(id, inputs) {
      const files = Array.isArray(inputs.files) ? (inputs.files as SampleInput[]) : [];
      const samples = await Promise.all(files.map(describeSample));
      return { ...voice.toVoiceState(inputs as voice.VoiceInputs, { id }, [], samples) };
    },
    objectTypes: {},
  },
  {
    name: "SipCarrier",
    description:
      "A SIP carrier (trunk) with registration credentials, gateways and phone numbers. The API has no update, so changing any input replaces it.",
    inputs: sipCarrier.SipCarrierInputs as unknown as z.ZodObject,
    handlers: runtime.SipCarrier,
    secretInputs: ["registerPassword"],
    outputs: [
      {
        name: "stateVersion",
        description: "Version of the stored state's shape.",
        type: { type: "integer" },
        always: true,
      },
      {
        name: "carrierId",
        description: "The carrier's id on the platform.",
        type: { type: "string" },
        always: true,
      },
    ],
    async adopt(id, inputs) {
      return { ...inputs, stateVersion: 1, carrierId: id };
    },
    objectTypes: { gateways: "SipGateway", phoneNumbers: "SipPhoneNumber" },
  },
  {
    name: "CampaignWebhook",
    description:
      "A webhook subscribed to a campaign's post-processing events: a simple URL or a full advanced request. The API has no update, so any change replaces it.",
    inputs: campaignWebhook.CampaignWebhookInputs as unknown as z.ZodObject,
    handlers: runtime.CampaignWebhook,
    secretInputs: ["advancedWebhook"],
    outputs: [
      {
        name: "stateVersion",
        description: "Version of the stored state's shape.",
        type: { type: "integer" },
        always: true,
      },
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
    async adopt(_id, inputs) {
      return { ...inputs, stateVersion: 1 };
    },
    objectTypes: {
      events: "WebhookEvent",
      advancedWebhook: "AdvancedWebhook",
      "advancedWebhook.headers": "WebhookPair",
      "advancedWebhook.parameters": "WebhookPair",
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
