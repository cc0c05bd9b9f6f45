/**
 * The type tokens a resource kind goes by: the plugin's (`voiceplatform:index:Voice`, the
 * schema's) and the dynamic resources' (`pulumi-nodejs:dynamic/voiceplatform:Voice`, fixed by
 * dynamic/dynamic-class.ts). The mocks and the policy pack answer both.
 */
import { resourceKinds, type ResourceKind } from "../resources";
import { resourceToken } from "./package-schema";

export type FrontEnd = "dynamic" | "plugin";

const dynamicToken = (kind: ResourceKind) => `pulumi-nodejs:dynamic/voiceplatform:${kind}`;

/** The kind a type token names, and which front end's token it is; undefined for any other type. */
export function kindOfType(type: string): { kind: ResourceKind; frontEnd: FrontEnd } | undefined {
  for (const kind of resourceKinds) {
    if (type === resourceToken(kind)) return { kind, frontEnd: "plugin" };
    if (type === dynamicToken(kind)) return { kind, frontEnd: "dynamic" };
  }
  return undefined;
}
