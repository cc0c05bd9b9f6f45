/**
 * Section 1: what a provider handler costs over the bare HTTP request it makes. Both arms run in
 * this process against the same emulator (in its own process), interleaved A/B with the order
 * alternating every iteration, so drift and noise hit both alike.
 */
import { openAsBlob } from "node:fs";
import { join } from "node:path";
import { Agent, FormData, request } from "undici";
import { configureAgainst } from "../provider/emulator-harness";
import { resetProcessState } from "../../provider/settings/process-state";
import { callApi } from "../../provider/platform/http-client";
import * as runtime from "../../provider/runtime";
import { sipCarrier, toCarrierBody, SipCarrierInputs } from "../../provider/resources/sip-carrier";
import { toSubscribeBody, CampaignWebhookInputs } from "../../provider/resources/campaign-webhook";
import { toUpdateBody, VoiceInputs } from "../../provider/resources/voice";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { withoutProvider } from "../support/provider-bags";
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process";
import {
  carrierInputs,
  sampleDirectory,
  touch,
  voiceInputs,
  webhookInputs,
  writeSample,
} from "./resources";
import { median, p90, round, since } from "./stats";
import { callContext } from "../support/call-context";

export interface Timing {
  readonly median: number;
  readonly p90: number;
}

export interface OverheadRow {
  readonly operation: string;
  readonly body: "json" | "multipart";
  readonly iterations: number;
  /** Milliseconds per call. */
  readonly provider: Timing;
  readonly direct: Timing;
  /** Provider median over direct median. */
  readonly ratio: number;
  /** A layer of a handler, stopped short of the rest: reported, not held to the target. */
  readonly layer?: boolean;
}

export interface InProcessSizes {
  readonly jsonIterations: number;
  readonly multipartIterations: number;
  readonly sampleBytes: number;
  /** Iterations of the carrier create against an emulator answering after 20 ms. */
  readonly latencyIterations: number;
}

type Arm = () => Promise<unknown>;

/** Runs both arms `iterations` times after a warm-up, alternating which goes first. */
export async function interleave(
  iterations: number,
  provider: Arm,
  direct: Arm,
  beforeProvider: () => Promise<void> = async () => undefined,
): Promise<{ provider: number[]; direct: number[] }> {
  const times = { provider: [] as number[], direct: [] as number[] };
  // Long enough for both arms' code to be optimized before anything is recorded.
  const warmUp = Math.max(5, Math.round(iterations / 2));
  const timed = async (arm: "provider" | "direct", index: number) => {
    if (arm === "provider") await beforeProvider();
    const start = performance.now();
    await (arm === "provider" ? provider() : direct());
    if (index >= warmUp) times[arm].push(since(start));
  };
  for (let index = 0; index < warmUp + iterations; index++) {
    const first = index % 2 === 0 ? "provider" : "direct";
    await timed(first, index);
    await timed(first === "provider" ? "direct" : "provider", index);
  }
  return times;
}

export function overheadRow(
  operation: string,
  body: OverheadRow["body"],
  times: { provider: number[]; direct: number[] },
): OverheadRow {
  const provider = { median: round(median(times.provider)), p90: round(p90(times.provider)) };
  const direct = { median: round(median(times.direct)), p90: round(p90(times.direct)) };
  return {
    operation,
    body,
    iterations: times.provider.length,
    provider,
    direct,
    ratio: round(median(times.provider) / median(times.direct)),
  };
}

/** A bare undici client with the provider's connection settings and headers. */
export class DirectClient {
  private readonly agent: Agent;

