import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { ApiError, SampleChangedError } from "../../provider/platform/errors";
import { IncompleteCreateError } from "../../provider/core/errors";
import { VoicePlatformError } from "../../provider/settings/errors";
import * as runtime from "../../provider/runtime";
import { SampleUpload } from "../../provider/platform/sample-files";
import {
  advancedWebhook,
  carrierInputs,
  gateway,
  voiceInputs,
  webhookInputs,
  writeSample,
} from "../support/builders";
import { useEmulator } from "./emulator-harness";

const context = useEmulator({
  organizations: [
    { id: "org_a", apiKey: "key-a-123456", subOrganizationIds: ["sub_a"] },
    { id: "org_b", apiKey: "key-b-123456", subOrganizationIds: ["sub_b"] },
  ],
});
const requests = () => context.emulator.requests();
const state = async () => (await context.emulator.state()).organizations.org_a!;
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

async function checked(
  kind: "Voice" | "SipCarrier" | "CampaignWebhook",
  news: Record<string, unknown>,
) {
  const { inputs, failures } = await runtime[kind].check({}, news);
  expect(failures).toEqual([]);
  return inputs;
}

describe("Voice handlers", () => {
  it("clone uploads every sample under `files` with camelCase settings and JSON-encoded locales", async () => {
    const a = writeSample("a.wav", "first sample");
    const b = writeSample("b.mp3", "second sample, longer");
    const inputs = await checked(
      "Voice",
      voiceInputs({
        files: [a, b],
        description: "Calm",
        providerType: "ELEVENLABS",
        supportedLocales: ["fr-FR", "en-us"],
        subAccounts: false,
        supportsAllLanguages: true,
      }),
    );
    const { id, outs } = await runtime.Voice.create(inputs);

    const [clone, ...rest] = await requests();
    expect(rest).toEqual([]);
    expect(clone).toMatchObject({ method: "POST", path: "/voices/voice-clone", status: 200 });
    expect(clone!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(clone!.multipart!.fields).toEqual({
      name: "Support agent",
      description: "Calm",
      providerType: "ELEVENLABS",
      supportedLocales: '["en-US","fr-FR"]',
      subAccounts: "false",
      stability: "0.5",
      similarityBoost: "0.75",
      speed: "1",
      supportsAllLanguages: "true",
    });
    expect(clone!.multipart!.files).toEqual([
      { field: "files", filename: "a.wav", size: 12, sha256: sha256(a) },
      { field: "files", filename: "b.mp3", size: 21, sha256: sha256(b) },
    ]);
    const stored = (await state()).voices;
    expect(stored).toHaveLength(1);
    expect(id).toBe(stored[0]!.id);
    expect(outs).toMatchObject({
      voiceId: stored[0]!.voiceId,
      organizationId: "org_a",
      ttsClient: stored[0]!.ttsClient,
      // As answered: spec 2.1 shows stability and style only.
      settings: { stability: stored[0]!.settings.stability, style: stored[0]!.settings.style },
      samples: [
        { name: "a.wav", sha256: sha256(a), size: 12 },
        { name: "b.mp3", sha256: sha256(b), size: 21 },
      ],
    });
    expect(outs.clonedVoices).toHaveLength(1);
  });

  it("sets isMultilingual with a PUT right after the clone", async () => {
    const { id, outs } = await runtime.Voice.create(
      await checked("Voice", voiceInputs({ isMultilingual: true })),
    );
    const log = await requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /voices/voice-clone",
      `PUT /voices/${id}`,
    ]);
    expect(log[1]!.body).toEqual({
      name: "Support agent",
      isMultilingual: true,
      supportedLocales: ["en-US"],
      settings: { stability: 0.5, similarity_boost: 0.75, speed: 1 },
    });
    expect(outs.isMultilingual).toBe(true);
  });

  it("keeps the voice id when the follow-up PUT fails", async () => {
    await context.emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      action: { kind: "status", status: 400 },
    });
    const error = await runtime.Voice.create(
      await checked("Voice", voiceInputs({ isMultilingual: true })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IncompleteCreateError);
    const stored = (await state()).voices;
    expect((error as IncompleteCreateError).id).toBe(stored[0]!.id);
    expect((error as IncompleteCreateError).properties).toMatchObject({
      isMultilingual: false,
      name: "Support agent",
    });
    expect((error as Error).message).toMatch(
      /^created \w+ on the platform, then: set isMultilingual on the new voice "Support agent" \(\w+\) failed: 400 Bad Request/,
    );
  });

  it("updates in place with one PUT carrying snake_case settings", async () => {
    const inputs = await checked("Voice", voiceInputs());
    const { id, outs } = await runtime.Voice.create(inputs);
    const news = await checked(
      "Voice",
      voiceInputs({
        files: inputs.files,
        name: "Renamed agent",
        similarityBoost: 0.9,
        supportedLocales: ["de-DE"],
      }),
    );
    expect(await runtime.Voice.diff(id, { ...outs }, news)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const before = (await requests()).length;
    const updated = await runtime.Voice.update(id, { ...outs }, news);
    const log = (await requests()).slice(before);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      method: "PUT",
      path: `/voices/${id}`,
      body: {
        name: "Renamed agent",
        supportedLocales: ["de-DE"],
        settings: { stability: 0.5, similarity_boost: 0.9, speed: 1 },
      },
    });
    expect(log[0]!.headers["content-type"]).toBe("application/json");
    expect(updated.outs).toMatchObject({
      name: "Renamed agent",
      similarityBoost: 0.9,
      samples: outs.samples,
    });
  });

  it("adopts an existing voice with a PUT and clones nothing", async () => {
    const { id } = await runtime.Voice.create(await checked("Voice", voiceInputs()));
    const before = (await requests()).length;
    const adopted = await runtime.Voice.create(
      await checked("Voice", { name: "Adopted voice", existingVoiceId: id, stability: 0.2 }),
    );
    const log = (await requests()).slice(before);
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /voices/${id}`]);
    expect(log[0]!.body).toEqual({ name: "Adopted voice", settings: { stability: 0.2 } });
    expect(adopted).toMatchObject({
      id,
      outs: { name: "Adopted voice", existingVoiceId: id, stability: 0.2 },
    });
    expect((await state()).voices.map((v) => v.name)).toEqual(["Adopted voice"]);
  });

  it("fails to adopt a voice the platform does not know, naming it", async () => {
    const error = await runtime.Voice.create(
      await checked("Voice", { name: "Ghost voice", existingVoiceId: "0123456789abcdef01234567" }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as Error).message).toMatch(
      /^adopt voice "Ghost voice" \(0123456789abcdef01234567\) failed: 404 Not Found: /,
    );
  });

  it("stops an upload whose sample changed after it was opened, and creates nothing", async () => {
    const path = writeSample("edited.wav", Buffer.alloc(256 * 1024, 1));
    const open = SampleUpload.open.bind(SampleUpload);
    const spy = jest.spyOn(SampleUpload, "open").mockImplementation(async (input) => {
      const upload = await open(input);
      writeFileSync(path, "re-recorded");
      return upload;
    });
    try {
      const error = await runtime.Voice.create(
        await checked("Voice", voiceInputs({ files: [path] })),
      )
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SampleChangedError);
      // The package's own error, but no platform failure: nothing reached the platform whole.
      expect(error).toBeInstanceOf(VoicePlatformError);
      expect(error).not.toBeInstanceOf(ApiError);
      expect((error as Error).message).toMatch(
        /edited\.wav" changed while it was being uploaded \(262144 bytes when the upload began, 11 read\), so the upload was cut short and nothing was created/,
      );
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await state()).voices).toEqual([]);
      expect((await requests()).filter((r) => r.status !== null && r.status < 300)).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("delete calls nothing and warns that the voice stays", async () => {
    const warnSpy = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await runtime.Voice.delete("voice-123", { name: "Support agent" });
      expect(await requests()).toEqual([]);
      expect(warnSpy).toHaveBeenCalledWith(
        expect.stringContaining('voice "Support agent" (voice-123) stays on the platform'),
      );
    } finally {
      warnSpy.mockRestore();
    }
  });
});

describe("SipCarrier handlers", () => {
  it("creates with the spec's JSON body and records the id", async () => {
    const inputs = await checked(
      "SipCarrier",
      carrierInputs({ gateways: [gateway({ sendOptionsPing: true })], updatedBy: "platform-team" }),
    );
    const { id, outs } = await runtime.SipCarrier.create(inputs);
    const [post, ...rest] = await requests();
    expect(rest).toEqual([]);
    expect(post).toMatchObject({
      method: "POST",
      path: "/organization/sip",
      status: 201,
      body: {
        name: "main-trunk",
        requires_register: true,
        register_username: "trunk-user",
        register_password: "[redacted]",
        gateways: [
          {
            inbound: true,
            outbound: true,
            ipv4: "203.0.113.10",
            netmask: 32,
            port: 5060,
            protocol: "udp",
            send_options_ping: true,
          },
        ],
        phoneNumbers: [{ phone_number: "+14155550100" }],
        updatedBy: "platform-team",
      },
    });
    expect(post!.headers["content-type"]).toBe("application/json");
    expect(post!.headers.authorization).toBe("[redacted]");
    const carriers = (await state()).carriers;
    expect(carriers.map((c) => c.id)).toEqual([id]);
    expect(outs).toMatchObject({ carrierId: id, name: "main-trunk" });
  });

  it("acts for the sub-organization through x-sub-organization-id", async () => {
    await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs({ subOrganizationId: "sub_a" })),
    );
    const [post] = await requests();
    expect(post!.headers["x-sub-organization-id"]).toBe("sub_a");
    expect((await state()).carriers[0]!.subOrganizationId).toBe("sub_a");
  });

  it("records an existing carrier without a call", async () => {
    const result = await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs({ existingCarrierId: "carrier-42" })),
    );
    expect(result).toMatchObject({ id: "carrier-42", outs: { carrierId: "carrier-42" } });
    expect(await requests()).toEqual([]);
  });

  it("names the sub-organization when the platform refuses it", async () => {
    const error = await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs({ subOrganizationId: "sub_b" })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(
      /^create SIP carrier "main-trunk" failed: 403 Forbidden: .*\(POST http:\/\/127\.0\.0\.1:\d+\/organization\/sip, request id req_\w+\)\. Check that sub-organization "sub_b" belongs to the organization that owns the API key from the stack config key voiceplatform:apiKey$/,
    );
    expect((error as Error).message).not.toContain("s3cret-sip-password");
  });
});

describe("CampaignWebhook handlers", () => {
  it("subscribes a simple webhook on the campaigns origin", async () => {
    const inputs = await checked("CampaignWebhook", webhookInputs());
    const { id, outs } = await runtime.CampaignWebhook.create(inputs);
    const [post] = await requests();
    expect(post).toMatchObject({
      origin: "campaigns",
      method: "POST",
      path: `/campaigns/${inputs.campaignId}/webhook/subscribe`,
      body: {
        url: "https://hooks.example.com/calls",
        events: ["POST_PROCESSING_FINISHED:INTERESTED"],
      },
    });
    expect(id).toMatch(
      new RegExp(
        `^${inputs.campaignId}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    expect(outs).toMatchObject({ status: "success", data: true });
  });

  it("subscribes an advanced webhook with its whole request", async () => {
    const inputs = await checked(
      "CampaignWebhook",
      webhookInputs({ isAdvanced: true, advancedWebhook: advancedWebhook() }),
    );
    await runtime.CampaignWebhook.create(inputs);
    const [post] = await requests();
    expect(post!.body).toEqual({
      url: "https://hooks.example.com/calls",
      events: ["POST_PROCESSING_FINISHED:INTERESTED"],
      isAdvanced: true,
      // The emulator's log redacts what the provider treats as secret; the names show the shape.
      advancedWebhook: {
        url: "[redacted]",
        method: "GET",
        headers: [{ name: "X-Api-Token", value: "[redacted]" }],
        parameters: [{ name: "source", value: "[redacted]" }],
      },
    });
    const subscriptions = Object.values((await state()).subscriptions).flat();
    expect(subscriptions).toHaveLength(1);
  });

  it("records an existing subscription without a call", async () => {
    const inputs = await checked("CampaignWebhook", webhookInputs({ alreadySubscribed: true }));
    const { id, outs } = await runtime.CampaignWebhook.create(inputs);
    expect(id).toMatch(
      new RegExp(
        `^${inputs.campaignId}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    expect(outs).toMatchObject({ alreadySubscribed: true });
    // No answer, so no status or data: not even as undefined, which the engine cannot carry.
    expect(Object.keys(outs)).not.toEqual(expect.arrayContaining(["status"]));
    expect(Object.keys(outs)).not.toEqual(expect.arrayContaining(["data"]));
    expect(await requests()).toEqual([]);
  });

  it("fails naming the campaign when the platform answers data: false", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/campaigns/*/webhook/subscribe",
      action: { kind: "data-false" },
    });
    const inputs = await checked("CampaignWebhook", webhookInputs());
    const failure = runtime.CampaignWebhook.create(inputs);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^subscribe webhook https://hooks.example.com/calls to campaign ${inputs.campaignId} failed: 200 OK: the platform answered status "success" and data false`,
      ),
    );
  });
});

