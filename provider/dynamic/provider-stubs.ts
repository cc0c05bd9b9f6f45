/**
 * What Pulumi serializes into state, once per resource, as `__provider`. Each stub captures
 * nothing and loads the package's runtime entry inside every method, so the text stays tiny, holds
 * no secret, path or program value, is the same for every version of this package, and always runs
 * the runtime that is installed now. The methods are spelled out because anything they referred
 * to outside themselves would be serialized with them.
 *
 * They are not `Object.freeze`d: the serializer writes a frozen object as one `defineProperty`
 * call per method, 340 bytes more per resource, which would break the 2 KB budget. Nothing outside
 * the resource classes holds them, and `preventExtensions` keeps anything from being added.
 */

export const voiceStub = Object.preventExtensions({
  configure: (...a: unknown[]) => require("pulumi-voice-platform/runtime").configure(...a),
  check: (...a: unknown[]) => require("pulumi-voice-platform/runtime").Voice.check(...a),
  diff: (...a: unknown[]) => require("pulumi-voice-platform/runtime").Voice.diff(...a),
  create: (...a: unknown[]) => require("pulumi-voice-platform/runtime").Voice.create(...a),
  update: (...a: unknown[]) => require("pulumi-voice-platform/runtime").Voice.update(...a),
  delete: (...a: unknown[]) => require("pulumi-voice-platform/runtime").Voice.delete(...a),
});

export const sipCarrierStub = Object.preventExtensions({
  configure: (...a: unknown[]) => require("pulumi-voice-platform/runtime").configure(...a),
  check: (...a: unknown[]) => require("pulumi-voice-platform/runtime").SipCarrier.check(...a),
  diff: (...a: unknown[]) => require("pulumi-voice-platform/runtime").SipCarrier.diff(...a),
  create: (...a: unknown[]) => require("pulumi-voice-platform/runtime").SipCarrier.create(...a),
  update: (...a: unknown[]) => require("pulumi-voice-platform/runtime").SipCarrier.update(...a),
  delete: (...a: unknown[]) => require("pulumi-voice-platform/runtime").SipCarrier.delete(...a),
});

export const campaignWebhookStub = Object.preventExtensions({
  configure: (...a: unknown[]) => require("pulumi-voice-platform/runtime").configure(...a),
  check: (...a: unknown[]) => require("pulumi-voice-platform/runtime").CampaignWebhook.check(...a),
  diff: (...a: unknown[]) => require("pulumi-voice-platform/runtime").CampaignWebhook.diff(...a),
  create: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.create(...a),
  update: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.update(...a),
  delete: (...a: unknown[]) =>
    require("pulumi-voice-platform/runtime").CampaignWebhook.delete(...a),
});
