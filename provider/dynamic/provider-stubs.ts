/**
 * The `__provider` text of each resource kind: what the Node.js dynamic-provider process
 * evaluates to find the provider. State holds it twice per resource (inputs and outputs) and every
 * check, diff and create sends it, so it is kept to one line wherever that line works.
 *
 * The process evaluates the text as a module whose `handler()` returns the provider, with
 * `require` resolving from its working directory, the project's. So when the program, from that
 * same directory, resolves `pulumi-voice-platform/dynamic/<kind>` to this very package (an
 * install, npm link, a workspace, pnpm's store), the text is a `require` of that subpath, ~70
 * bytes, the same in every version. Otherwise (a copy nested inside another package, which the
 * project cannot name) Pulumi's serializer copies the stub by value, ~1.8 KB, byte for byte the text
 * of the first releases, whose stubs each load `pulumi-voice-platform/runtime`.
 *
 * Each stub module (`voice-stub.ts`, …) must therefore export exactly the provider, keep its
 * subpath in the package's `exports`, and mean the same in every version: states hold the text.
 * States from before this text (the serializer's own `require` wrapper, or by value) keep working:
 * the process evaluates whatever text a state holds, and a changed text is no diff.
 */
import * as pulumi from "@pulumi/pulumi";
import { createRequire } from "node:module";
import { join } from "node:path";
import campaignWebhook = require("./campaign-webhook-stub");
import sipCarrier = require("./sip-carrier-stub");
import voice = require("./voice-stub");
import type { ResourceKind } from "../resources";

/** One stub module per resource kind: a kind without one fails to compile. */
const stubs: Record<ResourceKind, { module: object; subpath: string; file: () => string }> = {
  Voice: { module: voice, subpath: "voice", file: () => require.resolve("./voice-stub") },
  SipCarrier: {
    module: sipCarrier,
    subpath: "sip-carrier",
    file: () => require.resolve("./sip-carrier-stub"),
  },
  CampaignWebhook: {
    module: campaignWebhook,
    subpath: "campaign-webhook",
    file: () => require.resolve("./campaign-webhook-stub"),
  },
};

export type StubKind = ResourceKind;

const specifier = (kind: StubKind) => `pulumi-voice-platform/dynamic/${stubs[kind].subpath}`;

// One answer per kind: a program's working directory, where it is resolved from, does not change.
const texts = new Map<StubKind, pulumi.Input<string>>();

/** The `__provider` text of a kind, for a program whose working directory is the project's. */
export function providerText(kind: StubKind): pulumi.Input<string> {
  let text = texts.get(kind);
  if (text === undefined) {
    text = resolvesHere(kind)
      ? `exports.handler = () => require("${specifier(kind)}");\n`
      : serializedByValue(kind);
    texts.set(kind, text);
  }
  return text;
}

/**
 * A plain copy of the stub through Pulumi's serializer: given the module itself, it would write a
 * require of its own path under node_modules, the very path the project cannot name.
 */
function serializedByValue(kind: StubKind): Promise<string> {
  // Byte for byte the first releases' text, which had no `read`.
  const { read: _read, ...firstRelease } = stubs[kind].module as Record<string, unknown>;
  const provider = Object.preventExtensions(firstRelease);
  return pulumi.runtime
    .serializeFunction(() => provider, { allowSecrets: true })
    .then((serialized) => serialized.text);
}

function resolvesHere(kind: StubKind): boolean {
  try {
    // As a module of the project resolves it; this module's own `require` would find this very
    // package by its name (a package may require itself through its `exports`).
    const fromProject = createRequire(join(process.cwd(), "index.js"));
    return fromProject.resolve(specifier(kind)) === stubs[kind].file();
  } catch {
    return false;
  }
}
