/**
 * The package as published, run by the real dynamic-provider process that the Pulumi engine
 * starts, driven over gRPC with the `__provider` text the SDK serializes, against the emulator.
 * Covers what unit tests of the handlers cannot: the packed files and `exports`, the stub's
 * `require` resolving from the project, configure reaching the runtime, the error details the
 * engine reads, and paths resolving against the process's working directory.
 */
import { createHash } from "node:crypto";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../../provider/emulator";
import {
  createFixtureProject,
  fixtureTimings,
  removeFixtureProject,
} from "../support/packed-package";
import {
  ProviderCallError,
  ResourceInitError,
  startProviderProcess,
  type PropertyMap,
  type ProviderProcess,
} from "../support/provider-process";
import { EngineSteps } from "../support/engine-steps";
import {
  resourceUrn,
  serializedProviders,
  type ResourceKind,
} from "../support/serialized-provider";

const sampleA = Buffer.from("RIFF....WAVEfmt sample A: a short greeting");
const sampleB = Buffer.from("RIFF....WAVEfmt sample B: a second take");
const campaignId = "65a1f0c2e4b0a1b2c3d4e5f6";

let emulator: RunningEmulator;
let project: string;
let providers: Record<ResourceKind, string>;
let provider: ProviderProcess;

beforeAll(async () => {
  const started = Date.now();
  [emulator, project] = await Promise.all([
    startEmulator(),
    createFixtureProject({
      name: "dynamic-provider-test",
      files: { "samples/a.wav": sampleA, "samples/b.wav": sampleB },
    }),
  ]);
  providers = await serializedProviders(project);
  provider = await startProviderProcess(project);
  await provider.configure(platformConfig(emulator));
  console.log(
    `fixture ready in ${Date.now() - started} ms (${JSON.stringify(fixtureTimings)}) at ${project}`,
  );
}, 120_000);

afterAll(async () => {
  await provider?.close();
  await emulator?.stop();
  if (project !== undefined) await removeFixtureProject(project);
});

/** Stack config as the engine passes it, keys with their namespace. */
function platformConfig(running: RunningEmulator): Record<string, string> {
  return {
    "voiceplatform:apiKey": running.apiKey,
    "voiceplatform:baseUrl": running.baseUrl,
    "voiceplatform:campaignsBaseUrl": running.campaignsBaseUrl,
  };
}

/** Inputs as the SDK registers them: the user's values plus the serialized provider. */
function withProvider(kind: ResourceKind, inputs: PropertyMap): PropertyMap {
  return { ...inputs, __provider: providers[kind] };
}

/** Runs check as the engine does before a create or update, and insists it passes. */
async function checked(kind: ResourceKind, name: string, olds: PropertyMap, news: PropertyMap) {
  const result = await provider.check(resourceUrn(kind, name), olds, withProvider(kind, news));
  expect(result.failures).toEqual([]);
  return result.inputs;
}

/** The API requests the emulator logged after the first `skip`. */
async function requestsSince(skip: number): Promise<RequestLogEntry[]> {
  return (await emulator.requests()).slice(skip);
}

async function requestCount(): Promise<number> {
  return (await emulator.requests()).length;
}

