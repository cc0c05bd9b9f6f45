/**
 * The text of a dynamic stub module, `provider/dynamic/generated/<kind>-stub.ts`: the provider the SDK
 * serializes into state as `__provider` (see dynamic/provider-stubs.ts). Its compiled functions
 * are what a copy by value serializes, so their text must stay byte for byte what the first
 * releases wrote: every kind's stub has this one shape.
 */
import { kebabCase } from "../resources";

const HANDLERS = ["check", "diff", "create", "update", "delete"] as const;

export function stubText(kind: string): string {
  const runtime = 'require("pulumi-voice-platform/runtime")';
  return [
    "/**",
    ` * The ${kind} provider the SDK serializes into state as \`__provider\`: see`,
    " * `provider-stubs.ts`. This module's exports are the provider itself, so it must export nothing",
    ` * else and be reachable as \`pulumi-voice-platform/dynamic/${kebabCase(kind)}\` in every version.`,
    " */",
    "export = Object.preventExtensions({",
    `  configure: (...a: unknown[]) => ${runtime}.configure(...a),`,
    ...HANDLERS.map(
      (handler) => `  ${handler}: (...a: unknown[]) => ${runtime}.${kind}.${handler}(...a),`,
    ),
    "  // A refresh: said to keep state as it was. Added after the first releases: their by-value",
    "  // copies (provider-stubs.ts) leave it out, so a refresh of those states stays silent.",
    `  read: (...a: unknown[]) => ${runtime}.${kind}.read(...a),`,
    "});",
    "",
  ].join("\n");
}
