/**
 * One scenario for every language's program (examples/python, examples/go,
 * examples/plugin-typescript), run under the real CLI and Pulumi's own language hosts against the
 * emulator, through the plugin `pulumi-resource-voiceplatform` of the packed package:
 *
 * a preview of the new stack → up (a voice, a carrier, a webhook) → a preview without changes →
 * an in-place voice update → a carrier replacement → import of a carrier made outside Pulumi →
 * refresh → (where the language asks) a preview of removing the adopted carrier with the shipped
 * policy pack → destroy, checking the emulator's request log at each step (previews send nothing,
 * every object is created once) and that exported state holds no secret. Every `up` is
 * `pulumi up --yes` with its preview phase, as users run it.
 *
 * The programs read the same stack config: voiceName, carrierPort, adoptCarrierId, sipPassword.
 * A language file only names its example; test/examples/example-copy.ts copies it out and installs
 * its dependencies as its README says.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  startEmulator,
  type AnswerShape,
  type RequestLogEntry,
  type RunningEmulator,
} from "../../provider/emulator";
import {
  describeE2E,
  E2EProject,
  errorText,
  providerWarnings,
  recorder,
  WILL_STAY,
  type Transcript,
} from "../e2e/harness";
import { upWithPreview } from "../support/pulumi-up";
import { copyExampleOut, projectName } from "../examples/example-copy";
import { packPackage } from "../support/packed-package";
import { nodeSdk, runTool, timings } from "./toolchains";
import { POLICY_PACKAGE as POLICY } from "../support/policy-package";

export const API_KEY = "languages-api-key-7b1e";
export const SIP_PASSWORD = "languages-sip-password-Hq2v";

export interface LanguageProgram {
  /** Shown in test names. */
  language: string;
  /** The example folder under examples/, copied out and installed by copyExampleOut. */
  example: "python" | "go" | "plugin-typescript";
  /**
   * The answer shapes to run the scenario against (default: "spec" only). The plugin reads the
   * answers, not the language's SDK, so one language runs "extended" instead: the richer answers
   * echo stored fields (a carrier's password among them) that the state must still not hold.
   */
  answers?: readonly AnswerShape[];
  /**
   * Whether the scenario also previews a removal with the shipped policy pack: no-replacement
   * names the object that stays and counts it, whatever the language.
   */
  policyPackRemoval?: boolean;
}

const requestLine = (r: RequestLogEntry) => `${r.method} ${r.path} ${r.status}`;

/** The engine's change counts, failing with what the CLI printed when they are not `expected`. */
function expectChanges(
  result: { stdout: string; summary: { resourceChanges?: Record<string, number> } },
  expected: Record<string, number>,
): void {
  const actual = result.summary.resourceChanges ?? {};
  const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
  if (sorted(actual) === sorted(expected)) return;
  throw new Error(
    `expected changes ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}:\n${result.stdout}`,
  );
}

/** Registers the scenario's tests, in order, on one stack. */
export function describeScenario(program: LanguageProgram): void {
  for (const answers of program.answers ?? ["spec"]) describeScenarioWith(program, answers);
}

