/**
 * Sections 4 and 5: a stack of resources (the three kinds in turn) created through one
 * dynamic-provider process with a fixed number of calls in flight, as the engine runs them,
 * against the emulator in its own process with added latency and, in section 5, a rate limit.
 * Every run ends by counting the objects in the emulator's state: each resource exactly once.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import type { Inputs } from "../../provider/core/resource-descriptor";
import type { EmulatorState } from "../../provider/emulator";
import { join } from "node:path";
import { CampaignWebhookInputs, toSubscribeBody } from "../../provider/resources/campaign-webhook";
import { SipCarrierInputs, toCarrierBody } from "../../provider/resources/sip-carrier";
import { startProviderProcess, type ProviderProcess } from "../support/provider-process";
import { resourceUrn, type ResourceKind } from "../support/serialized-provider";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";
import { track } from "./children";
import { configuredProvider, engineCheck, type BenchProject } from "./fixture";
import { cloneFormFields, DirectClient, directCloneForm } from "./in-process";
import { inputsFor, kindOf } from "./resources";
import { median, p90, round, since } from "./stats";

export interface ScaleOptions {
  readonly resources: number;
  readonly inFlight: number;
  readonly latencyMs: number;
  /** Requests per second the emulator allows; absent: unlimited. */
  readonly rateLimit?: number;
}

export interface ScaleResult extends ScaleOptions {
  readonly seconds: number;
  /** Resources created successfully per second. */
  readonly throughput: number;
  /** in flight / latency, or the rate limit when there is one. */
  readonly ideal: number;
  readonly ratio: number;
  /** Per create call, milliseconds. */
  readonly callMedian: number;
  readonly callP90: number;
  /** HTTP answers the emulator gave, by status. */
  readonly statuses: Record<string, number>;
  readonly created: Record<ResourceKind, number>;
  readonly missing: number;
  readonly duplicated: number;
  readonly failures: string[];
  /**
   * CPU milliseconds per resource (its check and its create) in each process: the CPU ceiling on
   * a small machine.
   */
  readonly cpuPerCreateMs: { bench: number; provider: number; emulator: number };
  /** The same creates without this package, measured right after (section 4 only). */
  readonly controls?: ScaleControls;
}

/** Runs `task` over every item with at most `limit` at once; results in item order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface Planned {
  readonly kind: ResourceKind;
  readonly index: number;
  readonly name: string;
  readonly inputs: Inputs;
}

/** A mixed stack of `resources` resources, the three kinds in turn, each unique by index. */
export function planStack(project: BenchProject, resources: number): Planned[] {
  return Array.from({ length: resources }, (_, index) => {
    const kind = kindOf(index);
    return {
      kind,
      index,
      name: `${kind}-${index}`,
      inputs: inputsFor(kind, index, [project.smallSample]),
    };
  });
}

