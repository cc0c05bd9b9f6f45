/**
 * What the engine changed since CLI 3.248, under the real CLI (the tested one, 3.274.1), on the
 * dynamic resources installed from the package's `npm pack` output:
 * - a retry after a partial create: an `onError` hook that asks for a retry makes the engine call
 *   Update with the recorded id instead of Create (pulumi/pulumi#24684). A voice whose
 *   follow-up PUT fails is finished by that update: one clone, never two; when the update fails
 *   too, the voice stays in the stack with its id, and the next `pulumi up` finishes it.
 * - the engine passes PULUMI_ACCESS_TOKEN and PULUMI_API to providers: a platform answer that
 *   quotes them is shown with both blanked, in the CLI's output and its diagnostics.
 * test/reliability-processes/engine-changes.test.ts drives both front ends the same way over gRPC.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { upWithPreview } from "../support/pulumi-up";
import { sampleBytes } from "./program";
import { describeE2E, E2EProject, errorText, recorder } from "./harness";

const API_KEY = "e2e-engine-changes-key-8Nf2";
const ACCESS_TOKEN = "pul-0c7e5a92d4b1f8e36a0d2c9b7f4e1a5d3c8b6e20";
const PULUMI_API = "https://pulumi-backend.example.net/api-e2e-4Rz9";

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { SipCarrier, Voice } = require("pulumi-voice-platform");

const config = new pulumi.Config("engine");
if (config.get("mode") === "credentials") {
  new SipCarrier("trunk", { name: "trunk", gateways: [{ ipv4: "203.0.113.10" }] });
} else {
  // Asks the engine to retry a failed operation, as many times as config says, then gives up.
  let asked = 0;
  const retries = config.getNumber("retries") ?? 1;
  const retry = new pulumi.ErrorHook("retry", () => asked++ < retries);
  const voice = new Voice(
    "voice",
    { name: "Retried voice", isMultilingual: true, files: ["samples/a.wav"] },
    { hooks: { onError: [retry] } },
  );
  module.exports = { voiceRecordId: voice.id };
}
`;

/** The resources of the stack as `pulumi stack export` lists them: type, id, init errors. */
async function recorded(stack: Stack) {
  const state = await stack.exportStack();
  return (
    state.deployment.resources as {
      type: string;
      id?: string;
      initErrors?: string[];
      outputs?: Record<string, unknown>;
    }[]
  ).filter((r) => r.type.includes("voiceplatform"));
}

describeE2E("engine changes since CLI 3.248, under the real CLI", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create({
      files: {
        "Pulumi.yaml":
          "name: engine-changes\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n",
        "index.js": PROGRAM,
        "samples/a.wav": sampleBytes("engine-changes"),
      },
    });
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  const calls = async () =>
    (await emulator.newRequests()).map((c) => `${c.method} ${c.path} ${c.status}`);

  async function retryStack(name: string, retries: number): Promise<Stack> {
    await emulator.reset();
    return project.stack(name, {
      env: { VOICEPLATFORM_BASE_URL: emulator.baseUrl },
      config: {
        "voiceplatform:apiKey": { value: API_KEY, secret: true },
        "voiceplatform:maxRetries": { value: "0" },
        "engine:retries": { value: String(retries) },
      },
    });
  }

  test("an onError retry after a partial create finishes the voice with an update: one clone", async () => {
    const stack = await retryStack("retry-once", 1);
    await emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      times: 1,
      action: { kind: "status", status: 503 },
    });
    const up = recorder();
    const result = await upWithPreview(stack, up.options).catch((error: unknown) => {
      throw new Error(`pulumi up failed: ${errorText(error)}`);
    });
    expect(result.summary.result).toBe("succeeded");
    expect(up.text).toContain("retrying create due to on-error hook request");
    const voices = (await emulator.state()).organizations.org_emulator!.voices;
    expect(voices).toHaveLength(1);
    expect(await calls()).toEqual([
      "POST /voices/voice-clone 200",
      `PUT /voices/${voices[0]!.id} 503`,
      `PUT /voices/${voices[0]!.id} 200`,
    ]);
    const [voice, ...others] = await recorded(stack);
    expect(others).toEqual([]);
    expect(voice).toMatchObject({ id: voices[0]!.id, outputs: { isMultilingual: true } });
    expect(voice!.initErrors ?? []).toEqual([]);
    expect(voice!.outputs).not.toHaveProperty("__incompleteCreate");
    expect((await stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await calls()).toEqual([]);
  });

  test("when the retried update fails too, the voice stays in the stack and the next up finishes it", async () => {
    const stack = await retryStack("retry-fails", 1);
    await emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      times: 2,
      action: { kind: "status", status: 503 },
    });
    const failed = await upWithPreview(stack).then(
      () => undefined,
      (error: unknown) => errorText(error),
    );
    expect(failed).toMatch(/created \w+ on the platform, then: update voice "Retried voice"/);
    const voices = (await emulator.state()).organizations.org_emulator!.voices;
    expect(voices).toHaveLength(1);
    const [voice, ...others] = await recorded(stack);
    expect(others).toEqual([]);
    expect(voice).toMatchObject({ id: voices[0]!.id });
    expect(voice!.initErrors).toEqual([expect.stringMatching(/^created \w+ on the platform/)]);
    await calls();

    const next = await upWithPreview(stack);
    expect(next.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect(await calls()).toEqual([`PUT /voices/${voices[0]!.id} 200`]);
    expect((await emulator.state()).organizations.org_emulator!.voices).toHaveLength(1);
    const [finished] = await recorded(stack);
    expect(finished!.initErrors ?? []).toEqual([]);
    expect(finished!.outputs).toMatchObject({ isMultilingual: true });
  });

  describe("PULUMI_ACCESS_TOKEN and PULUMI_API in the engine's environment", () => {
    let quoting: Server;

    beforeAll(async () => {
      // A platform that refuses with 400, quoting the engine's credentials it somehow saw.
      quoting = createServer((req, res) => {
        req.resume().on("end", () => {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: { message: `refused: token ${ACCESS_TOKEN} from ${PULUMI_API}` },
            }),
          );
        });
      });
      await new Promise<void>((resolve) => quoting.listen(0, "127.0.0.1", resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => quoting?.close(resolve));
    });

    test("a platform answer quoting them is shown with both blanked", async () => {
      const stack = await project.stack("credentials", {
        env: {
          VOICEPLATFORM_BASE_URL: `http://127.0.0.1:${(quoting.address() as AddressInfo).port}`,
          PULUMI_ACCESS_TOKEN: ACCESS_TOKEN,
          PULUMI_API,
        },
        config: {
          "voiceplatform:apiKey": { value: API_KEY, secret: true },
          "voiceplatform:maxRetries": { value: "0" },
          "engine:mode": { value: "credentials" },
        },
      });
      const up = recorder();
      const failed = await upWithPreview(stack, up.options).then(
        () => undefined,
        (error: unknown) => errorText(error),
      );
      expect(failed).toBeDefined();
      const shown = [failed, up.text, ...up.diagnostics.map((d) => d.message)].join("\n");
      // Not vacuous: the platform's answer reached the user, blanked.
      expect(shown).toContain("refused: token [redacted] from [redacted]");
      for (const secret of [ACCESS_TOKEN, PULUMI_API])
        expect(shown.toLowerCase()).not.toContain(secret.toLowerCase());
    });
  });
});
