/**
 * Section 2: each operation as the engine calls it, over gRPC into the real dynamic-provider
 * process (installed from the packed package), against the emulator in its own process. Operations
 * that make an HTTP request are interleaved with the same request sent directly with undici from
 * this process; check, diff and the updates that need no request stand alone.
 */
import { join } from "node:path";
import { toCarrierBody, SipCarrierInputs } from "../../provider/resources/sip-carrier";
import { toSubscribeBody, CampaignWebhookInputs } from "../../provider/resources/campaign-webhook";
import { toUpdateBody, VoiceInputs } from "../../provider/resources/voice";
import type { Inputs } from "../../provider/core/resource-descriptor";
import { withoutProvider } from "../support/provider-bags";
import { resourceUrn, type ResourceKind } from "../support/serialized-provider";
import { startEmulatorProcess } from "./emulator-process";
import { benchProject, configuredProvider, engineCheck, type BenchProject } from "./fixture";
import { DirectClient, directCloneForm, interleave } from "./in-process";
import { carrierInputs, voiceInputs, webhookInputs } from "./resources";
import { median, p90, round, since } from "./stats";

export interface GrpcRow {
  readonly kind: ResourceKind;
  readonly operation: "check" | "diff" | "create" | "update";
  readonly iterations: number;
  /** Milliseconds per call through gRPC. */
  readonly grpc: { median: number; p90: number };
  /** The same HTTP request sent directly, when the operation sends one. */
  readonly direct?: { median: number; p90: number };
  readonly ratio?: number;
}

async function alone(iterations: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  const warmUp = Math.max(5, Math.round(iterations / 2));
  for (let index = 0; index < warmUp + iterations; index++) {
    const start = performance.now();
    await call();
    if (index >= warmUp) times.push(since(start));
  }
  return times;
}

const timing = (times: number[]) => ({ median: round(median(times)), p90: round(p90(times)) });

function row(
  kind: ResourceKind,
  operation: GrpcRow["operation"],
  grpc: number[],
  direct?: number[],
): GrpcRow {
  return {
    kind,
    operation,
    iterations: grpc.length,
    grpc: timing(grpc),
    ...(direct === undefined
      ? {}
      : { direct: timing(direct), ratio: round(median(grpc) / median(direct)) }),
  };
}

export async function measureGrpc(iterations: number, shared?: BenchProject): Promise<GrpcRow[]> {
  const project = shared ?? (await benchProject());
  const emulator = await startEmulatorProcess();
  const provider = await configuredProvider(project, emulator);
  const direct = new DirectClient(emulator);
  const rows: GrpcRow[] = [];
  try {
    const plan: {
      kind: ResourceKind;
      news: Inputs;
      changed: Inputs;
      createDirect: (checked: Inputs) => () => Promise<unknown>;
      updateDirect?: (id: string, checked: Inputs) => () => Promise<unknown>;
    }[] = [
      {
        kind: "SipCarrier",
        news: carrierInputs(1),
        changed: { ...carrierInputs(1), registerPassword: "rotated-sip-password" },
        createDirect: (checked) => {
          const body = toCarrierBody(SipCarrierInputs.parse(withoutProvider(checked)));
          return () => direct.send("POST", `${emulator.baseUrl}/organization/sip`, body);
        },
      },
      {
        kind: "CampaignWebhook",
        news: webhookInputs(1),
        changed: { ...webhookInputs(1), url: "https://hooks.example.com/bench/renamed" },
        createDirect: (checked) => {
          const body = toSubscribeBody(CampaignWebhookInputs.parse(withoutProvider(checked)));
          const path = `/campaigns/${checked.campaignId}/webhook/subscribe`;
          const url = `${emulator.campaignsBaseUrl}${path}`;
          return () => direct.send("POST", url, body);
        },
      },
      {
        kind: "Voice",
        news: voiceInputs(1, [project.smallSample]),
        changed: { ...voiceInputs(1, [project.smallSample]), name: "Renamed bench voice" },
        createDirect: (checked) => {
          const files = [join(project.dir, project.smallSample)];
          const url = `${emulator.baseUrl}/voices/voice-clone`;
          return async () => direct.send("POST", url, await directCloneForm(checked, files));
        },
        updateDirect: (id, checked) => {
          const body = toUpdateBody(VoiceInputs.parse(withoutProvider(checked)));
          return () => direct.send("PUT", `${emulator.baseUrl}/voices/${id}`, body);
        },
      },
    ];
    for (const { kind, news, changed, createDirect, updateDirect } of plan) {
      const name = `bench-${kind}`;
      const urn = resourceUrn(kind, name);
      const checked = await engineCheck(provider, project, kind, name, news);
      const created = await provider.create(urn, checked);
      const checkedChange = await engineCheck(provider, project, kind, name, changed, checked);

      rows.push(
        row(
          kind,
          "check",
          await alone(iterations, () => engineCheck(provider, project, kind, name, news)),
        ),
      );
      rows.push(
        row(
          kind,
          "diff",
          await alone(iterations, () =>
            provider.diff(created.id, urn, created.properties, checkedChange, checked),
          ),
        ),
      );
      const createTimes = await interleave(
        iterations,
        () => provider.create(urn, checked),
        createDirect(checked),
      );
      rows.push(row(kind, "create", createTimes.provider, createTimes.direct));
      const update = () =>
        provider.update(created.id, urn, created.properties, checkedChange, checked);
      if (updateDirect === undefined) {
        rows.push(row(kind, "update", await alone(iterations, update)));
      } else {
        const times = await interleave(iterations, update, updateDirect(created.id, checkedChange));
        rows.push(row(kind, "update", times.provider, times.direct));
      }
      await emulator.reset();
    }
    return rows;
  } finally {
    await direct.close();
    await provider.close();
    await emulator.stop();
    if (shared === undefined) await project.remove();
  }
}
