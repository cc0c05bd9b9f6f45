/**
 * The whole life of a stack on the real engine, from a project where the package is installed
 * from its `npm pack` output: up, a no-op preview, in-place updates and replacements, refresh,
 * what the state file holds, destroy. The tests run in order on one stack.
 *
 * The API key only comes from `pulumi config set --secret voiceplatform:apiKey`; the platform's
 * addresses come from the environment fallbacks (VOICEPLATFORM_BASE_URL, ...), which are the only
 * VOICEPLATFORM_* variables the engine and provider see.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import {
  describeE2E,
  E2EProject,
  fixturePulumiVersion,
  providerWarningDiagnostics,
  WILL_STAY,
  providerWarnings,
  recorder,
  type Transcript,
} from "./harness";
import { repoPulumiVersion } from "../support/packed-package";
import { oneLineProviderText, type ResourceKind } from "../support/serialized-provider";
import { sampleBytes } from "./program";
import { upWithPreview } from "../support/pulumi-up";

const API_KEY = "e2e-lifecycle-api-key-5d0c7e";
const SIP_PASSWORD = "e2e-sip-password-Q4m9x";
const CRM_TOKEN = "e2e-crm-token-Zr82kT";
const SECRETS = [API_KEY, SIP_PASSWORD, CRM_TOKEN];

describeE2E("a stack's life on the real Pulumi engine (package from npm pack)", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let stack: Stack;
  /** Everything the CLI printed, for the check that no secret is ever shown. */
  const transcripts: Transcript[] = [];

  function record() {
    const transcript = recorder();
    transcripts.push(transcript);
    return transcript;
  }

  async function organization() {
    const state = await emulator.state();
    expect(Object.keys(state.organizations)).toEqual(["org_emulator"]);
    return state.organizations.org_emulator!;
  }

  async function outputs(): Promise<Record<string, unknown>> {
    const all = await stack.outputs();
    return Object.fromEntries(Object.entries(all).map(([name, output]) => [name, output.value]));
  }

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create();
    stack = await project.stack("dev", {
      env: {
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      },
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "e2e:sipPassword": { value: SIP_PASSWORD, secret: true },
        "e2e:crmToken": { value: CRM_TOKEN, secret: true },
      },
    });
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("a preview of the new stack plans every create and sends nothing", async () => {
    const preview = await stack.preview(record().options);
    expect(preview.changeSummary).toEqual({ create: 5 });
    expect(await emulator.newRequests()).toEqual([]);
  });

  test("up, with its preview phase, creates the voice, the SIP carrier and two webhooks once each; a second preview reports no changes", async () => {
    const transcript = record();
    const up = await upWithPreview(stack, transcript.options);
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 5 });

    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual([
      "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 200",
      "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 200",
      "POST /organization/sip 201",
      "POST /voices/voice-clone 200",
    ]);
    const held = await organization();
    expect(held.voices).toHaveLength(1);
    expect(held.voices[0]).toMatchObject({
      name: "Support agent",
      supportedLocales: ["en-US", "es-ES"],
      settings: { stability: 0.5, similarity_boost: 0.75, speed: 1 },
    });
    expect(held.voices[0]!.samples.map((s) => s.filename).sort()).toEqual([
      "closing.wav",
      "greeting.wav",
    ]);
    expect(held.carriers).toHaveLength(1);
    expect(held.carriers[0]).toMatchObject({ name: "main-trunk", register_password: "[redacted]" });
    expect(held.subscriptions["65a1f0c2e4b0a1b2c3d4e5f6"]).toHaveLength(2);

    const out = await outputs();
    expect(out.voiceRecordId).toBe(held.voices[0]!.id);
    expect(out.voiceId).toBe(held.voices[0]!.voiceId);
    expect(out.carrierId).toBe(held.carriers[0]!.id);
    // The program ran on the Node.js on PATH, with the SDK installed in the fixture project.
    expect(out.nodeVersion).toBe(process.env.E2E_EXPECT_NODE_VERSION ?? out.nodeVersion);
    expect(out.nodeVersion).toMatch(/^v\d+\./);
    expect(out.pulumiSdkVersion).toBe(fixturePulumiVersion() ?? repoPulumiVersion());

    const preview = await stack.preview(record().options);
    expect(preview.changeSummary).toEqual({ same: 5 });
    expect(await emulator.newRequests()).toEqual([]);
  });

  test("renaming the voice updates it in place: exactly one PUT, no new clone", async () => {
    const before = await outputs();
    await stack.setConfig("e2e:voiceName", { value: "Support agent v2" });
    const up = await upWithPreview(stack, record().options);
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 4 });

    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PUT /voices/${String(before.voiceRecordId)} 200`,
    ]);
    expect(requests[0]!.body).toMatchObject({ name: "Support agent v2" });
    const held = await organization();
    expect(held.voices.map((v) => [v.id, v.name])).toEqual([
      [before.voiceRecordId, "Support agent v2"],
    ]);
    expect((await outputs()).voiceRecordId).toBe(before.voiceRecordId);
  });

  test("changing a voice setting updates it in place: one PUT with snake_case settings", async () => {
    const before = await outputs();
    await stack.setConfig("e2e:stability", { value: "0.8" });
    const up = await upWithPreview(stack, record().options);
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 4 });

    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PUT /voices/${String(before.voiceRecordId)} 200`,
    ]);
    expect(requests[0]!.body).toMatchObject({
      settings: { stability: 0.8, similarity_boost: 0.75, speed: 1 },
    });
    const held = await organization();
    expect(held.voices).toHaveLength(1);
    expect(held.voices[0]!.settings.stability).toBe(0.8);
  });

  test("new content in a sample given as a FileAsset replaces the voice: a new clone, and a warning that the old one stays", async () => {
    const before = await outputs();
    const newAudio = sampleBytes("closing, recorded again");
    await project.writeFile("samples/closing.wav", newAudio);
    const transcript = record();
    const up = await upWithPreview(stack, transcript.options);
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 4 });

    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /voices/voice-clone 200",
    ]);
    const uploaded = requests[0]!.multipart?.files.map((f) => f.filename).sort();
    expect(uploaded).toEqual(["closing.wav", "greeting.wav"]);
    expect(requests[0]!.multipart?.fields.name).toBe("Support agent v2");

    const held = await organization();
    expect(held.voices).toHaveLength(2);
    const after = await outputs();
    expect(after.voiceRecordId).not.toBe(before.voiceRecordId);
    expect(held.voices.map((v) => v.id)).toEqual([before.voiceRecordId, after.voiceRecordId]);

    // On the voice, not the stack, and saying the platform now holds both.
    const warning = `voice "Support agent v2" (${String(before.voiceRecordId)}) is replaced: its replacement is created and this one stays on the platform`;
    const shown = providerWarningDiagnostics(transcript);
    expect(shown.filter((d) => !d.message.includes(WILL_STAY))).toEqual([
      { message: expect.stringContaining(warning), urn: expect.stringMatching(/::support-voice$/) },
    ]);
    // Said at the diff too, before anything happened, on the same resource.
    expect(shown.filter((d) => d.message.includes(WILL_STAY))).toContainEqual({
      message: expect.stringContaining(`(${String(before.voiceRecordId)}) will be replaced`),
      urn: expect.stringMatching(/::support-voice$/),
    });
    expect(transcript.text).toContain(`warning: ${warning}`);
  });

  test("new content in a sample given as a path replaces the voice too (the provider hashes the file)", async () => {
    const before = await outputs();
    await project.writeFile("samples/greeting.wav", sampleBytes("greeting, recorded again"));
    const transcript = record();
    const up = await upWithPreview(stack, transcript.options);
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 4 });
    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /voices/voice-clone 200",
    ]);
    expect((await organization()).voices).toHaveLength(3);
    expect((await outputs()).voiceRecordId).not.toBe(before.voiceRecordId);
    expect(providerWarnings(transcript).filter((m) => !m.includes(WILL_STAY))).toEqual([
      expect.stringContaining(`(${String(before.voiceRecordId)}) is replaced`),
    ]);
  });

  test("changing the carrier replaces it, with a warning that the old one stays", async () => {
    const before = await outputs();
    await stack.setConfig("e2e:carrierName", { value: "backup-trunk" });
    // The detailed diff shows the input that changed and names the cause; no output shows as removed.
    const detailed = record();
    const preview = await stack.preview({ ...detailed.options, diff: true });
    expect(preview.changeSummary).toEqual({ replace: 1, same: 4 });
    expect(detailed.text).toMatch(/~ name\s*: "main-trunk" => "backup-trunk"/);
    expect(detailed.text).not.toMatch(/- (carrierId|stateVersion)\b/);
    const summary = record();
    await stack.preview(summary.options);
    expect(summary.text).toMatch(/main-trunk +replace +\[diff: ~name\]/);
    // The preview names the object the replacement will leave on the platform.
    expect(providerWarnings(summary)).toEqual([
      expect.stringContaining(`SipCarrier "main-trunk" (${String(before.carrierId)}) ${WILL_STAY}`),
    ]);
    expect(await emulator.newRequests()).toEqual([]);

    const transcript = record();
    const up = await upWithPreview(stack, transcript.options);
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 4 });

    const requests = await emulator.newRequests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /organization/sip 201",
    ]);
    expect(requests[0]!.body).toMatchObject({ name: "backup-trunk" });

    const held = await organization();
    expect(held.carriers.map((c) => c.name)).toEqual(["main-trunk", "backup-trunk"]);
    const after = await outputs();
    expect(after.carrierId).toBe(held.carriers[1]!.id);

    const warning = `SIP carrier "main-trunk" (${String(before.carrierId)}) is replaced: its replacement is created and this one stays on the platform`;
    expect(providerWarnings(transcript).filter((m) => !m.includes(WILL_STAY))).toEqual([
      expect.stringContaining(warning),
    ]);
    expect(transcript.text).toContain("Diagnostics:");
    expect(transcript.text).toContain(`warning: ${warning}`);
  });

  test("refresh succeeds and changes nothing", async () => {
    const stateBefore = await emulator.state();
    const refresh = await stack.refresh(record().options);
    expect(refresh.summary.result).toBe("succeeded");
    const changes = refresh.summary.resourceChanges ?? {};
    expect(Object.keys(changes).filter((kind) => kind !== "same")).toEqual([]);
    expect(await emulator.newRequests()).toEqual([]);
    expect(await emulator.state()).toEqual(stateBefore);

    const preview = await stack.preview(record().options);
    expect(preview.changeSummary).toEqual({ same: 5 });
  });

  test("the key from `config set --secret` is all the provider used; no secret is in the state or the output in plaintext; each __provider is one require line; each source position is the program's line", async () => {
    // The environment of the engine, program and provider has no key: only stack config does.
    expect(Object.keys(stack.workspace.envVars).filter((name) => name.includes("API_KEY"))).toEqual(
      [],
    );
    expect(await stack.getConfig("voiceplatform:apiKey")).toEqual({
      value: API_KEY,
      secret: true,
    });
    const configFile = await project.stackConfigFile("dev");
    expect(configFile).toMatch(/voiceplatform:apiKey:\s+secure: /);
    for (const secret of SECRETS) expect(configFile).not.toContain(secret);

    // `pulumi stack export` (the Automation API's exportStack adds --show-secrets).
    const text = await project.exportStackText("dev");
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const exported = JSON.parse(text) as { deployment: { resources: unknown[] } };

    const resources = exported.deployment.resources as {
      urn: string;
      type: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
      sourcePosition?: string;
    }[];
    const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(dynamic.map((r) => r.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/voiceplatform:CampaignWebhook",
      "pulumi-nodejs:dynamic/voiceplatform:CampaignWebhook",
      "pulumi-nodejs:dynamic/voiceplatform:SipCarrier",
      "pulumi-nodejs:dynamic/voiceplatform:Voice",
    ]);
    // A secret in state: the engine's secret signature and the value encrypted with the passphrase.
    const encrypted = (value: unknown) => {
      expect(value).toEqual({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        ciphertext: expect.any(String),
      });
    };
    // Stack config reaches dynamic providers as the inputs of the default pulumi-nodejs provider.
    const providerResource = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    encrypted(providerResource?.inputs?.["voiceplatform:apiKey"]);
    for (const resource of dynamic) {
      const kind = resource.type.split(":").at(-1) as ResourceKind;
      for (const bag of [resource.inputs, resource.outputs]) {
        expect(bag?.__provider).toBe(oneLineProviderText(kind));
      }
      // Where the program declared it, as for any package's resources, not the class's file.
      expect(resource.sourcePosition).toMatch(/^project:\/\/\/index\.js#\d+,\d+$/);
      if (resource.type.endsWith(":SipCarrier")) {
        encrypted(resource.inputs?.registerPassword);
        encrypted(resource.outputs?.registerPassword);
      }
      if (resource.urn.endsWith("::crm-sync")) {
        encrypted(resource.inputs?.advancedWebhook);
        encrypted(resource.outputs?.advancedWebhook);
      }
    }

    // Every request carried the key (the log shows it redacted), and the platform accepted it.
    const all = await emulator.requests();
    expect(all.length).toBeGreaterThan(0);
    for (const request of all) {
      expect(request.headers.authorization).toBe("[redacted]");
      expect(request.status).toBeLessThan(300);
    }
    for (const transcript of transcripts) {
      const shown = transcript.text + JSON.stringify(transcript.diagnostics);
      for (const secret of SECRETS) expect(shown).not.toContain(secret);
    }
  });

  test("destroy succeeds, warns that every object stays on the platform, and leaves the stack empty", async () => {
    const out = await outputs();
    const transcript = record();
    const destroy = await stack.destroy(transcript.options);
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
    expect(await emulator.newRequests()).toEqual([]);

    const warnings = providerWarnings(transcript);
    expect(warnings).toHaveLength(4);
    expect(warnings).toEqual(
      expect.arrayContaining(
        [
          `SIP carrier "backup-trunk" (${String(out.carrierId)}) stays on the platform`,
          `campaign webhook ${String(out.crmWebhookId)} (https://crm.example.com/voice-events) stays subscribed to campaign`,
          `campaign webhook ${String(out.interestedWebhookId)} (https://hooks.example.com/voice/interested) stays subscribed to campaign`,
          `voice "Support agent v2" (${String(out.voiceRecordId)}) stays on the platform`,
        ].map((start) => expect.stringContaining(start)),
      ),
    );
    for (const warning of providerWarnings(transcript)) {
      expect(transcript.text).toContain(`warning: ${warning}`);
    }

    expect(await stack.outputs()).toEqual({});
    const exported = await stack.exportStack();
    expect(exported.deployment.resources ?? []).toEqual([]);
    // What the platform holds is untouched: its API has no delete.
    const held = await organization();
    expect(held.voices).toHaveLength(3);
    expect(held.carriers).toHaveLength(2);
  });
});
