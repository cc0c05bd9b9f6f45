/**
 * Moving a TypeScript stack from the dynamic resources to the plugin's, with nothing created on
 * the platform (docs/languages.md, "Moving a TypeScript stack from the dynamic resources to the plugin"):
 *
 * 1. `pulumi state delete` each dynamic resource: the state forgets it and no handler runs.
 * 2. Declare the plugin resource with the same inputs and `import: <id>`, and `pulumi up`: the
 *    plugin adopts each object by id without a call.
 *
 * The emulator's request log stays empty through both steps; afterwards the plugin manages the
 * objects (a rename is one PUT on the same voice).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import {
  cli,
  describeE2E,
  E2EProject,
  errorText,
  providerWarnings,
  recorder,
} from "../e2e/harness";
import { sampleBytes } from "../e2e/program";
import { nodeSdk, runTool } from "./toolchains";
import { upWithPreview } from "../support/pulumi-up";

const run = promisify(execFile);

const API_KEY = "migration-api-key-0c4d";
const SIP_PASSWORD = "migration-sip-password-Lm3";

/** The same three objects, declared with the dynamic resources or with the plugin's SDK. */
function program(kind: "dynamic" | "plugin", voiceName = "Support agent"): string {
  const from = kind === "dynamic" ? "pulumi-voice-platform" : "pulumi-voice-platform-sdk";
  const adopt = (output: string) =>
    kind === "dynamic" ? "" : `, { import: config.require("${output}") }`;
  return `import * as pulumi from "@pulumi/pulumi";
import { CampaignWebhook, SipCarrier, Voice } from "${from}";

const config = new pulumi.Config();
const voice = new Voice("support-voice", {
  name: "${voiceName}",
  supportedLocales: ["en-US"],
  stability: 0.5,
  files: ["samples/greeting.wav"],
}${adopt("voiceRecordId")});
const carrier = new SipCarrier("main-trunk", {
  name: "main-trunk",
  requiresRegister: true,
  registerUsername: "acme-trunk",
  registerPassword: config.requireSecret("sipPassword"),
  gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060 }],
}${adopt("carrierId")});
const webhook = new CampaignWebhook("interested-leads", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/voice/interested",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
}${adopt("webhookId")});

export const voiceRecordId = voice.id;
export const carrierId = carrier.id;
export const webhookId = webhook.id;
`;
}

describeE2E("moving a TypeScript stack from the dynamic resources to the plugin", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let stack: Stack;

  async function outputs(): Promise<Record<string, string>> {
    const all = await stack.outputs();
    return Object.fromEntries(Object.entries(all).map(([name, o]) => [name, String(o.value)]));
  }

  async function exportedResources(): Promise<{ urn: string; type: string }[]> {
    const state = JSON.parse(await project.exportStackText("dev")) as {
      deployment: { resources?: { urn: string; type: string }[] };
    };
    return state.deployment.resources ?? [];
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create();
    const sdk = await nodeSdk();
    await runTool(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", sdk.tarball],
      { cwd: project.dir },
    );
    await project.writeFile(
      "Pulumi.yaml",
      "name: voice-platform-migration\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    await project.writeFile("samples/greeting.wav", sampleBytes("greeting"));
    // The fixture comes with the e2e suite's index.js, which Node.js would run before index.ts.
    await rm(join(project.dir, "index.js"));
    await project.writeFile("index.ts", program("dynamic"));
    stack = await project.stack("dev", {
      env: {
        PATH: `${project.dir}/node_modules/.bin:${process.env.PATH ?? ""}`,
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      },
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "voice-platform-migration:sipPassword": { value: SIP_PASSWORD, secret: true },
      },
    });
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("the dynamic resources are created as before", async () => {
    const up = await upWithPreview(stack, recorder().options).catch((error: unknown) => {
      throw new Error(errorText(error));
    });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    const types = (await exportedResources()).map((r) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "pulumi-nodejs:dynamic/voiceplatform:Voice",
        "pulumi-nodejs:dynamic/voiceplatform:SipCarrier",
        "pulumi-nodejs:dynamic/voiceplatform:CampaignWebhook",
      ]),
    );
  });

  test("state delete, then import by id with the plugin: nothing is created or called", async () => {
    const ids = await outputs();
    const before = (await emulator.requests()).length;

    // 1. The state forgets the dynamic resources; their delete handlers never run.
    const dynamic = (await exportedResources()).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/voiceplatform:"),
    );
    expect(dynamic).toHaveLength(3);
    for (const { urn } of dynamic) {
      await run(cli!.pulumi, ["state", "delete", urn, "--yes", "--stack", "dev"], {
        cwd: project.dir,
        env: { ...project.env(), PULUMI_HOME: project.pulumiHome },
      });
    }

    // 2. The plugin's resources adopt the same objects by id.
    await stack.setAllConfig({
      "voice-platform-migration:voiceRecordId": { value: ids.voiceRecordId! },
      "voice-platform-migration:carrierId": { value: ids.carrierId! },
      "voice-platform-migration:webhookId": { value: ids.webhookId! },
    });
    await project.writeFile("index.ts", program("plugin"));
    const transcript = recorder();
    const up = await upWithPreview(stack, transcript.options).catch((error: unknown) => {
      throw new Error(errorText(error));
    });
    expect(up.summary.resourceChanges).toMatchObject({ import: 3 });
    expect(up.summary.resourceChanges?.create).toBeUndefined();
    expect(up.summary.resourceChanges?.replace).toBeUndefined();
    // No "stays on the platform" warning: no dynamic delete handler ran. Each import says that
    // only the id is known (the API has no read).
    const warnings = providerWarnings(transcript);
    expect(
      warnings.filter((warning) => /stays (on the platform|subscribed)/.test(warning)),
    ).toEqual([]);
    const lookedUp =
      /^(CampaignWebhook|SipCarrier|Voice) ".*" is looked up by id, but the platform has no read operation/;
    expect(warnings.filter((warning) => !lookedUp.test(warning))).toEqual([]);
    expect(new Set(warnings.map((warning) => lookedUp.exec(warning)![1]))).toEqual(
      new Set(["CampaignWebhook", "SipCarrier", "Voice"]),
    );
    expect((await emulator.requests()).slice(before)).toEqual([]);

    const after = await outputs();
    expect(after).toEqual(ids);
    const resources = await exportedResources();
    expect(resources.map((r) => r.type)).toEqual(
      expect.arrayContaining([
        "voiceplatform:index:Voice",
        "voiceplatform:index:SipCarrier",
        "voiceplatform:index:CampaignWebhook",
      ]),
    );
    expect(resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    const text = await project.exportStackText("dev");
    expect(text).not.toContain("__provider");
    for (const secret of [API_KEY, SIP_PASSWORD]) expect(text).not.toContain(secret);
  });

  test("afterwards the plugin manages them: a preview is clean, a rename is one PUT on the same voice", async () => {
    const preview = await stack.preview(recorder().options);
    expect(preview.changeSummary).toEqual({ same: 4 });

    const { voiceRecordId } = await outputs();
    const before = (await emulator.requests()).length;
    await project.writeFile("index.ts", program("plugin", "Support agent v2"));
    const up = await upWithPreview(stack, recorder().options);
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 3 });
    const requests = (await emulator.requests()).slice(before);
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PUT /voices/${voiceRecordId} 200`,
    ]);
    const voices = (await emulator.state()).organizations.org_emulator!.voices;
    expect(voices.map((v) => [v.id, v.name])).toEqual([[voiceRecordId, "Support agent v2"]]);
  });
});
