/**
 * `pulumi-voice-platform/policy`: the platform's rules as a policy pack for Pulumi's CrossGuard
 * (docs/policies.md). The pack's folder (dist/provider/policy/pack in the package, or one written by
 * `npx pulumi-voice-platform policy-pack <dir>`) runs `runPolicyPack()`; a team's own pack can
 * take `voicePlatformPolicies` into its list. `@pulumi/policy` is the pack's dependency, not the
 * provider's: it is loaded only when a pack runs.
 */
import type { Policies } from "@pulumi/policy";
import { advancedWebhookMethod } from "./rules/advanced-webhook-method";
import { gatewaySanity } from "./rules/gateway-sanity";
import { maxConcurrency } from "./rules/max-concurrency";
import { noReplacement } from "./rules/no-replacement";
import { phoneNumbersE164 } from "./rules/phone-numbers-e164";
import { secretsFromSecretConfig } from "./rules/secrets-from-secret-config";
import { voiceLocales } from "./rules/voice-locales";
import { voiceProtected } from "./rules/voice-protected";
import { webhookUrlsHttps } from "./rules/webhook-urls-https";

/** The pack's name, as `pulumi preview` prints it before each violation. */
export const POLICY_PACK_NAME = "voice-platform";

export const voicePlatformPolicies: Policies = [
  webhookUrlsHttps,
  noReplacement,
  voiceProtected,
  phoneNumbersE164,
  gatewaySanity,
  voiceLocales,
  advancedWebhookMethod,
  secretsFromSecretConfig,
  maxConcurrency,
];

/** Serves the pack to the engine: what the pack folder's index.js calls. */
export function runPolicyPack(): void {
  const { PolicyPack } = require("@pulumi/policy") as typeof import("@pulumi/policy");
  new PolicyPack(POLICY_PACK_NAME, { policies: voicePlatformPolicies });
}
