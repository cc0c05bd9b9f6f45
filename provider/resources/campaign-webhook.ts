import { stateOfCreated } from "../core/created-object";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { checkedInputs, checkResource, onEveryObject } from "../core/check";
import { diffInputs, sortedSet, type DiffPlan } from "../core/diff";
import { containsUnknown, isUnknown } from "../core/engine-values";
import {
  absoluteUrl,
  headerName,
  headerValue,
  objectId,
  subOrganizationId,
  text,
} from "../core/input-rules";
import { warn } from "../core/provider-log";
import { namedSecretValues } from "../core/secret-paths";
import type { Inputs, ResourceDescriptor } from "../core/resource-descriptor";
import { callApi, pathSegment } from "../platform/http-client";

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
    name: headerName.describe("Name of the header or query parameter."),
    value: headerValue.describe("Its value, kept secret: it can carry a token."),
  })
  .describe("A header of the outgoing request.");
const WebhookParameter = z
  .strictObject({
    name: text.describe("Name of the header or query parameter."),
    value: z.string().describe("Its value, kept secret: it can carry a token."),
  })
  .describe("A query parameter of the outgoing request.");

const AdvancedWebhook = z.strictObject({
  url: absoluteUrl.describe("Target URL, kept secret: it can carry a token."),
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, "must be an HTTP method such as GET")
    .optional()
    .describe("HTTP method of the outgoing request, e.g. GET."),
  headers: z.array(WebhookHeader).optional().describe("Headers of the outgoing request."),
  parameters: z
    .array(WebhookParameter)
    .optional()
    .describe("Query parameters of the outgoing request."),
  body: z.string().optional().describe("Body of the outgoing request, kept secret."),
});

/**
 * Everything in an advanced webhook that can carry a token: the target URL (tokens in its path
 * or query), header and parameter values, and the body.
 */
const secretInputs = [
  "advancedWebhook.url",
  "advancedWebhook.headers[].value",
  "advancedWebhook.parameters[].value",
  "advancedWebhook.body",
];

/** The inputs as the provider receives them, validated. */
export const CampaignWebhookInputs = z
  .strictObject({
    campaignId: objectId.describe("The campaign's ObjectId (24 hexadecimal characters)."),
    url: absoluteUrl.describe("URL that is called."),
    events: z
      .array(
        z.enum(webhookEvents).describe("A post-processing outcome a webhook can subscribe to."),
      )
      .optional()
      .describe("Events to subscribe to; order does not matter."),
    isAdvanced: z
      .boolean()
      .optional()
      .describe("Whether advancedWebhook describes the outgoing request."),
    advancedWebhook: AdvancedWebhook.optional().describe(
      "The outgoing request, for an advanced webhook.",
    ),
    alreadySubscribed: z
      .boolean()
      .optional()
      .describe(
        "Record an existing subscription without calling the API (the API can neither read nor list one).",
      ),
    subOrganizationId: subOrganizationId
      .optional()
      .describe("Sub-organization to act for; defaults to voiceplatform:subOrganizationId."),
  })
  .superRefine((inputs, ctx) => {
    if (inputs.isAdvanced === true && inputs.advancedWebhook === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["advancedWebhook"],
        message:
          "is required when isAdvanced is true: describe the outgoing request, or set isAdvanced to false",
      });
    }
    // An advancedWebhook unknown during preview may still turn out to be left out.
    if (
      inputs.isAdvanced !== true &&
      inputs.advancedWebhook !== undefined &&
      !isUnknown(inputs.advancedWebhook)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["isAdvanced"],
        message:
          "must be true when advancedWebhook is given, or the platform ignores the request description: set isAdvanced: true",
      });
    }
  }, onEveryObject);
export type CampaignWebhookInputs = z.infer<typeof CampaignWebhookInputs>;

const inputKeys = Object.keys(CampaignWebhookInputs.shape);

/** There is no update operation, so every input replaces the subscription. */
export const campaignWebhookDiffPlan: DiffPlan = {
  keys: inputKeys,
  replaceKeys: new Set(inputKeys),
  setKeys: new Set(["events"]),
};

/**
 * What the resource stores. States carry no version: the only shape so far, with or without the
 * `stateVersion: 1` the first releases wrote; a later shape would add a hidden `__stateVersion`.
 */
export interface CampaignWebhookState extends CampaignWebhookInputs {
  /** What the subscribe answered; absent for a subscription recorded with alreadySubscribed. */
  readonly status?: string;
  readonly data?: boolean;
}

/** The only answer that confirms a subscription. */
const SubscribeAnswer = z.looseObject({ status: z.literal("success"), data: z.literal(true) });