function sha256(content: Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

const voiceInputs = {
  name: "Support agent",
  files: ["samples/a.wav", "samples/b.wav"],
  supportedLocales: ["en-US"],
  stability: 0.5,
  similarityBoost: 0.75,
};

const carrierInputs = {
  name: "main-trunk",
  requiresRegister: true,
  registerUsername: "trunk-user",
  registerPassword: "s3cret-sip-password",
  gateways: [
    {
      inbound: true,
      outbound: true,
      ipv4: "203.0.113.10",
      netmask: 32,
      port: 5060,
      protocol: "udp",
    },
  ],
  phoneNumbers: [{ phoneNumber: "+14155550100" }],
};

const webhookInputs = {
  campaignId,
  url: "https://hooks.example.com/calls",
  events: ["POST_PROCESSING_FINISHED:INTERESTED"],
};

describe("the serialized provider", () => {
  test("is a require of the package's stub subpath per resource", () => {
    for (const kind of ["Voice", "SipCarrier", "CampaignWebhook"] as const) {
      const text = providers[kind];
      expect(text).toMatch(/require\("pulumi-voice-platform\/dynamic\/[a-z-]+"\)/);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(400);
      // Nothing of the machine it was serialized on: no paths, no config.
      expect(text).not.toContain(project);
      expect(text).not.toContain("emulator-key");
    }
  });
});

describe("check", () => {
  test("reports bad inputs as property failures and calls nothing on the platform", async () => {
    await emulator.reset();
    const carrier = await provider.check(
      resourceUrn("SipCarrier", "bad-port"),
      {},
      withProvider("SipCarrier", {
        ...carrierInputs,
        gateways: [{ ipv4: "203.0.113.10", port: 70000 }],
      }),
    );
    // The engine prints the value of a top-level input: the exact place starts the reason.
    expect(carrier.failures).toEqual([
      {
        property: "gateways",
        reason: expect.stringMatching(/^gateways\[0\]\.port .*at most 65535/),
      },
    ]);
    const voice = await provider.check(
      resourceUrn("Voice", "missing-sample"),
      {},
      withProvider("Voice", { ...voiceInputs, files: ["samples/missing.wav"] }),
    );
    expect(voice.failures).toEqual([
      {
        property: "files",
        reason: expect.stringMatching(/^files\[0\] \("samples\/missing.wav"\) .*does not exist/),
      },
    ]);
    const webhook = await provider.check(
      resourceUrn("CampaignWebhook", "bad-campaign"),
      {},
      withProvider("CampaignWebhook", { ...webhookInputs, campaignId: "not-an-object-id" }),
    );
    expect(webhook.failures.map((failure) => failure.property)).toEqual(["campaignId"]);
    expect(await emulator.requests()).toEqual([]);
  });
});

describe("resource lifecycles", () => {
  beforeAll(() => emulator.reset());

  test("Voice: clone from relative sample paths, rename in place, update settings, keep on delete", async () => {
    const urn = resourceUrn("Voice", "support");
    const inputs = await checked("Voice", "support", {}, voiceInputs);
    expect(inputs.__provider).toBe(providers.Voice);

    const created = await provider.create(urn, inputs);
    expect(created.id).not.toBe("");
    expect(created.properties).toMatchObject({
      voiceId: expect.any(String),
      name: "Support agent",
      samples: [
        { name: "a.wav", sha256: sha256(sampleA), size: sampleA.length },
        { name: "b.wav", sha256: sha256(sampleB), size: sampleB.length },
      ],
      __provider: providers.Voice,
    });
    // The relative paths were read from the provider's working directory, the project.
    const [stored] = (await emulator.state()).organizations.org_emulator!.voices;
    expect(stored?.id).toBe(created.id);
    expect(stored?.samples.map((sample) => sample.sha256)).toEqual([
      sha256(sampleA),
      sha256(sampleB),
    ]);

    expect(await provider.diff(created.id, urn, created.properties, inputs)).toMatchObject({
      changes: "DIFF_NONE",
      replaces: [],
    });
    const renamed = await checked("Voice", "support", inputs, {
      ...voiceInputs,
      name: "Support agent v2",
      similarityBoost: 0.9,
    });
    expect(await provider.diff(created.id, urn, created.properties, renamed)).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
    });

    const before = await requestCount();
    const updated = await provider.update(created.id, urn, created.properties, renamed);
    const calls = await requestsSince(before);
    expect(calls.map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([
      `PUT /voices/${created.id} 200`,
    ]);
    expect(calls[0]?.body).toMatchObject({
      name: "Support agent v2",
      settings: { similarity_boost: 0.9, stability: 0.5 },
    });
    expect(calls[0]?.body).not.toHaveProperty("settings.similarityBoost");
    expect(updated.properties).toMatchObject({
      name: "Support agent v2",
      similarityBoost: 0.9,
      voiceId: created.properties.voiceId,
      samples: created.properties.samples,
    });

    const beforeDelete = await requestCount();
    await provider.delete(created.id, urn, updated.properties);
    expect(await requestsSince(beforeDelete)).toEqual([]);
    await provider.waitForStderr(`(${created.id}) stays on the platform`);
    expect((await emulator.state()).organizations.org_emulator!.voices).toHaveLength(1);
  });

  test("SipCarrier: create, replace on a gateway change, record-only update, keep on delete", async () => {
    const urn = resourceUrn("SipCarrier", "trunk");
    const inputs = await checked("SipCarrier", "trunk", {}, carrierInputs);

    const before = await requestCount();
    const created = await provider.create(urn, inputs);
    expect(created.properties).toMatchObject({ carrierId: created.id, name: "main-trunk" });
    const calls = await requestsSince(before);
    expect(calls.map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([
      "POST /organization/sip 201",
    ]);
    expect(calls[0]?.body).toMatchObject({
      name: "main-trunk",
      register_username: "trunk-user",
      gateways: [{ ipv4: "203.0.113.10", port: 5060, inbound: true }],
    });

    expect(await provider.diff(created.id, urn, created.properties, inputs)).toMatchObject({
      changes: "DIFF_NONE",
    });
    const movedGateway = await checked("SipCarrier", "trunk", inputs, {
      ...carrierInputs,
      gateways: [{ ...carrierInputs.gateways[0], port: 5080 }],
    });
    expect(await provider.diff(created.id, urn, created.properties, movedGateway)).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["gateways"],
    });

    // Nothing the platform holds can change in place; update only records the inputs.
    const beforeUpdate = await requestCount();
    const updated = await provider.update(created.id, urn, created.properties, inputs);
    expect(updated.properties).toMatchObject({ carrierId: created.id, name: "main-trunk" });
    await provider.delete(created.id, urn, updated.properties);
    expect(await requestsSince(beforeUpdate)).toEqual([]);
    // Its diff asked for a replacement: the delete says the platform holds both.
    await provider.waitForStderr(
      `(${created.id}) is replaced: its replacement is created and this one stays`,
    );
    expect((await emulator.state()).organizations.org_emulator!.carriers).toHaveLength(1);
  });

  test("CampaignWebhook: subscribe, replace on an events change, keep subscribed on delete", async () => {
    const urn = resourceUrn("CampaignWebhook", "calls");
    const inputs = await checked("CampaignWebhook", "calls", {}, webhookInputs);

    const created = await provider.create(urn, inputs);
    expect(created.id).toMatch(
      new RegExp(
        `^${campaignId}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    expect(created.properties).toMatchObject({ status: "success", data: true, campaignId });

    const moreEvents = await checked("CampaignWebhook", "calls", inputs, {
      ...webhookInputs,
      events: [...webhookInputs.events, "POST_PROCESSING_FINISHED:CALL_ME_LATER"],
    });
    expect(await provider.diff(created.id, urn, created.properties, moreEvents)).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["events"],
    });

    const before = await requestCount();
    const updated = await provider.update(created.id, urn, created.properties, inputs);
    expect(updated.properties).toMatchObject({ status: "success", url: webhookInputs.url });
    await provider.delete(created.id, urn, updated.properties);
    expect(await requestsSince(before)).toEqual([]);
    await provider.waitForStderr(
      new RegExp(
        `campaign webhook ${created.id} \\(.*\\) is replaced, and stays subscribed to campaign ${campaignId}: .*holds 2 subscriptions`,
      ),
    );
  });

  test("the platform holds exactly one voice, one carrier and one subscription", async () => {
    const organization = (await emulator.state()).organizations.org_emulator!;
    expect(organization.voices).toHaveLength(1);
    expect(organization.carriers).toHaveLength(1);
    expect(Object.values(organization.subscriptions).flat()).toHaveLength(1);
  });
});

describe("failed creates", () => {
  beforeEach(() => emulator.reset());

  test("a clone whose follow-up PUT fails comes back as a partly created voice with its id", async () => {
    await emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      action: { kind: "status", status: 400 },
    });
    const urn = resourceUrn("Voice", "multilingual");
    const inputs = await checked(
      "Voice",
      "multilingual",
      {},
      {
        ...voiceInputs,
        name: "Multilingual agent",
        isMultilingual: true,
      },
    );

    const error = await provider.create(urn, inputs).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ResourceInitError);
    const [voice] = (await emulator.state()).organizations.org_emulator!.voices;
    expect(voice).toBeDefined();
    const failure = error as ResourceInitError;
    expect(failure.id).toBe(voice!.id);
    expect(failure.properties).toMatchObject({
      name: "Multilingual agent",
      voiceId: voice!.voiceId,
    });
    expect(failure.reasons).toEqual([expect.stringContaining(`created ${voice!.id}`)]);
    const calls = await emulator.requests();
    expect(calls.map((call) => `${call.method} ${call.path} ${call.status}`)).toEqual([
      "POST /voices/voice-clone 200",
      `PUT /voices/${voice!.id} 400`,
    ]);
  });

  // Provider bug: the properties of a partly created resource lack `__provider`. The engine stores
  // them as the resource's outputs, and delete and read run the `__provider` of the stored
  // outputs, so `pulumi destroy` or `refresh` before the next `up` fails with "code must be a
  // string, not undefined". Turn this into a plain `test` once the runtime adds `__provider`.
  test("a partly created voice can be deleted with the properties the engine recorded", async () => {
    await emulator.addFault({
      method: "PUT",
      path: "/voices/*",
      action: { kind: "status", status: 400 },
    });
    const urn = resourceUrn("Voice", "partly-created");
    const inputs = await checked(
      "Voice",
      "partly-created",
      {},
      {
        ...voiceInputs,
        name: "Partly created agent",
        isMultilingual: true,
      },
    );
    const failure = await provider.create(urn, inputs).then(
      () => undefined,
      (reason: unknown) => reason as ResourceInitError,
    );
    expect(failure).toBeInstanceOf(ResourceInitError);
    await provider.delete(failure!.id, urn, failure!.properties);
  });

  test("a create without an API key names both ways to set one and calls nothing", async () => {
    const unkeyed = await startProviderProcess(project);
    try {
      const { "voiceplatform:apiKey": _apiKey, ...withoutKey } = platformConfig(emulator);
      await unkeyed.configure(withoutKey);
      const inputs = await unkeyed.check(
        resourceUrn("SipCarrier", "unkeyed"),
        {},
        withProvider("SipCarrier", carrierInputs),
      );
      expect(inputs.failures).toEqual([]);
      const error = await unkeyed.create(resourceUrn("SipCarrier", "unkeyed"), inputs.inputs).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).not.toBeInstanceOf(ResourceInitError);
      expect((error as Error).message).toMatch(/voiceplatform:apiKey/);
      expect((error as Error).message).toMatch(/VOICEPLATFORM_API_KEY/);
      expect(await emulator.requests()).toEqual([]);
    } finally {
      await unkeyed.close();
    }
  });
});

describe("one process, many resources", () => {
  beforeAll(() => emulator.reset());

  test("serves concurrent creates, updates and deletes of many resources", async () => {
    const steps = new EngineSteps(provider, providers);
    const carrierNames = Array.from({ length: 50 }, (_, index) => `trunk-${index}`);
    const voiceNames = Array.from({ length: 20 }, (_, index) => `Agent voice ${index}`);
    const [carriers, voices] = await Promise.all([
      Promise.all(
        carrierNames.map((name) => steps.create("SipCarrier", name, { ...carrierInputs, name })),
      ),
      Promise.all(voiceNames.map((name) => steps.create("Voice", name, { ...voiceInputs, name }))),
    ]);
    expect(new Set(carriers.map((carrier) => carrier.id)).size).toBe(carrierNames.length);
    expect(carriers.map((carrier) => carrier.outputs.name)).toEqual(carrierNames);
    expect(new Set(voices.map((voice) => voice.id)).size).toBe(voiceNames.length);

    const before = await requestCount();
    const renamed = await Promise.all(
      voices.map((voice) =>
        steps.update(voice, { ...voiceInputs, name: `${String(voice.outputs.name)} v2` }),
      ),
    );
    expect(renamed.map(({ diff }) => diff.changes)).toEqual(voiceNames.map(() => "DIFF_SOME"));
    expect(renamed.map(({ resource }) => resource.outputs.name)).toEqual(
      voiceNames.map((name) => `${name} v2`),
    );
    await Promise.all(
      [...carriers, ...renamed.map(({ resource }) => resource)].map(steps.delete, steps),
    );
    const calls = await requestsSince(before);
    expect(calls.map((call) => call.method)).toEqual(voiceNames.map(() => "PUT"));

    const organization = (await emulator.state()).organizations.org_emulator!;
    expect(organization.carriers).toHaveLength(carrierNames.length);
    expect(organization.voices.map((voice) => voice.name).sort()).toEqual(
      voiceNames.map((name) => `${name} v2`).sort(),
    );
  });
});