  constructor(
    private readonly emulator: Pick<EmulatorProcess, "apiKey">,
    connections = 16,
  ) {
    this.agent = new Agent({
      connections,
      keepAliveTimeout: 30_000,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  private headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: this.emulator.apiKey,
      accept: "application/json",
      "user-agent": "pulumi-voice-platform",
    };
    if (json) headers["content-type"] = "application/json";
    return headers;
  }

  /** Sends a prepared body and reads the answer, failing on anything but 2xx. */
  async send(method: "POST" | "PUT", url: string, body: object | FormData): Promise<unknown> {
    const json = !(body instanceof FormData);
    const res = await request(url, {
      method,
      headers: this.headers(json),
      body: json ? JSON.stringify(body) : body,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw new Error(`direct ${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
    }
    return JSON.parse(text);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The text fields of the clone form the bench's voices send. */
export function cloneFormFields(inputs: Inputs): Record<string, string> {
  return {
    name: String(inputs.name),
    supportedLocales: JSON.stringify(inputs.supportedLocales),
    stability: String(inputs.stability),
    similarityBoost: String(inputs.similarityBoost),
    speed: String(inputs.speed),
  };
}

/** The clone form the provider sends, built with undici's FormData and openAsBlob. */
export async function directCloneForm(inputs: Inputs, files: readonly string[]): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(cloneFormFields(inputs))) form.append(name, value);
  for (const file of files) {
    form.append("files", await openAsBlob(file, { type: "audio/wav" }), file.split("/").pop());
  }
  return form;
}

async function checked(kind: "Voice" | "SipCarrier" | "CampaignWebhook", news: Inputs) {
  const { inputs, failures } = await runtime[kind].check({}, news);
  if (failures.length > 0) throw new Error(`${kind} check failed: ${JSON.stringify(failures)}`);
  return inputs;
}

export async function measureInProcess(sizes: InProcessSizes): Promise<OverheadRow[]> {
  const emulator = await startEmulatorProcess();
  const direct = new DirectClient(emulator);
  const samples = await sampleDirectory("in-process");
  // The in-process provider against the emulator, as `configure` does for the engine.
  configureAgainst(emulator);
  const rows: OverheadRow[] = [];
  try {
    const carrier = await checked("SipCarrier", carrierInputs(1));
    const carrierBody = toCarrierBody(SipCarrierInputs.parse(carrier));
    const createCarrier = () => runtime.SipCarrier.create(carrier);
    const sendCarrier = () =>
      direct.send("POST", `${emulator.baseUrl}/organization/sip`, carrierBody);
    rows.push(
      overheadRow(
        "SipCarrier create",
        "json",
        await interleave(sizes.jsonIterations, createCarrier, sendCarrier),
      ),
    );
    // Where the handler's overhead goes: the same create stopped at each layer of the provider.
    const layers: [string, () => Promise<unknown>][] = [
      [
        "  of which the HTTP layer (callApi)",
        () =>
          callApi(
            {
              operation: "bench",
              method: "POST",
              origin: "api",
              path: "/organization/sip",
              json: carrierBody,
              idempotent: false,
            },
            callContext(),
          ),
      ],
      [
        "  + validation, wire mapping (module)",
        () => sipCarrier.create(callContext(), withoutProvider(carrier)),
      ],
    ];
    for (const [operation, layer] of layers) {
      const times = await interleave(sizes.jsonIterations, layer, sendCarrier);
      rows.push({ ...overheadRow(operation, "json", times), layer: true });
      await emulator.reset();
    }
    // The same pair when the platform takes 20 ms, as a real one takes at least: the fixed cost
    // of the handler next to a realistic round trip.
    await emulator.settings({ latencyMs: 20 });
    rows.push(
      overheadRow(
        "SipCarrier create, platform at 20 ms",
        "json",
        await interleave(sizes.latencyIterations, createCarrier, sendCarrier),
      ),
    );
    await emulator.reset();

    const hook = await checked("CampaignWebhook", webhookInputs(1));
    const hookBody = toSubscribeBody(CampaignWebhookInputs.parse(hook));
    const hookUrl = `${emulator.campaignsBaseUrl}/campaigns/${hook.campaignId}/webhook/subscribe`;
    rows.push(
      overheadRow(
        "CampaignWebhook create",
        "json",
        await interleave(
          sizes.jsonIterations,
          () => runtime.CampaignWebhook.create(hook),
          () => direct.send("POST", hookUrl, hookBody),
        ),
      ),
    );
    await emulator.reset();

    const small = writeSample(join(samples.dir, "small.wav"), 1024);
    const voice = await checked("Voice", voiceInputs(1, [small]));
    const { id, outs } = await runtime.Voice.create(voice);
    const renamed = await checked("Voice", { ...voiceInputs(1, [small]), name: "Renamed voice" });
    const voiceBody = toUpdateBody(VoiceInputs.parse(withoutProvider(renamed)));
    rows.push(
      overheadRow(
        "Voice update",
        "json",
        await interleave(
          sizes.jsonIterations,
          () => runtime.Voice.update(id, { ...outs }, renamed),
          () => direct.send("PUT", `${emulator.baseUrl}/voices/${id}`, voiceBody),
        ),
      ),
    );
    await emulator.reset();

    const sample = writeSample(join(samples.dir, "sample-1mb.wav"), sizes.sampleBytes);
    const clone = await checked("Voice", voiceInputs(2, [sample]));
    const cloneUrl = `${emulator.baseUrl}/voices/voice-clone`;
    const cloneDirect = async () =>
      direct.send("POST", cloneUrl, await directCloneForm(clone, [sample]));
    const megabytes = `${round(sizes.sampleBytes / 2 ** 20, 2)} MiB`;
    // A create hashes its samples once: a new modification time makes the hash cache miss.
    rows.push(
      overheadRow(
        `Voice clone ${megabytes} (hashed per call)`,
        "multipart",
        await interleave(
          sizes.multipartIterations,
          () => runtime.Voice.create(clone),
          cloneDirect,
          () => touch([sample]),
        ),
      ),
    );
    await emulator.reset();
    rows.push(
      overheadRow(
        `Voice clone ${megabytes} (hash cached)`,
        "multipart",
        await interleave(sizes.multipartIterations, () => runtime.Voice.create(clone), cloneDirect),
      ),
    );
    return rows;
  } finally {
    await resetProcessState();
    await direct.close();
    await emulator.stop();
    await samples.remove();
  }
}
