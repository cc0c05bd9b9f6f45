/**
 * The provider plugin as users install it (the packed package's `pulumi-resource-voiceplatform`
 * bin), started as the engine starts it and driven over gRPC against the emulator: the provider's
 * own configuration (CheckConfig, DiffConfig, Configure), the resources' check, diff, create,
 * update and read (refresh and import), secrets on the wire, and nothing of `__provider`.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { startEchoServer } from "../reliability/echo-server";
import { packageSchema } from "../../provider/schema/package-schema";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import {
  ProviderCallError,
  startProviderProcess,
  type PropertyMap,
  type ProviderProcess,
} from "../support/provider-process";

const PROVIDER_URN = "urn:pulumi:test::plugin::pulumi:providers:voiceplatform::default";
const sampleA = Buffer.from("RIFF....WAVEfmt sample A: a short greeting");
const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
const password = "sip-password-3141";
const headerSecret = "Bearer hook-secret-2718";
const parameterSecret = "param-token-5772";
const bodySecret = '{"token":"body-token-1618"}';
const advancedUrl = "https://hooks.example.com/advanced/url-token-1414";

const urn = (type: string, name: string) =>
  `urn:pulumi:test::plugin::voiceplatform:index:${type}::${name}`;
const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

let emulator: RunningEmulator;
let project: string;
let plugin: ProviderProcess;

function startPlugin(env: NodeJS.ProcessEnv = {}): Promise<ProviderProcess> {
  return startProviderProcess(project, env, {
    executable: join(project, "node_modules", ".bin", "pulumi-resource-voiceplatform"),
  });
}

beforeAll(async () => {
  [emulator, project] = await Promise.all([
    startEmulator(),
    createFixtureProject({ name: "plugin-process-test", files: { "samples/a.wav": sampleA } }),
  ]);
  plugin = await startPlugin();
}, 180_000);

afterAll(async () => {
  await plugin?.close();
  await emulator?.stop();
  if (project !== undefined) await removeFixtureProject(project);
});

describe("the plugin's own calls", () => {
  it("reports the package version and serves the package schema", async () => {
    const schema = packageSchema();
    expect(await plugin.getPluginInfo()).toEqual({ version: schema.version });
    expect(await plugin.getSchema()).toEqual(JSON.parse(JSON.stringify(schema)));
  });
});

describe("CheckConfig", () => {
  it("accepts good inputs, turns config text into numbers, and makes apiKey secret", async () => {
    const { inputs, failures } = await plugin.checkConfig(
      PROVIDER_URN,
      {},
      {
        apiKey: "key-1",
        baseUrl: "https://api.example.com",
        timeoutSeconds: "30",
        maxRetries: 2,
        version: "0.1.0",
      },
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      apiKey: secret("key-1"),
      baseUrl: "https://api.example.com",
      timeoutSeconds: 30,
      maxRetries: 2,
      version: "0.1.0",
    });
  });

  it("keeps a setting given from a secret config value secret", async () => {
    const { inputs, failures } = await plugin.checkConfig(
      PROVIDER_URN,
      {},
      { apiKey: secret("key-1"), baseUrl: secret("https://api.example.com/tenant-7731") },
    );
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({
      apiKey: secret("key-1"),
      baseUrl: secret("https://api.example.com/tenant-7731"),
    });
  });

  it("names each bad field, its problem and the fix, and never shows the key", async () => {
    const { failures } = await plugin.checkConfig(
      PROVIDER_URN,
      {},
      {
        apiKey: "   ",
        baseUrl: "api.example.com",
        timeoutSeconds: "soon",
        maxConcurrency: 2.5,
        apikey: "typo-key",
      },
    );
    expect(failures).toEqual([
      { property: "apikey", reason: expect.stringContaining('did you mean "apiKey"') },
      { property: "apiKey", reason: expect.stringContaining("must not be empty") },
      {
        property: "baseUrl",
        reason: 'must be an absolute https URL such as https://api.example.com ("api.example.com")',
      },
      { property: "timeoutSeconds", reason: 'must be a number from 1 to 600 ("soon")' },
      { property: "maxConcurrency", reason: "must be a whole number from 1 to 256 (2.5)" },
    ]);
    expect(JSON.stringify(failures)).not.toContain("typo-key");
  });

  it("checks the environment variable that stands in for an input left out", async () => {
    const withBadEnv = await startPlugin({ VOICEPLATFORM_TIMEOUT_SECONDS: "ten" });
    try {
      const { failures } = await withBadEnv.checkConfig(PROVIDER_URN, {}, {});
      expect(failures).toEqual([
        {
          property: "timeoutSeconds",
          reason:
            'is not set, and its fallback VOICEPLATFORM_TIMEOUT_SECONDS is "ten", which must be a number from 1 to 600: fix or unset VOICEPLATFORM_TIMEOUT_SECONDS',
        },
      ]);
    } finally {
      await withBadEnv.close();
    }
  });

  it("warns at preview when no key is set anywhere, naming both ways to set it", async () => {
    const { failures } = await plugin.checkConfig(
      PROVIDER_URN,
      {},
      { baseUrl: "https://a.example.com" },
    );
    expect(failures).toEqual([]);
    await plugin.waitForStderr(/no apiKey and VOICEPLATFORM_API_KEY is not set.*apiKey input/);
  });
});

describe("DiffConfig", () => {
  const olds = { apiKey: "key-1", baseUrl: "https://a.example.com", subOrganizationId: "sub_1" };

  it("a rotated key, a moved address or a new sub-organization replaces nothing", async () => {
    const diff = await plugin.diffConfig(PROVIDER_URN, olds, {
      apiKey: "key-2",
      baseUrl: "https://b.example.com",
      subOrganizationId: "sub_2",
    });
    expect(diff).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
      diffs: ["apiKey", "baseUrl", "subOrganizationId"],
    });
  });

  it("the same inputs are no change", async () => {
    expect((await plugin.diffConfig(PROVIDER_URN, olds, { ...olds })).changes).toBe("DIFF_NONE");
  });
});

describe("resources through the plugin", () => {
  beforeAll(async () => {
    const answer = await plugin.configureProvider({
      apiKey: secret(emulator.apiKey),
      baseUrl: emulator.baseUrl,
      campaignsBaseUrl: emulator.campaignsBaseUrl,
      version: "0.1.0",
    });
    expect(answer).toEqual({ acceptSecrets: true, supportsPreview: true });
  });

  const carrier: PropertyMap = {
    name: "Plugin trunk",
    registerUsername: "trunk-user",
    registerPassword: password,
    gateways: [{ ipv4: "203.0.113.10", port: 5060, inbound: true }],
  };
  let carrierId: string;
  let carrierState: PropertyMap;

  it("checks, creates and stores a carrier with its password secret and no __provider", async () => {
    const checked = await plugin.check(urn("SipCarrier", "trunk"), {}, carrier);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.registerPassword).toEqual(secret(password));
    const created = await plugin.create(urn("SipCarrier", "trunk"), carrier);
    carrierId = created.id;
    carrierState = created.properties;
    expect(created.properties).toMatchObject({
      name: "Plugin trunk",
      carrierId,
      registerPassword: secret(password),
    });
    expect(created.properties).not.toHaveProperty("stateVersion");
    expect(created.properties).not.toHaveProperty("__provider");
    const stored = (await emulator.state()).organizations.org_emulator!.carriers;
    expect(stored.map((c) => c.id)).toEqual([carrierId]);
  });

  it("a changed carrier is a replacement; the same one is no change", async () => {
    const plain = { ...carrierState, registerPassword: password };
    const same = await plugin.diff(carrierId, urn("SipCarrier", "trunk"), plain, carrier);
    expect(same.changes).toBe("DIFF_NONE");
    const renamed = await plugin.diff(carrierId, urn("SipCarrier", "trunk"), plain, {
      ...carrier,
      name: "Renamed trunk",
    });
    expect(renamed).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["name"],
      diffs: ["name"],
      hasDetailedDiff: true,
      detailedDiff: { name: "UPDATE_REPLACE" },
    });
    // A new password: the reason names it, the answer never holds it.
    const rotated = await plugin.diff(carrierId, urn("SipCarrier", "trunk"), plain, {
      ...carrier,
      registerPassword: "rotated-plugin-password",
    });
    expect(rotated).toMatchObject({
      diffs: ["registerPassword"],
      detailedDiff: { registerPassword: "UPDATE_REPLACE" },
    });
    expect(JSON.stringify(rotated)).not.toContain("rotated-plugin-password");
  });

  it("refresh gives back what state holds", async () => {
    const plain = { ...carrierState, registerPassword: password };
    const read = await plugin.read(carrierId, urn("SipCarrier", "trunk"), plain, carrier);
    expect(read.id).toBe(carrierId);
    expect(read.properties).toEqual(carrierState);
    expect(read.inputs).toEqual({ ...carrier, registerPassword: secret(password) });
  });

  it("import adopts a carrier by id and records the declared inputs without a call", async () => {
    const before = (await emulator.requests()).length;
    const read = await plugin.read("carrier-made-elsewhere", urn("SipCarrier", "adopted"), {});
    // What the id tells, and the markers by which the next calls record the declared inputs.
    expect(read).toEqual({
      id: "carrier-made-elsewhere",
      properties: { carrierId: "carrier-made-elsewhere", __importedWithoutRead: true },
      inputs: { __adopted: true },
    });
    const diff = await plugin.diff(
      "carrier-made-elsewhere",
      urn("SipCarrier", "adopted"),
      read.properties,
      carrier,
    );
    expect(diff).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
      detailedDiff: { name: "ADD", registerPassword: "ADD" },
    });
    const updated = await plugin.update(
      "carrier-made-elsewhere",
      urn("SipCarrier", "adopted"),
      read.properties,
      carrier,
    );
    expect(updated.properties).toEqual({
      ...carrier,
      registerPassword: secret(password),
      carrierId: "carrier-made-elsewhere",
    });
    expect((await emulator.requests()).length).toBe(before);
  });

  it("import refuses an id that would change the address of later calls", async () => {
    for (const id of ["..", "%2e"]) {
      const error = await plugin
        .read(id, urn("Voice", "moved"), {})
        .catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ProviderCallError);
      expect((error as ProviderCallError).details).toMatch(/must not be "\.\.?"/);
    }
  });

  it("clones a voice from a FileAsset and a path, and renames it in place", async () => {
    const asset = { [specialSigKey]: ASSET_SIG, path: "samples/a.wav" };
    const voice = { name: "Plugin voice", files: [asset, "samples/a.wav"] };
    const checked = await plugin.check(urn("Voice", "v"), {}, voice);
    expect(checked.failures).toEqual([]);
    const created = await plugin.create(urn("Voice", "v"), checked.inputs);
    expect(created.properties).toMatchObject({ name: "Plugin voice" });
    expect((created.properties.samples as unknown[]).length).toBe(2);
    const renamed = { ...voice, name: "Plugin voice 2" };
    const diff = await plugin.diff(created.id, urn("Voice", "v"), created.properties, renamed);
    expect(diff).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
      detailedDiff: { name: "UPDATE" },
    });
    const updated = await plugin.update(created.id, urn("Voice", "v"), created.properties, renamed);
    expect(updated.properties.name).toBe("Plugin voice 2");
  });

  it("keeps everything in an advanced webhook that can carry a token secret: URL, header and parameter values, body", async () => {
    const webhook = {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/calls",
      isAdvanced: true,
      advancedWebhook: {
        url: advancedUrl,
        method: "GET",
        headers: [{ name: "Authorization", value: headerSecret }],
        parameters: [{ name: "token", value: parameterSecret }],
        body: bodySecret,
      },
    };
    const checked = await plugin.check(urn("CampaignWebhook", "w"), {}, webhook);
    expect(checked.failures).toEqual([]);
    const withSecrets = {
      url: secret(advancedUrl),
      method: "GET",
      headers: [{ name: "Authorization", value: secret(headerSecret) }],
      parameters: [{ name: "token", value: secret(parameterSecret) }],
      body: secret(bodySecret),
    };
    expect(checked.inputs.advancedWebhook).toEqual(withSecrets);
    const created = await plugin.create(urn("CampaignWebhook", "w"), webhook);
    expect(created.properties.advancedWebhook).toEqual(withSecrets);
    const planned = await plugin.create(urn("CampaignWebhook", "p"), webhook, { preview: true });
    expect(planned.properties.advancedWebhook).toEqual(withSecrets);
    for (const value of [advancedUrl, headerSecret, parameterSecret, bodySecret])
      expect(created.id).not.toContain(value);
  });

  describe("during a preview", () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

    it("a create answers the planned state, the platform's outputs unknown, and sends nothing", async () => {
      await emulator.newRequests();
      const planned = await plugin.create(urn("SipCarrier", "planned"), carrier, { preview: true });
      expect(planned).toEqual({
        id: "",
        properties: { ...carrier, registerPassword: secret(password), carrierId: UNKNOWN },
      });
      const asset = { [specialSigKey]: ASSET_SIG, path: "samples/a.wav" };
      const voice = await plugin.create(
        urn("Voice", "planned"),
        { name: "Planned voice", files: [asset] },
        { preview: true },
      );
      expect(voice.properties).toMatchObject({ name: "Planned voice", voiceId: UNKNOWN });
      const hook = await plugin.create(
        urn("CampaignWebhook", "planned"),
        { campaignId: UNKNOWN, url: "https://hooks.example.com/calls" },
        { preview: true },
      );
      expect(hook.properties).toEqual({
        campaignId: UNKNOWN,
        url: "https://hooks.example.com/calls",
        status: UNKNOWN,
        data: UNKNOWN,
      });
      expect(await emulator.newRequests()).toEqual([]);
    });

    it("an update keeps the id, shows the new inputs, and sends nothing", async () => {
      const voice = { name: "Preview voice", files: ["samples/a.wav"] };
      const created = await plugin.create(urn("Voice", "pv"), voice);
      await emulator.newRequests();
      const renamed = { ...voice, name: "Preview voice 2" };
      const planned = await plugin.update(
        created.id,
        urn("Voice", "pv"),
        created.properties,
        renamed,
        undefined,
        { preview: true },
      );
      expect(planned.properties).toMatchObject({
        name: "Preview voice 2",
        voiceId: created.properties.voiceId,
        samples: created.properties.samples,
        settings: UNKNOWN,
      });
      expect(await emulator.newRequests()).toEqual([]);
      const voices = (await emulator.state()).organizations.org_emulator!.voices;
      expect(voices.find((v) => v.id === created.id)?.name).toBe("Preview voice");
    });
  });

  it("check failures name the property, as in the dynamic resources", async () => {
    const checked = await plugin.check(urn("SipCarrier", "bad"), {}, { ...carrier, name: "" });
    expect(checked.failures).toEqual([
      { property: "name", reason: "must not be empty: remove it or give a value" },
    ]);
  });

  it("the process printed no secret", () => {
    for (const value of [emulator.apiKey, password, headerSecret, parameterSecret, advancedUrl]) {
      expect(plugin.stderr).not.toContain(value);
      expect(plugin.stdout).not.toContain(value);
    }
  });
});

describe("a value the user marked secret on an input the schema does not call secret", () => {
  const markedName = "Marked Voice Name 4412";
  const voice = { name: secret(markedName), files: ["samples/a.wav"] };

  beforeAll(async () => {
    await plugin.configureProvider({
      apiKey: secret(emulator.apiKey),
      baseUrl: emulator.baseUrl,
      campaignsBaseUrl: emulator.campaignsBaseUrl,
    });
  });

  it("comes back secret from check, create, update and read; a schema secret keeps its place", async () => {
    const checked = await plugin.check(urn("Voice", "marked"), {}, voice);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.name).toEqual(secret(markedName));
    const created = await plugin.create(urn("Voice", "marked"), checked.inputs);
    expect(created.properties.name).toEqual(secret(markedName));
    const renamed = { ...voice, name: secret(`${markedName} 2`) };
    const updated = await plugin.update(
      created.id,
      urn("Voice", "marked"),
      created.properties,
      renamed,
    );
    expect(updated.properties.name).toEqual(secret(`${markedName} 2`));
    const read = await plugin.read(created.id, urn("Voice", "marked"), updated.properties);
    expect(read.properties.name).toEqual(secret(`${markedName} 2`));
    // A header value the schema calls secret, arriving marked: only that value is secret.
    const webhook = {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/calls",
      isAdvanced: true,
      advancedWebhook: {
        url: "https://hooks.example.com/advanced",
        method: "GET",
        headers: [{ name: "Authorization", value: secret(headerSecret) }],
      },
    };
    const hook = await plugin.check(urn("CampaignWebhook", "marked"), {}, webhook);
    expect(hook.inputs.advancedWebhook).toEqual({
      url: secret("https://hooks.example.com/advanced"),
      method: "GET",
      headers: [{ name: "Authorization", value: secret(headerSecret) }],
    });
  });

  it("is shown as [secret] in a check failure, never quoted", async () => {
    const badLocale = "zz-Marked-Locale-9";
    const checked = await plugin.check(
      urn("Voice", "marked-bad"),
      {},
      { ...voice, supportedLocales: secret([badLocale]) },
    );
    expect(checked.failures.length).toBeGreaterThan(0);
    const text = JSON.stringify(checked.failures);
    expect(text).toContain("supportedLocales");
    expect(text).toContain("[secret]");
    expect(text.toLowerCase()).not.toContain(badLocale.toLowerCase());
  });

  it("is kept out of a platform error that echoes the request, and a short one withholds the answer", async () => {
    const echo = await startEchoServer();
    const echoing = await startPlugin();
    try {
      await echoing.configureProvider({
        apiKey: secret("echo-key-for-marked-secrets"),
        baseUrl: echo.url("json-message"),
      });
      const carrier = (name: unknown, user: unknown) => ({
        name,
        registerUsername: user,
        registerPassword: password,
        gateways: [{ ipv4: "203.0.113.10", port: 5060, inbound: true }],
      });
      const error = await echoing
        .create(urn("SipCarrier", "echoed"), carrier("Echoed trunk", secret("Marked-User-7781")))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderCallError);
      const details = (error as ProviderCallError).details;
      expect(details).toContain("Echoed trunk");
      expect(details.toLowerCase()).not.toContain("marked-user-7781");
      expect(details.toLowerCase()).not.toContain("marked%2duser");
      const short = await echoing
        .create(urn("SipCarrier", "short"), carrier("Short user trunk", secret("q7z")))
        .catch((e: unknown) => e);
      const shortDetails = (short as ProviderCallError).details;
      expect(shortDetails).toContain("registerUsername (marked secret)");
      expect(shortDetails).not.toContain("q7z");
      for (const output of [echoing.stdout, echoing.stderr])
        expect(output.toLowerCase()).not.toContain("marked-user-7781");
    } finally {
      await echoing.close();
      await echo.close();
    }
  });
});

describe("a provider without a key", () => {
  it("fails the first call that needs one, naming the input and the variable", async () => {
    const keyless = await startPlugin();
    try {
      await keyless.configureProvider({ baseUrl: emulator.baseUrl });
      const error = await keyless
        .create(urn("SipCarrier", "keyless"), { name: "No key" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderCallError);
      expect((error as ProviderCallError).details).toMatch(/apiKey.*VOICEPLATFORM_API_KEY/);
    } finally {
      await keyless.close();
    }
  });
});

describe("what the plugin process loads", () => {
  it("the bundle alone: no package found through node_modules, through a create", async () => {
    const dir = await mkdtemp(join(tmpdir(), "plugin-modules-"));
    const listed = join(dir, "modules.json");
    const preload = join(dir, "list-modules.js");
    // Written when the process is stopped, after everything it served has been loaded.
    await writeFile(
      preload,
      `process.on("SIGTERM", () => { require("node:fs").writeFileSync(${JSON.stringify(listed)}, JSON.stringify(Object.keys(require.cache))); process.exit(0); });`,
    );
    const lean = await startPlugin({ NODE_OPTIONS: `--require ${preload}` });
    try {
      await lean.configureProvider({ apiKey: secret(emulator.apiKey), baseUrl: emulator.baseUrl });
      await lean.create(urn("SipCarrier", "lean"), { name: "Lean trunk" });
    } finally {
      await lean.close();
    }
    const loaded = JSON.parse(await readFile(listed, "utf8")) as string[];
    await rm(dir, { recursive: true, force: true });
    // The bin, the code cache's loader and the preload; the bundle runs from V8's code cache.
    expect(
      loaded.filter(
        (path) => /[\\/]node_modules[\\/]/.test(path) && !path.includes("pulumi-voice-platform"),
      ),
    ).toEqual([]);
    expect(loaded.some((path) => path.endsWith("code-cache.js"))).toBe(true);
  });

  it("the bundle holds gRPC, the protocol messages and undici, and nothing of @pulumi/pulumi's program runtime", async () => {
    const bundle = await readFile(
      join(
        project,
        "node_modules",
        "pulumi-voice-platform",
        "dist",
        "provider",
        "plugin",
        "pulumi-resource-voiceplatform.js",
      ),
      "utf8",
    );
    // esbuild names each CommonJS module it wraps by its path.
    const modules = [...bundle.matchAll(/"(node_modules\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(modules.some((path) => path.startsWith("node_modules/@grpc/grpc-js/"))).toBe(true);
    expect(modules).toContain("node_modules/@pulumi/pulumi/proto/provider_pb.js");
    expect(modules.some((path) => path.startsWith("node_modules/undici/"))).toBe(true);
    expect(
      modules.filter((path) =>
        /@pulumi\/pulumi\/(index\.js|runtime\/|cmd\/)|\/(typescript|ts-node)\//.test(path),
      ),
    ).toEqual([]);
  });
});
