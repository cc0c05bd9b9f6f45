import { randomUUID } from "node:crypto";
import { z } from "zod";
import { stateOfCreated } from "../core/created-object";
import { diffInputs } from "../core/diff";
import { withFieldsRules } from "../core/declared-rules";
import { requestBody } from "../core/field-facts";
import {
  absoluteUrl,
  headerName,
  headerValue,
  objectId,
  subOrganizationId,
  text,
} from "../core/input-rules";
import { filledIn, LEDGER_KEEPS_IT, type ProviderLog } from "../core/provider-log";
import {
  defineResource,
  storedState,
  type Inputs,
  type ProviderContext,
  type StateOf,
} from "../core/resource-descriptor";
import { namedSecretValues } from "../core/secret-paths";
import { pathSegment } from "../platform/http-client";

/** The five event kinds of section 6. */
export const webhookEvents = [
  "POST_PROCESSING_FINISHED:INTERESTED",
  "POST_PROCESSING_FINISHED:NOT_INTERESTED",
  "POST_PROCESSING_FINISHED:CALL_ME_LATER",
  "POST_PROCESSING_FINISHED:WRONG_NUMBER",
  "POST_PROCESSING_FINISHED:DO_NOT_CALL",
] as const;

const WebhookHeader = z
  .strictObject({
    name: headerName.meta({ description: "Name of the header.", wire: "name" }),
    value: headerValue.meta({
      description: "Its value; it can carry a token.",
      wire: "value",
      secret: true,
    }),
  })
  .meta({ typeName: "WebhookHeader", description: "A header of the outgoing request." });
const WebhookParameter = z
  .strictObject({
    name: text.meta({ description: "Name of the query parameter.", wire: "name" }),
    value: z
      .string()
      .meta({ description: "Its value; it can carry a token.", wire: "value", secret: true }),
  })
  .meta({
    typeName: "WebhookParameter",
    description: "A query parameter of the outgoing request.",
  });

/** Everything in an advanced webhook that can carry a token is secret: the URL, values, the body. */
const AdvancedWebhook = z
  .strictObject({
    url: absoluteUrl.meta({
      description: "Target URL; it can carry a token.",
      wire: "url",
      secret: true,
    }),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, "must be an HTTP method such as GET")
      .optional()
      .meta({ description: "HTTP method of the outgoing request, e.g. GET.", wire: "method" }),
    headers: z
      .array(WebhookHeader)
      .optional()
      .meta({ description: "Headers of the outgoing request.", wire: "headers" }),
    parameters: z
      .array(WebhookParameter)
      .optional()
      .meta({ description: "Query parameters of the outgoing request.", wire: "parameters" }),
    body: z
      .string()
      .optional()
      .meta({ description: "Body of the outgoing request.", wire: "body", secret: true }),
  })
  .meta({ typeName: "AdvancedWebhook" });

/**
 * The inputs as the provider receives them, validated; the subscribe body (section 4.4) names
 * them as they are. There is no update operation, so every input replaces the subscription.
 */
export const CampaignWebhookInputs = withFieldsRules(
  z.strictObject({
    campaignId: objectId.meta({
      description: "The campaign's ObjectId (24 hexadecimal characters).",
      toldById: true,
    }),
    url: absoluteUrl.meta({ description: "URL that is called.", wire: "url" }),
    events: z
      .array(
        z.enum(webhookEvents).meta({
          typeName: "WebhookEvent",
          description: "A post-processing outcome a webhook can subscribe to.",
        }),
      )
      .optional()
      .meta({ description: "Events to subscribe to.", wire: "events", set: true }),
    isAdvanced: z.boolean().optional().meta({
      description: "Whether advancedWebhook describes the outgoing request.",
      wire: "isAdvanced",
    }),
    advancedWebhook: AdvancedWebhook.optional().meta({
      description: "The outgoing request, for an advanced webhook.",
      wire: "advancedWebhook",
    }),
    alreadySubscribed: z
      .boolean()
      .optional()
      .describe(
        "Record an existing subscription without calling the API (the API can neither read nor list one).",
      ),
    subOrganizationId: subOrganizationId
      .optional()
      .describe("Sub-organization to act for; defaults to voiceplatform:subOrganizationId."),
  }),
  [
    {
      rule: "requiredWhen",
      field: "advancedWebhook",
      when: "isAdvanced",
      message:
        "is required when isAdvanced is true: describe the outgoing request, or set isAdvanced to false",
    },
    // An advancedWebhook unknown during preview may still turn out to be left out.
    {
      rule: "trueBeside",
      field: "isAdvanced",
      beside: "advancedWebhook",
      message:
        "must be true when advancedWebhook is given, or the platform ignores the request description: set isAdvanced: true",
    },
  ],
).meta({ replaceOnChange: true });
export type CampaignWebhookInputs = z.infer<typeof CampaignWebhookInputs>;

