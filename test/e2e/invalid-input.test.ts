/**
 * Bad input is caught by the provider's `check` at preview time, before anything reaches the
 * platform: the engine reports the field, and the emulator's request log stays empty. A wrong API
 * key is only found out by the platform; it fails the update without the key ever being printed.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { describeE2E, E2EProject, errorText, recorder } from "./harness";
import { upWithPreview } from "../support/pulumi-up";

const API_KEY = "e2e-invalid-api-key-91b3";

describeE2E("invalid input on the real Pulumi engine", () => {
  let emulator: RunningEmulator;
  let project: E2EProject;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY });
    project = await E2EProject.create();
  });

  afterAll(async () => {
    await emulator?.stop();
    await project?.remove();
  });

  beforeEach(() => emulator.reset());

  function stackWith(name: string, config: Record<string, string>, apiKey = API_KEY) {
    return project.stack(name, {
      config: {
        "voiceplatform:apiKey": { value: apiKey, secret: true },
        "voiceplatform:baseUrl": { value: emulator.baseUrl },
        "voiceplatform:campaignsBaseUrl": { value: emulator.campaignsBaseUrl },
        "e2e:sipPassword": { value: "e2e-invalid-sip-password", secret: true },
        "e2e:crmToken": { value: "e2e-invalid-crm-token", secret: true },
        ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }])),
      },
    });
  }

  /** Runs preview, expects it to fail, and returns everything the CLI said. */
  async function failingPreview(stackName: string, config: Record<string, string>) {
    const stack = await stackWith(stackName, config);
    const transcript = recorder();
    const failure = await stack.preview(transcript.options).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    return `${errorText(failure)}\n${transcript.text}\n${transcript.diagnostics
      .map((d) => d.message)
      .join("\n")}`;
  }

  test("a gateway port out of range fails preview showing the value and naming gateways[0].port; no request is made", async () => {
    const output = await failingPreview("bad-port", { "e2e:carrierPort": "70000" });
    // The engine's words around the provider's {property, reason}. The engine looks the value up
    // among the top-level inputs only: the property is `gateways`, whose value it prints, and the
    // reason starts with the exact place.
    expect(output).toMatch(
      /SipCarrier resource 'main-trunk': property gateways value \{\[\{map\[.*port:\{70000\}.*\]\}\]\} has a problem: gateways\[0\]\.port must be at most 65535, not number 70000/,
    );
    expect(output).not.toContain("<nil>");
    expect(await emulator.requests()).toEqual([]);
  });

  test("a malformed campaign id fails preview naming campaignId; no request is made", async () => {
    const output = await failingPreview("bad-campaign", { "e2e:campaignId": "campaign-42" });
    expect(output).toMatch(
      /CampaignWebhook resource '(interested-leads|crm-sync)': property campaignId value \{campaign-42\} has a problem: must be a campaign ObjectId/,
    );
    expect(await emulator.requests()).toEqual([]);
  });

  test("a wrong API key fails up with the platform's answer, and the key is never printed", async () => {
    const wrongKey = "e2e-wrong-api-key-c0ffee";
    const stack = await stackWith("wrong-key", {}, wrongKey);
    const transcript = recorder();
    const failure = await upWithPreview(stack, transcript.options).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    const output = `${errorText(failure)}\n${transcript.text}`;
    expect(output).toContain("401 Unauthorized");
    expect(output).toContain("voiceplatform:apiKey");
    expect(output).not.toContain(wrongKey);

    const requests = await emulator.requests();
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.status).toBe(401);
    const held = Object.values((await emulator.state()).organizations);
    for (const organization of held) {
      expect(organization.voices).toEqual([]);
      expect(organization.carriers).toEqual([]);
    }
    const exported = JSON.parse(await project.exportStackText("wrong-key")) as {
      deployment: { resources?: { type: string }[] };
    };
    const types = (exported.deployment.resources ?? []).map((r) => r.type);
    expect(types.filter((type) => type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
  });
});
