/**
 * The package as users get it (built, packed, installed into a throwaway project) and the real
 * dynamic-provider process the engine starts, from the shared test support.
 */
import { delimiter, join } from "node:path";
import type { Inputs } from "../../provider/core/resource-descriptor";
import {
  createFixtureProject,
  removeFixtureProject,
  writeFixtureFile,
} from "../support/packed-package";
import { startProviderProcess, type ProviderProcess } from "../support/provider-process";
import {
  resourceUrn,
  serializedProviders,
  type ResourceKind,
} from "../support/serialized-provider";
import { nodeSdk, runTool } from "../languages/toolchains";
import { track } from "./children";
import type { EmulatorProcess } from "./emulator-process";

export interface BenchProject {
  readonly dir: string;
  readonly providers: Readonly<Record<ResourceKind, string>>;
  /** A 1 KiB sample inside the project, by the relative path a program would give. */
  readonly smallSample: string;
  remove(): Promise<void>;
}

export const SMALL_SAMPLE = "samples/small.wav";

/** The module each path's program requires: the dynamic resources, or the plugin's generated SDK. */
export const resourceModules = {
  dynamic: "pulumi-voice-platform",
  plugin: "pulumi-voice-platform-sdk",
} as const;

/**
 * The environment that puts the package's plugin, `pulumi-resource-voiceplatform`, on PATH as a
 * user's project would (node_modules/.bin).
 */
export function pluginEnv(project: BenchProject): NodeJS.ProcessEnv {
  return {
    PATH: `${join(project.dir, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`,
  };
}

export async function benchProject(): Promise<BenchProject> {
  const dir = await createFixtureProject({ name: "voice-platform-bench" });
  // The plugin's SDK beside the package, for the plugin arms of sections 4 and 6.
  const sdk = await nodeSdk();
  await runTool(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", sdk.tarball],
    { cwd: dir },
  );
  await writeFixtureFile(dir, SMALL_SAMPLE, sampleBytes(1024));
  const providers = await serializedProviders(dir);
  return { dir, providers, smallSample: SMALL_SAMPLE, remove: () => removeFixtureProject(dir) };
}

function sampleBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7919) & 0xff;
  return bytes;
}

/** Starts a provider process in the project and configures it as the engine would. */
export async function configuredProvider(
  project: BenchProject,
  emulator: Pick<EmulatorProcess, "apiKey" | "baseUrl" | "campaignsBaseUrl">,
  extra: Record<string, string> = {},
): Promise<ProviderProcess> {
  const provider = await startProviderProcess(project.dir);
  void provider.exited.then(track(provider.pid));
  try {
    await provider.configure({
      "voiceplatform:apiKey": emulator.apiKey,
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
      ...extra,
    });
  } catch (error) {
    await provider.close();
    throw error;
  }
  return provider;
}

/** Inputs as the SDK registers them: the user's values plus the serialized provider. */
export function registered(project: BenchProject, kind: ResourceKind, inputs: Inputs): Inputs {
  return { ...inputs, __provider: project.providers[kind] };
}

/** check as the engine runs it before every create and update; failures are a broken bench. */
export async function engineCheck(
  provider: ProviderProcess,
  project: BenchProject,
  kind: ResourceKind,
  name: string,
  news: Inputs,
  olds: Inputs = {},
): Promise<Inputs> {
  const result = await provider.check(
    resourceUrn(kind, name),
    olds,
    registered(project, kind, news),
  );
  if (result.failures.length > 0) {
    throw new Error(`check of ${kind} ${name} failed: ${JSON.stringify(result.failures)}`);
  }
  return result.inputs;
}