/** What the provider writes beside the inputs. */
const CampaignWebhookOutputs = z.object({
  status: z.string().optional().meta({
    description: "What the subscribe answered; absent for a recorded subscription.",
    writtenBy: "create",
  }),
  data: z.boolean().optional().meta({
    description: "What the subscribe answered; absent for a recorded subscription.",
    writtenBy: "create",
  }),
});

/** What the resource stores; status and data are absent for a subscription recorded with alreadySubscribed. */
export type CampaignWebhookState = StateOf<
  typeof CampaignWebhookInputs,
  typeof CampaignWebhookOutputs
>;

/** The only answer that confirms a subscription. */
const SubscribeAnswer = z.looseObject({ status: z.literal("success"), data: z.literal(true) });

/** The subscribe body (section 4.4), named as the inputs' wire facts say. */
export function toSubscribeBody(inputs: CampaignWebhookInputs): Record<string, unknown> {
  return requestBody(CampaignWebhookInputs, inputs);
}

/**
 * The API returns no id, so the provider makes one up at create: the campaign's ObjectId and a
 * random UUID. It tells nothing about any input but the campaign, which is not secret.
 */
export function newWebhookId(campaignId: string): string {
  return `${campaignId.toLowerCase()}/${randomUUID()}`;
}

/** A webhook's id: the campaign's ObjectId, a slash, a UUID in lower case. */
export const WEBHOOK_ID =
  /^([0-9a-f]{24})\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The id earlier builds wrote: the campaign and 16 hex digits of a sha256 over the inputs,
 * secret ones included, so it told a guesser when a guess of a short secret was right. Such an
 * id keeps working; `pulumi-voice-platform rekey` replaces it.
 */
export const DERIVED_WEBHOOK_ID = /^([0-9a-f]{24})\/[0-9a-f]{16}$/;

/** The campaign id in lower case (events are a set: sorted by their fact). */
function normalizeCampaignId(news: Inputs): Inputs {
  return typeof news.campaignId === "string" && /^[0-9a-fA-F]{24}$/.test(news.campaignId)
    ? { ...news, campaignId: news.campaignId.toLowerCase() }
    : news;
}

/** The webhook's warnings, as data the Python SDK's mocks read too (codegen/python-input-check.ts). */
export const CAMPAIGN_WEBHOOK_WARNINGS = {
  says: {
    plainUrl: "{at}: url {url} is not https; call outcomes would travel unencrypted",
    noEvents: "{at}: events is empty; the platform does not say what an empty list subscribes to",
    plainAdvancedUrl: "{at}: advancedWebhook.url is not https",
    notGet:
      '{at}: advancedWebhook.method "{method}" is not GET, the only method the platform lists',
    bodyOnGet: "{at}: advancedWebhook.body is set on a GET request; many servers ignore a GET body",
  },
} as const;

/** Common webhook practice, not the spec: said, never enforced. */
function campaignWebhookWarnings(inputs: CampaignWebhookInputs): string[] {
  const { says } = CAMPAIGN_WEBHOOK_WARNINGS;
  const at = `CampaignWebhook for campaign ${inputs.campaignId}`;
  const warnings: string[] = [];
  const say = (template: string, values: Record<string, string> = {}) =>
    warnings.push(filledIn(template, { at, ...values }));
  if (inputs.url.startsWith("http:")) say(says.plainUrl, { url: inputs.url });
  if (inputs.events !== undefined && inputs.events.length === 0) say(says.noEvents);
  const advanced = inputs.advancedWebhook;
  if (advanced !== undefined) {
    if (advanced.url.startsWith("http:")) say(says.plainAdvancedUrl);
    if (advanced.method !== undefined && advanced.method !== "GET")
      say(says.notGet, { method: advanced.method });
    if (advanced.body !== undefined && (advanced.method ?? "GET").toUpperCase() === "GET")
      say(says.bodyOnGet);
  }
  return warnings;
}

