/**
 * What the resource classes hand the SDK as their provider. The SDK serializes it into state as
 * `__provider`, once in the inputs and once in the outputs of every resource, and sends it with
 * every check, diff and create.
 *
 * Each provider is the whole `exports` object of a module of its own (`voice-stub.ts`, …). When
 * that module was loaded from the project's `node_modules`, Pulumi's serializer writes a
 * `require("pulumi-voice-platform/dynamic/<kind>")` of it instead of its code (~250 bytes,
 * `findNormalizedModuleNameAsync` and `captureModuleAsync` in `@pulumi/pulumi/runtime/closure`),
 * which is why those subpaths are in the package's `exports` and must stay there, meaning the
 * same, in every version: states hold the text.
 *
 * Loaded from anywhere else (npm link, a monorepo), the serializer copies the object by value: its
 * methods each load `pulumi-voice-platform/runtime` by name, capture nothing, and come to ~1.8 KB.
 * That is also what states written before the subpaths existed hold, so the runtime entry keeps
 * serving them.
 */
import { relative, sep } from "node:path";
import campaignWebhook = require("./campaign-webhook-stub");
import sipCarrier = require("./sip-carrier-stub");
import voice = require("./voice-stub");

export type ProviderStub = typeof voice;

const PACKAGE_NAME = "pulumi-voice-platform";

const stubs = {
  Voice: { module: voice, file: () => require.resolve("./voice-stub") },
  SipCarrier: { module: sipCarrier, file: () => require.resolve("./sip-carrier-stub") },
  CampaignWebhook: {
    module: campaignWebhook,
    file: () => require.resolve("./campaign-webhook-stub"),
  },
} as const;

const copies = new Map<ProviderStub, ProviderStub>();

/**
 * The provider of a resource kind. The serializer turns a module under `node_modules` into
 * `require(<path after the first node_modules>)`, checked against that package's `exports`; when
 * that path would not start with this package's name (pnpm's `.pnpm/…` store, a copy nested in
 * another package), it would fail or name a version's own path, so a plain copy goes by value.
 */
export function providerStub(kind: keyof typeof stubs): ProviderStub {
  const { module, file } = stubs[kind];
  const parts = relative(process.cwd(), file()).split(sep);
  const at = parts.indexOf("node_modules");
  if (at < 0 || parts[at + 1] === PACKAGE_NAME) return module;
  let copy = copies.get(module);
  if (copy === undefined) {
    copy = Object.preventExtensions({ ...module });
    copies.set(module, copy);
  }
  return copy;
}