/** The scenario against answers shaped as the spec shows them, or richer. */
function describeScenarioWith(program: LanguageProgram, answers: AnswerShape): void {
  const title = `${program.language}: the scenario through the plugin on the real engine, answers shaped as ${answers}`;
  describeE2E(title, () => {
    let emulator: RunningEmulator;
    let project: E2EProject;
    let root: string;
    let stack: Stack;
    let namespace: string;
    const transcripts: Transcript[] = [];

    function record() {
      const transcript = recorder();
      transcripts.push(transcript);
      return transcript.options;
    }

    async function outputs(): Promise<Record<string, unknown>> {
      const all = await stack.outputs();
      return Object.fromEntries(Object.entries(all).map(([name, o]) => [name, o.value]));
    }

    async function held() {
      return (await emulator.state()).organizations.org_emulator!;
    }

    beforeAll(async () => {
      const started = Date.now();
      emulator = await startEmulator({ apiKey: API_KEY, answers });
      const copy = await copyExampleOut(program.example);
      root = copy.root;
      project = await E2EProject.forDirectory(copy.dir, root);
      namespace = await projectName(copy.dir);
      const env = {
        // The plugin as users get it: the package's bin directory on PATH.
        ...copy.env,
        VOICEPLATFORM_BASE_URL: emulator.baseUrl,
        VOICEPLATFORM_CAMPAIGNS_BASE_URL: emulator.campaignsBaseUrl,
      };
      stack = await project.stack("dev", {
        env,
        config: {
          "voiceplatform:apiKey": { value: API_KEY, secret: true },
          [`${namespace}:sipPassword`]: { value: SIP_PASSWORD, secret: true },
        },
      });
      timings[`${program.language} (${answers}): prepare`] = Date.now() - started;
    });

    afterAll(async () => {
      console.log(`${program.language} timings (ms): ${JSON.stringify(timings)}`);
      await emulator?.stop();
      if (root !== undefined) await rm(root, { recursive: true, force: true });
    });

    test("a preview of the new stack plans every create and sends nothing", async () => {
      const preview = await stack.preview(record()).catch((error: unknown) => {
        throw new Error(errorText(error));
      });
      const sent = await emulator.newRequests();
      console.log(
        `${program.language}: requests sent by the preview of a new stack: ${sent.length}`,
      );
      expect(preview.changeSummary).toEqual({ create: 4 });
      expect(sent.map(requestLine)).toEqual([]);
    });

    test("up, with its preview phase, creates the voice, the carrier and the webhook once each; a preview then has no changes", async () => {
      const started = Date.now();
      const up = await upWithPreview(stack, record()).catch((error: unknown) => {
        throw new Error(errorText(error));
      });
      timings[`${program.language} (${answers}): first up`] = Date.now() - started;
      expectChanges(up, { create: 4 });
      const sent = await emulator.newRequests();
      console.log(
        `${program.language} (${answers}): requests sent by the first up (3 objects): ${sent.length}`,
      );
      expect(sent.map(requestLine).sort()).toEqual([
        "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 200",
        "POST /organization/sip 201",
        "POST /voices/voice-clone 200",
      ]);
      const platform = await held();
      expect(platform.voices.map((v) => v.name)).toEqual(["Support agent"]);
      expect(platform.voices[0]!.samples.map((s) => s.filename).sort()).toEqual([
        "closing.wav",
        "greeting.wav",
      ]);
      expect(platform.carriers.map((c) => c.name)).toEqual(["main-trunk"]);
      const out = await outputs();
      expect(out.carrierId).toBe(platform.carriers[0]!.id);
      expect(out.voiceId).toBe(platform.voices[0]!.voiceId);

      const preview = await stack.preview(record());
      expect(preview.changeSummary).toEqual({ same: 4 });
      expect(await emulator.newRequests()).toEqual([]);
    });

    test("a new voice name updates the voice in place: one PUT, no clone", async () => {
      const voiceRecordId = (await held()).voices[0]!.id;
      await stack.setConfig(`${namespace}:voiceName`, { value: "Support agent v2" });
      const preview = await stack.preview(record());
      expect(preview.changeSummary).toEqual({ update: 1, same: 3 });
      expect(await emulator.newRequests()).toEqual([]);
      const up = await upWithPreview(stack, record());
      expectChanges(up, { update: 1, same: 3 });
      const requests = await emulator.newRequests();
      expect(requests.map(requestLine)).toEqual([`PUT /voices/${voiceRecordId} 200`]);
      expect(requests[0]!.body).toMatchObject({ name: "Support agent v2" });
      expect((await held()).voices.map((v) => [v.id, v.name])).toEqual([
        [voiceRecordId, "Support agent v2"],
      ]);
    });

    test("a new gateway port replaces the carrier: one create, the old one left on the platform", async () => {
      const before = await outputs();
      await stack.setConfig(`${namespace}:carrierPort`, { value: "5080" });
      const shown = recorder();
      transcripts.push(shown);
      const preview = await stack.preview(shown.options);
      expect(preview.changeSummary).toEqual({ replace: 1, same: 3 });
      // The preview names the object the replacement will leave on the platform.
      expect(providerWarnings(shown)).toContainEqual(
        expect.stringContaining(`(${String(before.carrierId)}) ${WILL_STAY}`),
      );
      expect(await emulator.newRequests()).toEqual([]);
      const up = await upWithPreview(stack, record());
      expectChanges(up, { replace: 1, same: 3 });
      const requests = await emulator.newRequests();
      expect(requests.map(requestLine)).toEqual(["POST /organization/sip 201"]);
      expect(requests[0]!.body).toMatchObject({
        name: "main-trunk",
        gateways: [expect.objectContaining({ port: 5080 })],
      });
      const after = await outputs();
      expect(after.carrierId).not.toBe(before.carrierId);
      expect((await held()).carriers.map((c) => c.id)).toEqual([before.carrierId, after.carrierId]);
    });

    test("a carrier made outside Pulumi is imported by id without a call", async () => {
      const adoptId = await createCarrierThroughApi(emulator);
      await emulator.newRequests();
      await stack.setConfig(`${namespace}:adoptCarrierId`, { value: adoptId });
      const up = await upWithPreview(stack, record());
      // Read cannot confirm the declared inputs (the API has no read), so the plugin adopts them
      // in an update that makes no call.
      expectChanges(up, { import: 1, update: 1, same: 4 });
      expect(up.stdout).toMatch(/adopted-trunk imported/);
      expect(up.stdout).toMatch(/adopted-trunk updated/);
      expect(await emulator.newRequests()).toEqual([]);
      expect((await outputs()).adoptedCarrierId).toBe(adoptId);

      const preview = await stack.preview(record());
      expect(preview.changeSummary).toEqual({ same: 5 });
      expect(await emulator.newRequests()).toEqual([]);
    });

    test("refresh changes nothing and calls nothing; state holds no secret and no code", async () => {
      const refresh = await stack.refresh(record());
      expectChanges(refresh, { same: 5 });
      expect(await emulator.newRequests()).toEqual([]);

      const state = await project.exportStackText("dev");
      expect(state).not.toContain("__provider");
      expect(state).toContain("pulumi:providers:voiceplatform");
      for (const secret of [API_KEY, SIP_PASSWORD]) expect(state).not.toContain(secret);
      for (const transcript of transcripts) {
        for (const secret of [API_KEY, SIP_PASSWORD]) expect(transcript.text).not.toContain(secret);
      }
    });

    if (program.policyPackRemoval === true) {
      test("a preview of removing the adopted carrier, with the shipped policy pack: it names the carrier that stays and counts it; nothing is sent", async () => {
        const adoptedId = String((await outputs()).adoptedCarrierId);
        const installed = join(root, "installed");
        // @pulumi/policy beside the package, as a team adds it; the tarballs named again so that
        // npm, reading the example's package.json, takes them rather than asking a registry.
        const tarballs = [
          await packPackage(),
          ...(program.example === "plugin-typescript" ? [(await nodeSdk()).tarball] : []),
        ];
        await runTool(
          "npm",
          [
            "install",
            "--no-save",
            "--omit=dev",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            POLICY,
            ...tarballs,
          ],
          { cwd: installed },
        );
        const pack = join(installed, "node_modules", "pulumi-voice-platform", "dist", "provider");
        const previous = join(root, "previous.json");
        await writeFile(previous, await project.exportStackText("dev"));
        await stack.removeConfig(`${namespace}:adoptCarrierId`);
        stack.workspace.envVars.VOICEPLATFORM_PREVIOUS_STATE = previous;
        const shown = recorder();
        transcripts.push(shown);
        const failed = await stack
          .preview({ ...shown.options, policyPacks: [join(pack, "policy", "pack")] })
          .then(() => undefined, errorText);
        delete stack.workspace.envVars.VOICEPLATFORM_PREVIOUS_STATE;
        await stack.setConfig(`${namespace}:adoptCarrierId`, { value: adoptedId });
        // no-replacement is mandatory: the preview fails, naming the object and counting it.
        expect(failed).toContain(
          `no-replacement adopted-trunk: this SipCarrier leaves the program, and its object (${adoptedId}) stays on the platform`,
        );
        expect(failed).toContain("this change leaves 1 object(s) on the platform: 1 SipCarrier");
        expect(await emulator.newRequests()).toEqual([]);
      });
    }

    test("destroy removes every resource from the stack", async () => {
      const destroy = await stack.destroy(record());
      expectChanges(destroy, { delete: 5 });
      const state = JSON.parse(await project.exportStackText("dev")) as {
        deployment: { resources?: unknown[] };
      };
      expect(state.deployment.resources ?? []).toEqual([]);
      // Nothing on the platform is deleted: the API has no delete for these objects.
      expect((await emulator.newRequests()).filter((r) => r.method !== "GET")).toEqual([]);
    });
  });
}

/** Creates a carrier the way another tool would: straight through the API. */
async function createCarrierThroughApi(emulator: RunningEmulator): Promise<string> {
  const response = await fetch(`${emulator.baseUrl}/organization/sip`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({
      name: "legacy-trunk",
      gateways: [{ ipv4: "198.51.100.20", port: 5060, outbound: true }],
    }),
  });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 201 || typeof body.id !== "string") {
    throw new Error(
      `creating the carrier to import failed: ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body.id;
}
