/**
 * Mocks for `pulumi.runtime.setMocks`: a program's resources of this package get what `pulumi up`
 * would store for them, without an engine, a provider process or the platform. The inputs are
 * checked as the provider's check does (a bad input fails the resource with the message a preview
 * would print), and each create is answered by a made-up platform (made-up-platform.ts) through
 * the functions the provider builds its state with (created-states.ts). Both type tokens are
 * served: the dynamic resources' (`pulumi-nodejs:dynamic/voiceplatform:Voice`) and the plugin
 * SDKs' (`voiceplatform:index:Voice`).
 */
import * as pulumi from "@pulumi/pulumi";
import { ASSET_SIG, SECRET_SIG, SIG_KEY } from "../core/engine-values";
import { plannedCreateState } from "../core/planned-state";
import type { Inputs } from "../core/resource-descriptor";
import { topLevelOf } from "../core/secret-paths";
import { withoutUndefined } from "../core/serializable";
import { ADOPTED, servedResource } from "../core/served-resource";
import { hidden, withoutProvider } from "../core/hidden-properties";
import { InputError } from "../platform/errors";
import { kindOfType } from "../schema/type-tokens";
import { descriptorOf, type ResourceKind } from "../resources";
import { readSettings, rememberEngineConfig } from "../settings/config";
import { processProviderStates } from "../settings/process-state";
import { providerContext } from "../core/provider-context";
import { madeUpCreate } from "./created-states";
import { MadeUpPlatform, newObjectId } from "./made-up-platform";

export interface VoicePlatformMockOptions {
  /** The organization the made-up platform says owns every voice (default: a made-up ObjectId). */
  readonly organizationId?: string;
  /**
   * Mocks for every other resource type and for function calls (another provider's). Without
   * them another resource gets its inputs as its state and the id `<name>_id`.
   */
  readonly others?: pulumi.runtime.Mocks;
}

/**
 * The mocks: `pulumi.runtime.setMocks(voicePlatformMocks())` before the program's module is
 * loaded. During a mocked preview (`setMocks(mocks, project, stack, true)`) every output the
 * platform's answer gives is unknown, as in a real preview.
 */
export function voicePlatformMocks(options: VoicePlatformMockOptions = {}): pulumi.runtime.Mocks {
  refusalsSeen();
  const platform = new MadeUpPlatform(options.organizationId ?? newObjectId());
  return {
    newResource: (args) => {
      const kind = kindOfType(args.type)?.kind;
      if (kind === undefined) return otherResource(options.others, args);
      return mockedResource(kind, args, platform);
    },
    call: (args) => options.others?.call(args) ?? args.inputs,
  };
}

function otherResource(
  others: pulumi.runtime.Mocks | undefined,
  args: pulumi.runtime.MockResourceArgs,
) {
  return others?.newResource(args) ?? { id: args.id ?? `${args.name}_id`, state: args.inputs };
}

async function mockedResource(
  kind: ResourceKind,
  args: pulumi.runtime.MockResourceArgs,
  platform: MadeUpPlatform,
): Promise<{ id: string | undefined; state: Record<string, unknown> }> {
  const descriptor = descriptorOf(kind);
  const given = args.inputs as Inputs;
  // As a new resource's check: the marker an import's read leaves (`__adopted`) waives no required
  // input when a program writes it, nothing having been read; the provider's create drops it too.
  const { [ADOPTED]: _adopted, ...declared } = withoutProvider(given);
  const { plain, secretKeys } = await plainInputs(declared);
  // The stack's voiceplatform:* config, as the provider's configure would get it.
  const context = providerContext({ states: processProviderStates() });
  rememberEngineConfig(context.settings, { get: (key) => pulumi.runtime.getConfig(key) });
  readSettings(context.settings);
  // As the engine's check call names them: a value the program made secret is never quoted.
  const served = servedResource(descriptor);
  const checked = await served.check(context, {}, plain, { markedSecret: secretKeys });
  if (checked.failures.length > 0) {
    // As the engine prints them: a reason names its own place unless it is a top-level input.
    const lines = checked.failures.map((f) =>
      f.property === "" || f.reason.startsWith(f.property)
        ? `  ${f.reason}`
        : `  ${f.property} ${f.reason}`,
    );
    const refusal = `${kind} "${args.name}" has inputs \`pulumi preview\` would refuse:\n${lines.join("\n")}`;
    refusalsSeen().add(refusal);
    throw new InputError(refusal);
  }
  const created = pulumi.runtime.isDryRun()
    ? { id: undefined, state: plannedCreateState(descriptor, checked.inputs) }
    : await madeUpCreate(kind)(checked.inputs, platform);
  const state = { ...withoutUndefined(created.state as Inputs), ...hidden(given) };
  const secret = new Set([...secretKeys, ...topLevelOf(descriptor.secretInputs)]);
  return { id: created.id, state: withSecrets(state, secret) };
}