describe("HTTP behaviour", () => {
  it("sends the key bare by default and after the scheme when one is set", async () => {
    await runtime.SipCarrier.create(await checked("SipCarrier", carrierInputs()));
    context.configure({ authScheme: "Bearer" });
    await runtime.SipCarrier.create(await checked("SipCarrier", carrierInputs({ name: "second" })));
    expect((await state()).carriers).toHaveLength(2);
  });

  it("fails on a wrong key naming where the key came from, and never prints the key", async () => {
    context.configure({ apiKey: "wrong-key-987654" });
    const fromConfig = (await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs()),
    ).catch((e: unknown) => e)) as ApiError;
    expect(fromConfig.status).toBe(401);
    expect(fromConfig.message).toContain("refused the API key");
    expect(fromConfig.message).toContain("stack config key voiceplatform:apiKey: check it there");
    expect(fromConfig.message).not.toContain("wrong-key-987654");
    // Left out of the stack config, the key comes from the environment, and the message says so.
    context.configure({ apiKey: undefined as unknown as string });
    const saved = process.env.VOICEPLATFORM_API_KEY;
    process.env.VOICEPLATFORM_API_KEY = "wrong-env-key-123456";
    try {
      const fromEnv = (await runtime.SipCarrier.create(
        await checked("SipCarrier", carrierInputs()),
      ).catch((e: unknown) => e)) as ApiError;
      expect(fromEnv.status).toBe(401);
      expect(fromEnv.message).toContain("refused the API key");
      expect(fromEnv.message).toContain(
        "environment variable VOICEPLATFORM_API_KEY: check it there",
      );
      expect(fromEnv.message).not.toContain("wrong-env-key-123456");
    } finally {
      if (saved === undefined) delete process.env.VOICEPLATFORM_API_KEY;
      else process.env.VOICEPLATFORM_API_KEY = saved;
    }
  });

  it("fails without a key, naming both ways to set it, before any call", async () => {
    context.configure({ apiKey: "" });
    const saved = process.env.VOICEPLATFORM_API_KEY;
    delete process.env.VOICEPLATFORM_API_KEY;
    try {
      const refused = await runtime.SipCarrier.create(
        await checked("SipCarrier", carrierInputs()),
      ).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Error);
      const { message } = refused as Error;
      expect(message).toContain("voiceplatform:apiKey is not set");
      expect(message).toContain('create SIP carrier "main-trunk" needs it');
      expect(message).toContain("`pulumi config set --secret voiceplatform:apiKey <value>`");
      expect(message).toContain("export VOICEPLATFORM_API_KEY");
      expect(await requests()).toEqual([]);
    } finally {
      if (saved !== undefined) process.env.VOICEPLATFORM_API_KEY = saved;
    }
  });

  it("retries a PUT through 500 and 502 and succeeds", async () => {
    const inputs = await checked("Voice", voiceInputs());
    const { id, outs } = await runtime.Voice.create(inputs);
    await context.emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      times: 1,
      action: { kind: "status", status: 500 },
    });
    await context.emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      times: 1,
      action: { kind: "status", status: 502 },
    });
    const updated = await runtime.Voice.update(
      id,
      { ...outs },
      {
        ...inputs,
        name: "Renamed",
      },
    );
    expect(updated.outs.name).toBe("Renamed");
    expect((await requests()).slice(1).map((r) => r.status)).toEqual([500, 502, 200]);
  });

  it("never re-sends a create after a 500, and says the carrier may exist", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "status", status: 500 },
    });
    const error = (await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs()),
    ).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(500);
    expect(error.message).toContain("record it with existingCarrierId");
    expect(error.message).toContain("instead of creating a second one");
    expect(await requests()).toHaveLength(1);
  });

  it("re-sends a create after 429 and after 503 with Retry-After, honoring the wait", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "status", status: 429, retryAfterSeconds: 1 },
    });
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "status", status: 503, retryAfterSeconds: 1 },
    });
    const started = Date.now();
    await runtime.SipCarrier.create(await checked("SipCarrier", carrierInputs()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect((await requests()).map((r) => r.status)).toEqual([429, 503, 201]);
    expect((await state()).carriers).toHaveLength(1);
  });

  it("gives up on a create that hangs past the deadline, without re-sending it", async () => {
    context.configure({ timeoutSeconds: "1" });
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "hang" },
    });
    const started = Date.now();
    const error = (await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs()),
    ).catch((e: unknown) => e)) as ApiError;
    const elapsed = Date.now() - started;
    expect(error.message).toMatch(
      /failed: no complete answer within the deadline \(POST .*\)\. The platform may have created SIP carrier "main-trunk"/,
    );
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(3000);
    expect(await requests()).toHaveLength(1);
  });

  it("reports a lost answer to a create, and the emulator holds the one carrier it made", async () => {
    await context.emulator.addFault({
      method: "POST",
      path: "/organization/sip",
      times: 1,
      action: { kind: "reset-after" },
    });
    const error = (await runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs()),
    ).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(/connection failed \(\w+\).*record it with existingCarrierId/);
    expect((await state()).carriers).toHaveLength(1);
    expect(await requests()).toHaveLength(1);
  });

  it("re-reads a PUT whose answer was not JSON", async () => {
    const inputs = await checked("Voice", voiceInputs());
    const { id, outs } = await runtime.Voice.create(inputs);
    await context.emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      times: 1,
      action: { kind: "malformed-json" },
    });
    const updated = await runtime.Voice.update(
      id,
      { ...outs },
      {
        ...inputs,
        name: "Renamed",
      },
    );
    expect(updated.outs.name).toBe("Renamed");
    expect((await requests()).slice(1).map((r) => r.method)).toEqual(["PUT", "PUT"]);
  });
});
