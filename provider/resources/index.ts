/**
 * The resources this package serves, in one list: everything else is derived from it (the
 * dynamic classes, their stubs and exports, the runtime entry, the plugin schema and SDKs, the
 * served handlers, redaction, the CLI and the tests that walk every resource). A new resource is
 * its descriptor file, its import and entry here, its emulator route and its test fixture, then
 * `npm run args`, `npm run sdk:generate` and `npm run docs` (docs/development.md, "Add a resource").
 */
import type { ResourceDescriptor } from "../core/resource-descriptor";
import { campaignWebhook } from "./campaign-webhook";
import { sipCarrier } from "./sip-carrier";
import { voice } from "./voice";

export const resources = [voice, sipCarrier, campaignWebhook] as const;

export type ResourceKind = (typeof resources)[number]["type"];

export const resourceKinds: readonly ResourceKind[] = resources.map((resource) => resource.type);

/** The descriptor of a resource kind, as the front ends and the CLI look it up. */
export function descriptorOf(kind: ResourceKind): ResourceDescriptor<object> {
  return resources.find((resource) => resource.type === kind) as ResourceDescriptor<object>;
}

/**
 * A kind in kebab case (`SipCarrier` → `sip-carrier`): its dynamic stub's subpath,
 * `pulumi-voice-platform/dynamic/sip-carrier`, which states hold, and that stub's file name.
 */
export function kebabCase(kind: string): string {
  return kind.replace(/(?<=[a-z0-9])([A-Z])/g, "-$1").toLowerCase();
}