/** The subscribe body (section 4.4). */
export function toSubscribeBody(inputs: CampaignWebhookInputs): Record<string, unknown> {
  const body: Record<string, unknown> = { url: inputs.url };
  if (inputs.events !== undefined) body.events = inputs.events;
  if (inputs.isAdvanced !== undefined) body.isAdvanced = inputs.isAdvanced;
  if (inputs.advancedWebhook !== undefined) body.advancedWebhook = inputs.advancedWebhook;
  return body;
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

/** Events as a set, the campaign id in lower case. */
export function normalizeCampaignWebhookInputs(news: Inputs): Inputs {
  const result: Inputs = { ...news };
  if (Array.isArray(news.events) && !containsUnknown(news.events))
    result.events = sortedSet(news.events);
  if (typeof news.campaignId === "string" && /^[0-9a-fA-F]{24}$/.test(news.campaignId)) {
    result.campaignId = news.campaignId.toLowerCase();
  }
  return result;
}

/** Common webhook practice, not the spec: said, never enforced. */
function campaignWebhookWarnings(inputs: CampaignWebhookInputs): string[] {
  const at = `CampaignWebhook for campaign ${inputs.campaignId}`;
  const warnings: string[] = [];
  if (inputs.url.startsWith("http:"))
    warnings.push(`${at}: url ${inputs.url} is not https; call outcomes would travel unencrypted`);
  if (inputs.events !== undefined && inputs.events.length === 0) {
    warnings.push(
      `${at}: events is empty; the platform does not say what an empty list subscribes to`,
    );
  }
  const advanced = inputs.advancedWebhook;
  if (advanced !== undefined) {
    if (advanced.url.startsWith("http:")) warnings.push(`${at}: advancedWebhook.url is not https`);
    if (advanced.method !== undefined && advanced.method !== "GET") {
      warnings.push(
        `${at}: advancedWebhook.method "${advanced.method}" is not GET, the only method the platform lists`,
      );
    }
    if (advanced.body !== undefined && (advanced.method ?? "GET").toUpperCase() === "GET") {
      warnings.push(
        `${at}: advancedWebhook.body is set on a GET request; many servers ignore a GET body`,
      );
    }
  }
  return warnings;
}

/** Reads any stored shape this package ever wrote. */
export function readCampaignWebhookState(olds: Inputs): CampaignWebhookState {
  const { stateVersion: _firstReleases, ...state } = olds;
  return state as unknown as CampaignWebhookState;
}

/** A recorded subscription: no answer, so no status or data. */
const stateAfterCreate = async (id: string, news: Inputs): Promise<CampaignWebhookState> => ({
  ...checkedInputs(CampaignWebhookInputs, news),
});

async function create(news: Inputs): Promise<{ id: string; state: CampaignWebhookState }> {
  const inputs = CampaignWebhookInputs.parse(news);
  const id = newWebhookId(inputs.campaignId);
  if (inputs.alreadySubscribed === true) return { id, state: await stateAfterCreate(id, inputs) };
  const campaign = `campaign ${inputs.campaignId}`;
  const response = await callApi({
    operation: `subscribe webhook ${inputs.url} to ${campaign}`,
    method: "POST",
    origin: "campaigns",
    path: `/campaigns/${pathSegment(`subscribe to ${campaign}`, "campaignId", inputs.campaignId)}/webhook/subscribe`,
    json: toSubscribeBody(inputs),
    subOrganizationId: inputs.subOrganizationId,
    secrets: namedSecretValues(inputs, secretInputs),
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
  // Only what spec 4.4 says the answer holds: anything more would overwrite the inputs.
  const { status, data } = response.body;
  const state = await stateOfCreated(id, { ...inputs }, () => ({ ...inputs, status, data }));
  return { id, state };
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
function warnDerivedId(id: string): void {
  const campaign = DERIVED_WEBHOOK_ID.exec(id)?.[1];
  if (campaign === undefined) return;
  warn(
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
        "select. Unsubscribe this one in the platform's console."
    : `${what} stays subscribed to ${campaign}: the API has no unsubscribe operation. It is only removed from the ` +
        "stack and is still called for every event it selects; unsubscribe it in the platform's console if it should stop.";
}

export const campaignWebhook: ResourceDescriptor<CampaignWebhookState, "CampaignWebhook"> = {
  type: "CampaignWebhook",
  summary:
    "A webhook subscribed to a campaign's post-processing events: a simple URL or a full advanced request. The API has no update, so any change replaces it.",
  importId:
    'not the platform\'s (the API returns none), so any new one: `<campaignId>/<UUID in lower case>`, e.g. `pulumi import voiceplatform:index:CampaignWebhook crm-sync "65a1f0c2e4b0a1b2c3d4e5f6/$(uuidgen | tr A-Z a-z)"`; `pulumi-voice-platform preflight` prints one for an interrupted create',
  inputSchema: CampaignWebhookInputs,
  objectTypes: {
    events: "WebhookEvent",
    advancedWebhook: "AdvancedWebhook",
    "advancedWebhook.headers": "WebhookHeader",
    "advancedWebhook.parameters": "WebhookParameter",
  },
  outputs: [
    {
      name: "status",
      description: "What the subscribe answered; absent for a recorded subscription.",
      type: { type: "string" },
      writtenBy: "create",
    },
    {
      name: "data",
      description: "What the subscribe answered; absent for a recorded subscription.",
      type: { type: "boolean" },
      writtenBy: "create",
    },
  ],
  secretInputs,
  secretWireFields: ["headers[].value", "parameters[].value"],
  check: (_olds, news, context) =>
    checkResource(
      {
        type: "CampaignWebhook",
        schema: CampaignWebhookInputs,
        secretPaths: secretInputs,
        warnings: campaignWebhookWarnings,
        normalize: normalizeCampaignWebhookInputs,
      },
      news,
      context,
    ),
  diff: async (id, olds, news) => {
    warnDerivedId(id);
    return diffInputs(readCampaignWebhookState(olds), news, campaignWebhookDiffPlan);
  },
  create,
  // Only reached when nothing the platform holds changes; it records the new inputs.
  update: async (_id, olds, news) => ({
    ...readCampaignWebhookState(olds),
    ...checkedInputs(CampaignWebhookInputs, news),
  }),
  delete: async (id, olds, context) => warn(stillSubscribed(id, olds, context)),
  adoptWith: () =>
    "alreadySubscribed: true beside the subscription's campaignId, url and events (its create records the subscription without a call)",
  stateAfterCreate,
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
};