export async function measureScale(
  project: BenchProject,
  options: ScaleOptions,
): Promise<ScaleResult> {
  const emulator = await startEmulatorProcess({
    latencyMs: options.latencyMs,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  let provider: ProviderProcess | undefined;
  try {
    const running = await configuredProvider(project, emulator, {
      "voiceplatform:maxConcurrency": String(options.inFlight),
    });
    provider = running;
    const plan = planStack(project, options.resources);
    // CPU over the checks and the creates, as a `pulumi up` spends it: whatever a handler loads
    // late (this package's HTTP client loads with the first call) is counted either way.
    const cpuBefore = {
      bench: process.cpuUsage(),
      provider: cpuMs(running.pid),
      emulator: cpuMs(emulator.pid),
    };
    // The engine checks every resource before creating it; checks send no request.
    const checked = await pool(plan, options.inFlight, (item) =>
      engineCheck(running, project, item.kind, item.name, item.inputs),
    );
    const failures: string[] = [];
    const callTimes: number[] = [];
    const started = performance.now();
    await pool(plan, options.inFlight, async (item, index) => {
      const callStart = performance.now();
      try {
        await running.create(resourceUrn(item.kind, item.name), checked[index]!);
      } catch (error) {
        failures.push(`${item.name}: ${(error as Error).message.split("\n")[0]}`);
      }
      callTimes.push(since(callStart));
    });
    const seconds = since(started) / 1000;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const perCreate = (ms: number) => round(ms / options.resources, 2);
    const cpuPerCreateMs = {
      bench: perCreate((benchCpu.user + benchCpu.system) / 1000),
      provider: perCreate(cpuMs(running.pid) - cpuBefore.provider),
      emulator: perCreate(cpuMs(emulator.pid) - cpuBefore.emulator),
    };
    const census = countObjects(await emulator.state(), plan);
    const statuses: Record<string, number> = {};
    for (const entry of await emulator.requests()) {
      const status = String(entry.status);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    const throughput = (options.resources - failures.length) / seconds;
    const ideal = options.rateLimit ?? options.inFlight / (options.latencyMs / 1000);
    return {
      ...options,
      seconds: round(seconds),
      throughput: round(throughput, 1),
      ideal: round(ideal, 1),
      ratio: round(throughput / ideal),
      callMedian: round(median(callTimes), 1),
      callP90: round(p90(callTimes), 1),
      statuses,
      ...census,
      failures,
      cpuPerCreateMs,
    };
  } finally {
    await provider?.close();
    await emulator.stop();
  }
}

/** The same creates without this package, for what this machine allows at all. */
export interface ScaleControls {
  /**
   * Through the same dynamic-provider process and driver, with a handler that does nothing;
   * `cpuPerCreateMs` is that process's CPU per create, the floor of the provider's own figure.
   */
  readonly emptyHandler: {
    readonly throughput: number;
    readonly ratio: number;
    readonly cpuPerCreateMs: number;
  };
  /**
   * Through the same process and driver, a handler that sends each create's request with plain
   * undici (the same bodies, its own connection pool) and answers with the inputs: the floor of
   * any dynamic provider that calls a platform once per create.
   */
  readonly requestOnlyHandler: {
    readonly throughput: number;
    readonly ratio: number;
    readonly cpuPerCreateMs: number;
  };
  /**
   * The same HTTP requests with plain undici from one process, no Pulumi at all;
   * `cpuPerCreateMs` is what sending them costs that process, the HTTP client's share.
   */
  readonly plainHttp: {
    readonly throughput: number;
    readonly ratio: number;
    readonly cpuPerCreateMs: number;
  };
}

/**
 * A dynamic provider whose create answers at once with the inputs as outputs: the cost of the
 * SDK's process (gRPC, protobuf, property conversion) and of the engine's side, with no handler.
 */
const EMPTY_PROVIDER =
  "exports.handler = () => { let next = 0; " +
  "return { create: async (inputs) => ({ id: String(++next), outs: inputs }) }; };";

interface PlannedRequest {
  readonly url: string;
  readonly json?: unknown;
  /** The clone form's text fields; the sample is added where the form is sent. */
  readonly form?: Record<string, string>;
}

/** The request a planned create sends, as plain undici sends it. */
function plannedRequest(
  item: Planned,
  emulator: Pick<EmulatorProcess, "baseUrl" | "campaignsBaseUrl">,
): PlannedRequest {
  switch (item.kind) {
    case "SipCarrier":
      return {
        url: `${emulator.baseUrl}/organization/sip`,
        json: toCarrierBody(SipCarrierInputs.parse(item.inputs)),
      };
    case "CampaignWebhook":
      return {
        url: `${emulator.campaignsBaseUrl}/campaigns/${String(item.inputs.campaignId)}/webhook/subscribe`,
        json: toSubscribeBody(CampaignWebhookInputs.parse(item.inputs)),
      };
    case "Voice":
      return { url: `${emulator.baseUrl}/voices/voice-clone`, form: cloneFormFields(item.inputs) };
  }
}

/** Every planned request as a JSON file in the project, keyed by the inputs' name or url; its path. */
async function writeRequests(
  project: BenchProject,
  emulator: Pick<EmulatorProcess, "baseUrl" | "campaignsBaseUrl">,
  plan: readonly Planned[],
): Promise<string> {
  const requests = Object.fromEntries(
    plan.map((item) => [
      String(item.inputs.name ?? item.inputs.url),
      plannedRequest(item, emulator),
    ]),
  );
  const file = join(project.dir, "bench-requests.json");
  await writeFile(file, JSON.stringify(requests));
  return file;
}

/** The package `installRequestOnlyProvider` writes into a project. */
export const REQUEST_ONLY_PACKAGE = "bench-request-only";

/**
 * Writes, into the project's node_modules, a module whose exports are a dynamic provider: its
 * create sends the planned request with plain undici, as `DirectClient` does, and answers with the
 * inputs. No validation, mapping, settings, retries, limits or secrets bookkeeping: the floor of any
 * provider that calls the platform once per create. Programs `require` it; its `__provider` is the
 * serializer's `require` of it.
 */
export async function installRequestOnlyProvider(
  project: BenchProject,
  emulator: Pick<EmulatorProcess, "apiKey" | "baseUrl" | "campaignsBaseUrl">,
  plan: readonly Planned[],
): Promise<void> {
  const requests = await writeRequests(project, emulator, plan);
  const dir = join(project.dir, "node_modules", REQUEST_ONLY_PACKAGE);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: REQUEST_ONLY_PACKAGE, version: "1.0.0", main: "index.js" }),
  );
  const sample = join(project.dir, project.smallSample);
  await writeFile(
    join(dir, "index.js"),
    `"use strict";
const { Agent, FormData, request } = require("undici");
const { openAsBlob } = require("node:fs");
const requests = require(${JSON.stringify(requests)});
const agent = new Agent({ connections: 64, keepAliveTimeout: 30000, headersTimeout: 0, bodyTimeout: 0 });
const base = { authorization: ${JSON.stringify(emulator.apiKey)}, accept: "application/json", "user-agent": "pulumi-voice-platform" };
let next = 0;
exports.create = async (inputs) => {
  const planned = requests[inputs.name ?? inputs.url];
  let body = JSON.stringify(planned.json);
  let headers = { ...base, "content-type": "application/json" };
  if (planned.form) {
    body = new FormData();
    for (const [name, value] of Object.entries(planned.form)) body.append(name, value);
    body.append("files", await openAsBlob(${JSON.stringify(sample)}, { type: "audio/wav" }), "small.wav");
    headers = base;
  }
  const res = await request(planned.url, { method: "POST", headers, body, dispatcher: agent });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error("request-only provider: " + res.statusCode + " " + text);
  return { id: JSON.parse(text).id ?? "request-only-" + ++next, outs: inputs };
};
`,
  );
}