/**
 * jest gives each test file a copy of `process` (and of `require("node:process")`), whose
 * listeners the real one never calls; code of Node's own realm (Buffer's Function) sees the real
 * one, which every test file of a worker shares.
 */
const realProcess = new (Buffer.constructor as FunctionConstructor)(
  "return process",
)() as NodeJS.Process;

/** Where the real process keeps the refusals the mocks answered, once for all test files. */
const REFUSALS = Symbol.for("pulumi-voice-platform.testing.refusals");

interface Refusals {
  readonly texts: Set<string>;
  readonly listener: (reason: unknown) => void;
}

/**
 * A refused resource's outputs reject with the refusal (testing's `outputValue` awaits one), but
 * Pulumi's runtime also leaves the failed registration's own promises unhandled, which outside the
 * engine ends the test process. Those are printed instead, once per refusal, so it is still seen;
 * any other unhandled rejection is left to the other listeners, or ends the process as Node's
 * default does. jest takes every listener off while a test file runs and puts them back after, so
 * the listener is put back whenever it is missing.
 */
function refusalsSeen(): Set<string> {
  const owner = realProcess as typeof realProcess & { [REFUSALS]?: Refusals };
  const refusals = (owner[REFUSALS] ??= newRefusals());
  if (!realProcess.listeners("unhandledRejection").includes(refusals.listener)) {
    realProcess.prependListener("unhandledRejection", refusals.listener);
  }
  return refusals.texts;
}

function newRefusals(): Refusals {
  const texts = new Set<string>();
  const printed = new Set<string>();
  const listener = (reason: unknown) => {
    // Not `instanceof Error`: each test file's errors are of its own realm.
    const text = (reason as { message?: unknown } | null)?.message;
    const message = typeof text === "string" ? text : "";
    const refusal = [...texts].find((known) => message.endsWith(known));
    if (refusal === undefined) {
      if (realProcess.listenerCount("unhandledRejection") > 1) return;
      throw reason;
    }
    if (!printed.has(refusal)) realProcess.stderr.write(`${message}\n`);
    printed.add(refusal);
  };
  return { texts, listener };
}

/**
 * The inputs as the provider receives them: secrets as their values (the top-level inputs that
 * held one named), and assets as the engine's plain form of them.
 */
async function plainInputs(bag: Inputs): Promise<{ plain: Inputs; secretKeys: string[] }> {
  const secretKeys: string[] = [];
  const plain: Inputs = {};
  for (const [key, value] of Object.entries(bag)) {
    const found = { secret: false };
    plain[key] = await plainValue(value, found);
    if (found.secret) secretKeys.push(key);
  }
  return { plain, secretKeys };
}

async function plainValue(value: unknown, found: { secret: boolean }): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => plainValue(item, found)));
  if (pulumi.asset.Asset.isInstance(value)) return plainAsset(value);
  if (value === null || typeof value !== "object") return value;
  const bag = value as Record<string, unknown>;
  if (bag[SIG_KEY] === SECRET_SIG) {
    found.secret = true;
    return plainValue(bag.value, found);
  }
  const entries = await Promise.all(
    Object.entries(bag).map(async ([key, item]) => [key, await plainValue(item, found)] as const),
  );
  return Object.fromEntries(entries);
}

/** An asset as the engine hands it to a provider: its signature and its path, text or URI. */
async function plainAsset(asset: pulumi.asset.Asset): Promise<Inputs> {
  const source = asset as { path?: Promise<string>; text?: Promise<string>; uri?: Promise<string> };
  const [path, text, uri] = await Promise.all([source.path, source.text, source.uri]);
  return withoutUndefined({ [SIG_KEY]: ASSET_SIG, path, text, uri });
}

/** The state with these top-level outputs secret, as the engine keeps them. */
function withSecrets(state: Inputs, keys: ReadonlySet<string>): Inputs {
  return Object.fromEntries(
    Object.entries(state).map(([key, value]) => [
      key,
      keys.has(key) ? { [SIG_KEY]: SECRET_SIG, value } : value,
    ]),
  );
}
