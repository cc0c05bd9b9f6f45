/** The campaign webhook route (spec 4.4): a subscribe, on the campaigns' origin. */
import { z } from "zod";
import type { AdvancedWebhook, StoredSubscription } from "../control-types";
import { ErrorAnswer } from "../errors";
import { OBJECT_ID_PATTERN, newObjectId } from "../ids";
import { readLoggedJsonBody, type OperationHandler } from "../operation";
import type { KindRoutes, StoredObject } from "../routes";
import { parseWireBody } from "../wire-validation";

export const CAMPAIGN_EVENTS = [
  "POST_PROCESSING_FINISHED:INTERESTED",
  "POST_PROCESSING_FINISHED:NOT_INTERESTED",
  "POST_PROCESSING_FINISHED:CALL_ME_LATER",
  "POST_PROCESSING_FINISHED:WRONG_NUMBER",
  "POST_PROCESSING_FINISHED:DO_NOT_CALL",
] as const;

const nameValueSchema = z.strictObject({ name: z.string(), value: z.string() });

const advancedWebhookSchema: z.ZodType<AdvancedWebhook> = z.strictObject({
  url: z.string().optional(),
  method: z.string().optional(),
  headers: z.array(nameValueSchema).optional(),
  parameters: z.array(nameValueSchema).optional(),
  body: z.string().optional(),
});

export const subscribeSchema = z.strictObject({
  url: z.string().min(1),
  events: z.array(z.enum(CAMPAIGN_EVENTS)).optional(),
  isAdvanced: z.boolean().optional(),
  advancedWebhook: advancedWebhookSchema.optional(),
});

export const subscribeWebhook: OperationHandler = async (request) => {
  const campaignId = request.params.campaignId ?? "";
  if (!OBJECT_ID_PATTERN.test(campaignId)) {
    throw new ErrorAnswer(
      400,
      "invalid_campaign_id",
      `campaignId "${campaignId}" is not an ObjectId (24 hexadecimal characters).`,
      "campaignId",
    );
  }
  const input = parseWireBody(subscribeSchema, await readLoggedJsonBody(request));
  return {
    successStatus: 200,
    commit: () => {
      const subscription: StoredSubscription = {
        id: newObjectId(),
        campaignId,
        organizationId: request.caller.organization.id,
        subOrganizationId: request.caller.subOrganizationId,
        url: input.url,
        events: input.events ?? null,
        isAdvanced: input.isAdvanced ?? false,
        advancedWebhook: input.advancedWebhook ?? null,
      };
      request.store.save(kindRoutes.collection, subscription);
      return request.answers === "extended"
        ? { status: "success", data: true, subscriptionId: subscription.id }
        : { status: "success", data: true };
    },
  };
};

/** The state shows each campaign's subscriptions, in the order they were made. */
function byCampaign(objects: StoredObject[]): Record<string, StoredSubscription[]> {
  const shown: Record<string, StoredSubscription[]> = {};
  for (const subscription of objects as StoredSubscription[]) {
    (shown[subscription.campaignId] ??= []).push(subscription);
  }
  return shown;
}

export const kindRoutes: KindRoutes = {
  collection: "subscriptions",
  // Everything in an advanced webhook that can carry a token.
  secretFields: [
    "advancedWebhook.url",
    "advancedWebhook.body",
    "advancedWebhook.headers[].value",
    "advancedWebhook.parameters[].value",
  ],
  routes: [
    {
      origin: "campaigns",
      id: "webhook-subscribe",
      method: "POST",
      path: "/campaigns/:campaignId/webhook/subscribe",
      handler: subscribeWebhook,
    },
  ],
  snapshot: byCampaign,
  restore: (shown) => Object.values(shown as Record<string, StoredSubscription[]>).flat(),
};
