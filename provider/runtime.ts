/**
 * The runtime entry (`pulumi-voice-platform/runtime`) that the serialized provider stubs load.
 * Stubs stored in old states call it too, so what it exports, and the state shapes its handlers
 * read, only ever grow.
 */
import * as campaignWebhook from "./resources/campaign-webhook";
import { PROVIDER_KEY, type Inputs } from "./core/check-inputs";
import { rememberEngineConfig } from "./settings/config";
import { IncompleteCreateError } from "./platform/incomplete-create-error";
import { redactSecrets, rememberSecret } from "./platform/redaction";
import * as sipCarrier from "./resources/sip-carrier";
import * as voice from "./resources/voice";

export async function configure(req: {
  config: { get(key: string): string | undefined };
}): Promise<void> {
  rememberEngineConfig(req.config);
}

interface ResourceModule {
  check(
    olds: Inputs,
    news: Inputs,
  ): Promise<{ inputs: Inputs; failures: { property: string; reason: string }[] }>;
  diff(id: string, olds: Inputs, news: Inputs): Promise<unknown>;
  create(news: Inputs): Promise<{ id: string; outs: unknown }>;
  update(id: string, olds: Inputs, news: Inputs): Promise<{ outs: unknown }>;
  remove(id: string, olds: Inputs): Promise<void>;
}

/**
 * The engine calls these. Every secret in the inputs is remembered before anything can fail, and
 * every error and failure leaves with secrets redacted.
 */
function handlers<M extends ResourceModule>(
  module: M,
  secretsOf: (inputs: Inputs) => unknown[],
): Readonly<{
  check: M["check"];
  diff: M["diff"];
  create: M["create"];
  update: M["update"];
  delete: M["remove"];
}> {
  const remember = (...bags: Inputs[]) =>
    bags.forEach((bag) => secretsOf(bag).forEach(rememberSecret));
  return Object.freeze({
    async check(olds: Inputs, news: Inputs) {
      remember(olds, news);
      const result = await module.check(olds, news).catch(rethrowRedacted);
      return {
        inputs: result.inputs,
        failures: result.failures.map((f) => ({
          property: f.property,
          reason: redactSecrets(f.reason),
        })),
      };
    },
    diff: (id: string, olds: Inputs, news: Inputs) => {
      remember(olds, news);
      return module.diff(id, olds, news).catch(rethrowRedacted);
    },
    create: (news: Inputs) => {
      remember(news);
      return module.create(news).catch((error: unknown) => {
        // The engine stores these properties as the resource's outputs, and delete and read run
        // the provider found there: without it the recorded resource could never be destroyed.
        if (error instanceof IncompleteCreateError)
          error.properties[PROVIDER_KEY] = news[PROVIDER_KEY];
        return rethrowRedacted(error);
      });
    },
    update: (id: string, olds: Inputs, news: Inputs) => {
      remember(olds, news);
      return module.update(id, olds, news).catch(rethrowRedacted);
    },
    delete: (id: string, olds: Inputs) => {
      remember(olds);
      return module.remove(id, olds).catch(rethrowRedacted);
    },
  });
}

/** Every error leaves the provider with secrets redacted (a `.catch` costs no extra async step). */
function rethrowRedacted(error: unknown): never {
  if (error instanceof Error) {
    // The engine reads `id`, `properties` and `reasons` off a partly created resource's error.
    if (!(error instanceof IncompleteCreateError)) error.message = redactSecrets(error.message);
    // The dynamic-provider process prints the stack of a failed check, diff or delete.
    if (error.stack) error.stack = redactSecrets(error.stack);
    throw error;
  }
  throw new Error(redactSecrets(String(error)));
}

const noSecrets = (): unknown[] => [];

export const Voice = handlers(voice, noSecrets);
export const SipCarrier = handlers(sipCarrier, sipCarrier.sipCarrierSecrets);
export const CampaignWebhook = handlers(campaignWebhook, campaignWebhook.campaignWebhookSecrets);
