/**
 * The runtime entry (`pulumi-voice-platform/runtime`) that the serialized provider stubs load.
 * Stubs stored in old states call it too, so what it exports, and the state shapes its handlers
 * read, only ever grow.
 */
import { dynamicHandlers } from "./dynamic/dynamic-adapter";
import { campaignWebhook } from "./resources/campaign-webhook";
import { sipCarrier } from "./resources/sip-carrier";
import { voice } from "./resources/voice";
import { rememberEngineConfig } from "./settings/config";

export async function configure(req: {
  config: { get(key: string): string | undefined };
}): Promise<void> {
  rememberEngineConfig(req.config);
}

export const Voice = dynamicHandlers(voice);
export const SipCarrier = dynamicHandlers(sipCarrier);
export const CampaignWebhook = dynamicHandlers(campaignWebhook);