export async function measureScaleControls(
  project: BenchProject,
  options: ScaleOptions,
): Promise<ScaleControls> {
  const ideal = options.inFlight / (options.latencyMs / 1000);
  const rate = (count: number, ms: number) => {
    const throughput = count / (ms / 1000);
    return { throughput: round(throughput, 1), ratio: round(throughput / ideal) };
  };
  const plan = planStack(project, options.resources);

  /** CPU per create of the SDK's process running `handlerText` for every planned create. */
  const throughHandler = async (handlerText: string) => {
    const provider = await startProviderProcess(project.dir);
    void provider.exited.then(track(provider.pid));
    try {
      await provider.configure({});
      const cpuBefore = cpuMs(provider.pid);
      const checked = await pool(plan, options.inFlight, async (item) => {
        const urn = resourceUrn(item.kind, item.name);
        return (await provider.check(urn, {}, { ...item.inputs, __provider: handlerText })).inputs;
      });
      const started = performance.now();
      await pool(plan, options.inFlight, (item, index) =>
        provider.create(resourceUrn(item.kind, item.name), checked[index]!),
      );
      return {
        ...rate(plan.length, since(started)),
        cpuPerCreateMs: round((cpuMs(provider.pid) - cpuBefore) / plan.length, 2),
      };
    } finally {
      await provider.close();
    }
  };
  const emptyHandler = await throughHandler(EMPTY_PROVIDER);

  const requestsTo = await startEmulatorProcess({ latencyMs: options.latencyMs });
  let requestOnlyHandler: ScaleControls["requestOnlyHandler"];
  try {
    await installRequestOnlyProvider(project, requestsTo, plan);
    requestOnlyHandler = await throughHandler(
      `exports.handler = () => require(${JSON.stringify(REQUEST_ONLY_PACKAGE)});`,
    );
    const answered = (await requestsTo.requests()).filter(
      (entry) => entry.status !== null && entry.status < 300,
    );
    if (answered.length !== plan.length) {
      throw new Error(`the request-only handler got ${answered.length} of ${plan.length} answers`);
    }
  } finally {
    await requestsTo.stop();
  }

  const emulator = await startEmulatorProcess({ latencyMs: options.latencyMs });
  const direct = new DirectClient(emulator, options.inFlight);
  try {
    const sample = join(project.dir, project.smallSample);
    const send = async (item: Planned) => {
      const { url, json, form } = plannedRequest(item, emulator);
      return direct.send(
        "POST",
        url,
        form ? await directCloneForm(item.inputs, [sample]) : (json as object),
      );
    };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await pool(plan, options.inFlight, send);
    const elapsed = since(started);
    const cpu = process.cpuUsage(cpuBefore);
    return {
      emptyHandler,
      requestOnlyHandler,
      plainHttp: {
        ...rate(plan.length, elapsed),
        cpuPerCreateMs: round((cpu.user + cpu.system) / 1000 / plan.length, 2),
      },
    };
  } finally {
    await direct.close();
    await emulator.stop();
  }
}

/** User plus system CPU time of a process so far, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** How many of the planned objects exist once, how many are missing, how many exist twice. */
export function countObjects(
  state: EmulatorState,
  plan: readonly Planned[],
): { created: Record<ResourceKind, number>; missing: number; duplicated: number } {
  const names = new Map<string, number>();
  const seen = (key: string) => names.set(key, (names.get(key) ?? 0) + 1);
  const created: Record<ResourceKind, number> = { Voice: 0, SipCarrier: 0, CampaignWebhook: 0 };
  for (const organization of Object.values(state.organizations)) {
    for (const voice of organization.voices) {
      seen(`Voice:${voice.name}`);
      created.Voice++;
    }
    for (const carrier of organization.carriers) {
      seen(`SipCarrier:${carrier.name}`);
      created.SipCarrier++;
    }
    for (const subscription of Object.values(organization.subscriptions).flat()) {
      seen(`CampaignWebhook:${subscription.url}`);
      created.CampaignWebhook++;
    }
  }
  let missing = 0;
  let duplicated = 0;
  for (const item of plan) {
    const identity = item.kind === "CampaignWebhook" ? item.inputs.url : item.inputs.name;
    const key = `${item.kind}:${String(identity)}`;
    const count = names.get(key) ?? 0;
    if (count === 0) missing++;
    if (count > 1) duplicated += count - 1;
  }
  return { created, missing, duplicated };
}