async function create(
  context: ProviderContext,
  inputs: CampaignWebhookInputs,
): Promise<{ id: string; state: CampaignWebhookState }> {
  const id = newWebhookId(inputs.campaignId);
  if (inputs.alreadySubscribed === true)
    return { id, state: await campaignWebhook.stateAfterCreate(id, inputs) };
  const campaign = `campaign ${inputs.campaignId}`;
  const response = await context.request({
    operation: `subscribe webhook ${inputs.url} to ${campaign}`,
    method: "POST",
    origin: "campaigns",
    path: `/campaigns/${pathSegment(`subscribe to ${campaign}`, "campaignId", inputs.campaignId)}/webhook/subscribe`,
    json: toSubscribeBody(inputs),
    subOrganizationId: inputs.subOrganizationId,
    secrets: namedSecretValues(inputs, campaignWebhook.secretInputs),
    idempotent: false,
    unknownOutcomeHint:
      `The platform may have subscribed the webhook to ${campaign} although this call failed. ` +
      "Check the campaign's webhook subscriptions on the platform before running `pulumi up` again: " +
      "the API can neither look a subscription up nor remove it, so another run subscribes again " +
      "and the URL may then be called twice for each event. If it is there, set alreadySubscribed: true " +
      "to record it without subscribing again",
    answer: {
      schema: SubscribeAnswer,
      problem: (body) => {
        const answer = body as { status?: unknown; data?: unknown } | null;
        return (
          `the platform answered status ${JSON.stringify(answer?.status)} and data ` +
          `${JSON.stringify(answer?.data)}, so the subscription is not confirmed`
        );
      },
      hint: "Check the campaign on the platform, then run `pulumi up` again",
    },
  });
  const answer = response.body;
  const state = await stateOfCreated(id, { ...inputs }, () => subscribedState(inputs, answer));
  return { id, state };
}

/**
 * What a subscription stores from the subscribe's answer: only what spec 4.4 says the answer
 * holds, since anything more would overwrite the inputs.
 */
export function subscribedState(
  inputs: CampaignWebhookInputs,
  answer: { status: string; data: boolean },
): CampaignWebhookState {
  return { ...inputs, status: answer.status, data: answer.data };
}

/** A new id for a subscription of these inputs; undefined when their campaignId is no ObjectId. */
function mintedWebhookId(inputs: Inputs): string | undefined {
  const campaignId = inputs.campaignId;
  return typeof campaignId === "string" && objectId.safeParse(campaignId).success
    ? newWebhookId(campaignId)
    : undefined;
}

/** Why `id` cannot be this subscription's id; an example of one that can, where one is known. */
function webhookIdProblem(id: string, inputs: Inputs): string | undefined {
  const example = mintedWebhookId(inputs);
  const useInstead = example === undefined ? "" : `: use a new one such as ${example}`;
  if (DERIVED_WEBHOOK_ID.test(id)) {
    return `is an id derived from a subscription's inputs, which earlier builds wrote and this one no longer takes (it gave away secret inputs)${useInstead}`;
  }
  const match = WEBHOOK_ID.exec(id);
  if (match === null) {
    return `${JSON.stringify(id)} is not a campaign webhook id (<24-hex campaignId>/<UUID in lower case>)${useInstead}`;
  }
  const campaignId = typeof inputs.campaignId === "string" ? inputs.campaignId.toLowerCase() : "";
  return campaignId !== "" && match[1] !== campaignId
    ? `names campaign ${match[1]}, but this subscription's campaignId is ${campaignId}${useInstead}`
    : undefined;
}

/**
 * The subscription a message is about: its id, or for an id an earlier version derived (which
 * gives secret inputs away) its campaign, URL and events instead.
 */
function shownWebhook(id: string, inputs: Inputs): string {
  const campaign = DERIVED_WEBHOOK_ID.exec(id)?.[1];
  if (campaign === undefined) return id;
  const events = Array.isArray(inputs.events) ? inputs.events.join(", ") : "no events given";
  return `of campaign ${campaign} calling ${String(inputs.url)} (${events})`;
}

/** Said once per process for each campaign whose webhooks an earlier version gave derived ids. */
function warnDerivedId(log: ProviderLog, id: string): void {
  const campaign = DERIVED_WEBHOOK_ID.exec(id)?.[1];
  if (campaign === undefined) return;
  log.warn(
    `a webhook of campaign ${campaign} has an id that an earlier version derived from its inputs, secret ones included. ` +
      "It keeps working; run `npx pulumi-voice-platform rekey` once to give it a random id (no call to the platform, nothing replaced)",
  );
}

/**
 * What delete says: the API has no unsubscribe, so the subscription keeps receiving events; after
 * a replacement the campaign holds it beside its replacement.
 */
