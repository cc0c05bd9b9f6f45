/**
 * The resources this package serves, in one list: everything else (the dynamic classes and
 * stubs, the plugin schema, the served handlers, redaction and the CLI) is derived from it.
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
