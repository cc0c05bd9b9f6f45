/**
 * Issue 15 for every resource kind: the e2e program (a cloned voice with a path and a FileAsset
 * sample, a carrier with a secret password, a simple webhook and an advanced one whose request is
 * a secret holding a secret header) is killed with SIGKILL while all four creates are in flight.
 * The recover command is taken from preflight's own output: preflight fills in a new id for each
 * webhook (from the export without secrets), the test puts in the voice's and the carrier's ids
 * from the emulator, as a user would from the platform's console. Then a preview is all `same`.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E, E2EProject, recorder } from "./harness";
import { PROJECT_NAME } from "./program";
import {
  checkpointText,
  killUpDuringCreates,
  printedAssignments,
  voicePlatform,
} from "./interrupted-run";
import { upWithPreview } from "../support/pulumi-up";

const API_KEY = "e2e-kinds-api-key-2b7d90";
const SIP_PASSWORD = "e2e-kinds-sip-password-Lm42v";
const CRM_TOKEN = "e2e-kinds-crm-token-Hq61s";
const SECRETS = [API_KEY, SIP_PASSWORD, CRM_TOKEN];
const LATENCY_MS = 2000;

const CREATE_PATHS = [/^\/voices\/voice-clone$/, /^\/organization\/sip$/, /\/webhook\/subscribe$/];

describeE2E("an interrupted `pulumi up` of every resource kind, recovered (issue 15)", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;
  let stack: Stack;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, latencyMs: LATENCY_MS });
    project = await E2EProject.create();
    const platform = {
      VOICEPLATFORM_BASE_URL: emulator.baseUrl,
      VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
    };
    stack = await project.stack("dev", {
      env: platform,
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "e2e:sipPassword": { value: SIP_PASSWORD, secret: true },
        "e2e:crmToken": { value: CRM_TOKEN, secret: true },
      },
    });
    env = { ...project.env(platform), PULUMI_HOME: project.pulumiHome };
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  test("preflight names each kind with its ids; recover; the next preview is all same", async () => {
    await killUpDuringCreates({
      project,
      env,
      emulator,
      latencyMs: LATENCY_MS,
      isCreate: (r) => r.method === "POST" && CREATE_PATHS.some((path) => path.test(r.path)),
      ready: (posts) => posts.length === 4 && posts.every((r) => r.status === null),
    });
    const org = (await emulator.state()).organizations.org_emulator!;
    const subscriptions = Object.values(org.subscriptions).flat();
    expect([org.voices.length, org.carriers.length, subscriptions.length]).toEqual([1, 1, 2]);

    const failed = await voicePlatform(project, env, ["preflight", "--stack", "dev"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch("4 interrupted operation(s)");
    expect(failed.stdout).toMatch('create of Voice "support-voice" (dynamic resource)');
    expect(failed.stdout).toMatch("files: samples/greeting.wav, samples/closing.wav");
    expect(failed.stdout).toMatch("advancedWebhook: [secret]");
    for (const secret of SECRETS) expect(failed.stdout + failed.stderr).not.toMatch(secret);

    // Every create's answer reached the ledger the provider writes beside the state: preflight
    // prints each id the platform gave (the fields it was made with too), and recover takes them.
    const printed = printedAssignments(failed.stdout);
    expect(printed).toHaveLength(4);
    expect(failed.stdout.match(/The ledger holds the platform's answer/g)).toHaveLength(4);
    for (const { urn, id } of printed) {
      if (urn.endsWith("voiceplatform:Voice::support-voice")) expect(id).toBe(org.voices[0]!.id);
      else if (urn.endsWith("voiceplatform:SipCarrier::main-trunk"))
        expect(id).toBe(org.carriers[0]!.id);
      // Both webhooks, the advanced one's too: the provider's own id, no secret in it.
      else
        expect(id).toMatch(
          /^65a1f0c2e4b0a1b2c3d4e5f6\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        );
    }

    // The killed CLI's lock is stale: preflight's command releases it.
    expect(failed.stdout).toMatch(
      "npx pulumi-voice-platform recover --stack dev --cancel-stale-lock",
    );
    const recovered = await voicePlatform(project, env, [
      "recover",
      "--stack",
      "dev",
      "--cancel-stale-lock",
    ]);
    expect(recovered).toMatchObject({ code: 0, stderr: "" });
    expect(recovered.stdout).toMatch("A recovered voice has only its id");
    for (const secret of SECRETS) expect(recovered.stdout).not.toMatch(secret);

    const passed = await voicePlatform(project, env, ["preflight", "--stack", "dev"]);
    expect(passed.code).toBe(0);

    const stored = checkpointText(project, PROJECT_NAME);
    for (const secret of SECRETS) expect(stored).not.toMatch(secret);

    const preview = await stack.preview(recorder().options);
    expect(preview.changeSummary).toEqual({ same: 5 });
    const requestsBefore = (await emulator.requests()).length;
    const up = await upWithPreview(stack, recorder().options);
    expect(up.summary.resourceChanges).toEqual({ same: 5 });
    expect((await emulator.requests()).length).toBe(requestsBefore);
    const outputs = await stack.outputs();
    expect(outputs.carrierId?.value).toBe(org.carriers[0]!.id);
    expect(outputs.voiceRecordId?.value).toBe(org.voices[0]!.id);
    // The platform's own voice fields come with the next update; recover cannot know them.
    expect(outputs.voiceId?.value).toBeUndefined();
  });

  test("an interrupted replacement: the new carrier recorded, the old one deleted from the stack", async () => {
    await stack.setConfig("e2e:carrierName", { value: "main-trunk-v2" });
    await killUpDuringCreates({
      project,
      env,
      emulator,
      latencyMs: LATENCY_MS,
      isCreate: (r) => r.method === "POST" && r.path === "/organization/sip",
      ready: (posts) => posts.some((r) => r.status === null),
    });
    const carriers = (await emulator.state()).organizations.org_emulator!.carriers;
    const replacement = carriers.find((c) => c.name === "main-trunk-v2");
    expect(replacement).toBeDefined();

    const failed = await voicePlatform(project, env, ["preflight", "--stack", "dev"]);
    expect(failed.code).toBe(1);
    const [printed] = printedAssignments(failed.stdout);
    expect(printed?.urn).toMatch(/voiceplatform:SipCarrier::main-trunk$/);
    const recovered = await voicePlatform(project, env, [
      "recover",
      "--stack",
      "dev",
      "--cancel-stale-lock",
      `${printed!.urn}=${replacement!.id}`,
    ]);
    expect(recovered).toMatchObject({ code: 0, stderr: "" });
    const afterRecover = JSON.parse(await project.exportStackText("dev")) as {
      deployment: { resources: { urn: string; id?: string; delete?: boolean }[] };
    };
    expect(
      afterRecover.deployment.resources
        .filter((r) => r.urn === printed!.urn)
        .map((r) => [r.id === replacement!.id, r.delete === true]),
    ).toEqual([
      [false, true],
      [true, false],
    ]);

    const preview = await stack.preview(recorder().options);
    expect(preview.changeSummary).not.toHaveProperty("create");
    expect(preview.changeSummary).not.toHaveProperty("replace");
    const requestsBefore = (await emulator.requests()).length;
    const up = await upWithPreview(stack, recorder().options);
    expect(up.summary.resourceChanges).not.toHaveProperty("create");
    expect((await emulator.requests()).length).toBe(requestsBefore);
    expect((await stack.outputs()).carrierId?.value).toBe(replacement!.id);
    // recover recorded the old carrier as pending deletion; the up removed it from the stack.
    const afterUp = JSON.parse(await project.exportStackText("dev")) as {
      deployment: { resources: { urn: string; id?: string; delete?: boolean }[] };
    };
    expect(
      afterUp.deployment.resources
        .filter((r) => r.urn === printed!.urn)
        .map((r) => [r.id, r.delete]),
    ).toEqual([[replacement!.id, undefined]]);
    const again = await stack.preview(recorder().options);
    expect(again.changeSummary).toEqual({ same: 5 });
    console.log(
      `interrupted replacement: preview after recover ${JSON.stringify(preview.changeSummary)}, up ${JSON.stringify(up.summary.resourceChanges)}`,
    );
  });
});
