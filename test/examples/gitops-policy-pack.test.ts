/**
 * @slow examples/gitops's script with the policy pack, as its jobs run it (`POLICY_PACK` set to
 * the package's pack, in a project with the packed package and @pulumi/policy installed), on a
 * file backend against the emulator: the first `up` (creating the stack) deploys through the
 * pack; a pull request that breaks a mandatory rule (an http webhook) fails its preview with the
 * rule's id and sends nothing, and so does `up`; without `POLICY_PACK` the same preview passes
 * (the pack is what stops it); a `POLICY_PACK` that names no folder stops before anything (exit 2).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E } from "../e2e/harness";
import { runTool } from "../languages/toolchains";
import { pulumiEnv, REPO_ROOT } from "../pulumi-cli/locate";
import { createFixtureProject, npmEnv, removeFixtureProject } from "../support/packed-package";

const SCRIPT = join(REPO_ROOT, "examples", "gitops", "voice-platform.sh");
const PROJECT = "gitops-policy";
const STACK = `organization/${PROJECT}/dev`;
const API_KEY = "gitops-policy-api-key-7Rk";
const PACK = "node_modules/pulumi-voice-platform/dist/provider/policy/pack";

const program = (scheme: "https" | "http") => `const vp = require("pulumi-voice-platform");
new vp.CampaignWebhook("leads", {
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "${scheme}://hooks.example.com/leads",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
});
`;

interface Run {
  code: number | null;
  output: string;
}

describeE2E("examples/gitops's script with the policy pack", () => {
  let emulator: RunningEmulator;
  let project: string;
  let backend: string;

  /** `voice-platform.sh <stage>` from the project's folder, with a job's environment. */
  function job(stage: "preview" | "up", env: Record<string, string>): Promise<Run> {
    return new Promise((resolve) => {
      const child = spawn("bash", [SCRIPT, stage], {
        cwd: project,
        env: pulumiEnv({
          ...npmEnv(),
          STACK,
          PULUMI_BACKEND_URL: `file://${backend}`,
          PULUMI_CONFIG_PASSPHRASE: "gitops-policy-passphrase",
          VOICEPLATFORM_BASE_URL: emulator.baseUrl,
          VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
          LOCK_WAIT_SECONDS: "0",
          ...env,
        }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("close", (code) => resolve({ code, output }));
    });
  }

  const sent = async () =>
    (await emulator.newRequests()).map((request) => `${request.method} ${request.status}`);

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    backend = await mkdtemp(join(tmpdir(), "gitops-policy-state-"));
    project = await createFixtureProject({
      name: PROJECT,
      files: { "Pulumi.yaml": `name: ${PROJECT}\nruntime: nodejs\n`, "index.js": program("https") },
    });
    // What the README asks of the project: @pulumi/policy among its dev dependencies.
    await runTool(
      "npm",
      [
        "install",
        "--save-dev",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "@pulumi/policy@^1.21.0",
      ],
      { cwd: project, env: npmEnv() },
    );
  });

  afterAll(async () => {
    await emulator?.stop();
    if (project !== undefined) await removeFixtureProject(project);
    if (backend !== undefined) await rm(backend, { recursive: true, force: true });
  });

  test("the first up deploys through the pack; a change that breaks a rule fails preview and up, sending nothing", async () => {
    const first = await job("up", {
      VOICEPLATFORM_API_KEY: API_KEY,
      CREATE_STACK: "true",
      POLICY_PACK: PACK,
    });
    expect({ code: first.code, output: first.output }).toMatchObject({ code: 0 });
    // The pack ran, by its name and version, and found nothing.
    expect(first.output).toMatch(/Policy Packs run:\s+Name\s+Version\s+voice-platform\|local\|/);
    expect(first.output).not.toMatch(/\[(mandatory|advisory)\]/);
    expect(await sent()).toEqual(["POST 200"]);

    await writeFile(join(project, "index.js"), program("http"));
    // A pull request's preview: no platform key, the pack in force.
    const preview = await job("preview", { POLICY_PACK: PACK });
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/\[mandatory\]\s+webhook-urls-https/);
    const up = await job("up", { VOICEPLATFORM_API_KEY: API_KEY, POLICY_PACK: PACK });
    expect(up.code).not.toBe(0);
    expect(up.output).toMatch(/\[mandatory\]\s+webhook-urls-https/);
    expect(await sent()).toEqual([]);

    // The pack is what stops it: without it the same preview passes (the provider only warns).
    const unchecked = await job("preview", { POLICY_PACK: "" });
    expect({ code: unchecked.code, output: unchecked.output }).toMatchObject({ code: 0 });
    expect(unchecked.output).not.toMatch(/webhook-urls-https/);
    expect(await sent()).toEqual([]);
  });

  test("a POLICY_PACK that names no folder stops the job before anything is read or sent", async () => {
    const refused = await job("preview", { POLICY_PACK: "node_modules/no-such-pack" });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(
      "POLICY_PACK is node_modules/no-such-pack, which is no folder",
    );
    expect(refused.output).not.toMatch(/preflight|Previewing/);
    expect(await sent()).toEqual([]);
  });
});