function stillSubscribed(id: string, olds: Inputs, context: { replacing: boolean }): string {
  const url = typeof olds.url === "string" ? olds.url : "its url";
  // An id an earlier version derived is never printed: shownWebhook names the subscription instead.
  const what = DERIVED_WEBHOOK_ID.test(id)
    ? `campaign webhook ${shownWebhook(id, olds)}`
    : `campaign webhook ${id} (${url})`;
  const campaign =
    typeof olds.campaignId === "string" ? `campaign ${olds.campaignId}` : "its campaign";
  return context.replacing
    ? `${what} is replaced, and stays subscribed to ${campaign}: the API has no unsubscribe operation. The campaign ` +
        "holds 2 subscriptions from now on, this one and its replacement, and both are called for every event they " +
        `select. Unsubscribe this one in the platform's console. ${LEDGER_KEEPS_IT}`
    : `${what} stays subscribed to ${campaign}: the API has no unsubscribe operation. It is only removed from the ` +
        `stack and is still called for every event it selects; unsubscribe it in the platform's console if it should stop. ${LEDGER_KEEPS_IT}`;
}

export const campaignWebhook = defineResource({
  type: "CampaignWebhook",
  summary:
    "A webhook subscribed to a campaign's post-processing events: a simple URL or a full advanced request. The API has no update operation for subscriptions.",
  importId:
    'not the platform\'s (the API returns none), so any new one: `<campaignId>/<UUID in lower case>`, e.g. `pulumi import voiceplatform:index:CampaignWebhook crm-sync "65a1f0c2e4b0a1b2c3d4e5f6/$(uuidgen | tr A-Z a-z)"`; `pulumi-voice-platform preflight` prints one for an interrupted create',
  example: {
    title: "A webhook for the leads a campaign found interested",
    typescript: `import * as voiceplatform from "pulumi-voice-platform-sdk";

new voiceplatform.CampaignWebhook("interested-leads", {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/voice/interested",
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
});`,
    python: `import pulumi_voiceplatform as voiceplatform

voiceplatform.CampaignWebhook("interested-leads",
    campaign_id="65a1f0c2e4b0a1b2c3d4e5f6",
    url="https://hooks.example.com/voice/interested",
    events=["POST_PROCESSING_FINISHED:INTERESTED"])`,
    go: `_, err := voiceplatform.NewCampaignWebhook(ctx, "interested-leads", &voiceplatform.CampaignWebhookArgs{
	CampaignId: pulumi.String("65a1f0c2e4b0a1b2c3d4e5f6"),
	Url:        pulumi.String("https://hooks.example.com/voice/interested"),
	Events:     voiceplatform.WebhookEventArray{voiceplatform.WebhookEventPostProcessingFinishedInterested},
})
return err`,
    yaml: `resources:
  interested-leads:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: 65a1f0c2e4b0a1b2c3d4e5f6
      url: https://hooks.example.com/voice/interested
      events: [POST_PROCESSING_FINISHED:INTERESTED]`,
  },
  inputSchema: CampaignWebhookInputs,
  outputSchema: CampaignWebhookOutputs,
  warnings: campaignWebhookWarnings,
  normalize: normalizeCampaignId,
  diff: async (context, id, olds, news, plan) => {
    warnDerivedId(context.log, id);
    return diffInputs(storedState(olds), news, plan);
  },
  create,
  // A recorded subscription's state is the default, the checked inputs (no answer, so no status
  // or data), and so is the update that records new inputs: every input replaces it.
  delete: async (context, id, olds, deleted) =>
    context.log.warn(stillSubscribed(id, olds, deleted)),
  adoptWith: () =>
    "alreadySubscribed: true beside the subscription's campaignId, url and events (its create records the subscription without a call)",
  outputsFromId: (id) => {
    const campaignId = /^([0-9a-f]{24})\//.exec(id)?.[1];
    return campaignId === undefined ? {} : { campaignId };
  },
  recovery: {
    lookFor: "a webhook subscription of the campaign with",
    idLabel: "webhook id",
    identifyingInputs: [
      "campaignId",
      "url",
      "events",
      "isAdvanced",
      "advancedWebhook.url",
      "advancedWebhook.method",
      "alreadySubscribed",
    ],
    knownId: mintedWebhookId,
    knownIdSays: "a new id: the platform gives a subscription none, so the provider makes one up",
    staleId: (id) => DERIVED_WEBHOOK_ID.test(id),
    idProblem: webhookIdProblem,
  },
});
