/**
 * The CampaignWebhook provider the SDK serializes into state as `__provider`: see
 * `provider-stubs.ts`. This module's exports are the provider itself, so it must export nothing else
 * and be reachable as `pulumi-voice-platform/dynamic/campaign-webhook` in every version.
 */
export = Object.preventExtensions({
  configure: (...a: unknown[]) => require("pulumi-voice-platform/runtime").configure(...a),
  check: (...a: unknown[]) => require("pulumi-voice-platform/runtime").CampaignWebhook.check(...a),
  diff: (...a: unknown[]) => require("pulumi-voice-platform/runtime").CampaignWebhook.diff(...a),
  create: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.create(...a),
  update: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.update(...a),
  delete: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.delete(...a),
  // A refresh: said to keep state as it was. Added after the first releases: their by-value
  // copies (provider-stubs.ts) leave it out, so a refresh of those states stays silent.
  read: (...a: unknown[]) => require("pulumi-voice-platform/runtime").CampaignWebhook.read(...a),
});
