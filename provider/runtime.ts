/**
 * The runtime entry (`pulumi-voice-platform/runtime`) that the serialized provider stubs load:
 * `configure`, and each resource kind's handlers under its type name (`Voice`, `SipCarrier`, …),
 * one per descriptor of the list. Stubs stored in old states call it too, so what it exports, and
 * the state shapes its handlers read, only ever grow.
 */
import { dynamicHandlers } from "./dynamic/dynamic-adapter";
import { descriptorOf, resourceKinds, type ResourceKind } from "./resources";
import { rememberEngineConfig } from "./settings/config";
import { processProviderStates, providerSettings } from "./settings/process-state";

type Handlers = ReturnType<typeof dynamicHandlers>;

/**
 * The dynamic provider's Configure: Pulumi calls it once per process, for the one provider the
 * process serves, so the stack config goes to the process's own provider (dynamic-adapter.ts makes
 * each call's context from it).
 */
async function configure(req: { config: { get(key: string): string | undefined } }): Promise<void> {
  rememberEngineConfig(providerSettings(processProviderStates()), req.config);
}

const entry = Object.freeze({
  configure,
  ...(Object.fromEntries(
    resourceKinds.map((kind) => [kind, dynamicHandlers(descriptorOf(kind))]),
  ) as Record<ResourceKind, Handlers>),
});

export = entry;
