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

export type ProviderStub = typeof voice;

const stubs = {
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
} as const;

export type StubKind = keyof typeof stubs;

/** The one-line text for a kind, whether or not the project resolves it. */
export function requireText(kind: StubKind): string {
  return `exports.handler = () => require("pulumi-voice-platform/dynamic/${stubs[kind].subpath}");\n`;
}

const byValue = new Map<StubKind, Promise<string>>();

/** The `__provider` text of a kind, for a program whose working directory is the project's. */
export function providerText(kind: StubKind): pulumi.Input<string> {
  if (resolvesHere(kind)) return requireText(kind);
  let text = byValue.get(kind);
  if (text === undefined) {
    // A plain copy: the serializer turns a module it finds under node_modules into a require of
    // its own path, which is the very path the project cannot name.
    const provider = Object.preventExtensions({ ...stubs[kind].module });
    text = pulumi.runtime
      .serializeFunction(() => provider, { allowSecrets: true })
      .then((serialized) => serialized.text);
    byValue.set(kind, text);
  }
  return text;
}

function resolvesHere(kind: StubKind): boolean {
  const { subpath, file } = stubs[kind];
  try {
    // As a module of the project resolves it; this module's own `require` would find this very
    // package by its name (a package may require itself through its `exports`).
    const fromProject = createRequire(join(process.cwd(), "index.js"));
    return fromProject.resolve(`pulumi-voice-platform/dynamic/${subpath}`) === file();
  } catch {
    return false;
  }
}
