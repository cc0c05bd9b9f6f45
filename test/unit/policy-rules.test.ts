/**
 * The policy pack's rules (provider/policy), each called as @pulumi/policy calls it, with a
 * resource that breaks it and one that does not, under both front ends' type tokens. The engine
 * running the pack on real programs is test/examples/policy-pack.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  Policy,
  PolicyResource,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { POLICY_PACK_NAME, voicePlatformPolicies } from "../../provider/policy";
import { PREVIOUS_STATE_VARIABLE } from "../../provider/policy/previous-state";

class NotApplicable extends Error {}

const policy = (name: string): Policy => {
  const found = voicePlatformPolicies.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no policy ${name}`);
  return found;
};

interface Call {
  type?: string;
  props: Record<string, unknown>;
  name?: string;
  stack?: string;
  protect?: boolean;
  config?: object;
}

/**
 * A kind's type tokens, the plugin's and the dynamic resources', written out as the URNs of
 * every state hold them rather than read from provider/schema/type-tokens.ts.
 */
const tokensOf = (kind: string): [string, string] => [
  `voiceplatform:index:${kind}`,
  `pulumi-nodejs:dynamic/voiceplatform:${kind}`,
];

/**
 * A violation's text after the `rule resource: ` it starts with, which every violation has, on one
 * line (the rule's paragraph is its description, printed once by the CLI).
 */
function oneLine(rule: string, resource: string, message: string | undefined): string {
  expect(message).not.toContain("\n");
  expect(message?.startsWith(`${rule} ${resource}: `)).toBe(true);
  return message!.slice(`${rule} ${resource}: `.length);
}

/** What a resource policy reports for one resource: its messages, or "not applicable: why". */
async function violations(name: string, call: Call): Promise<string[]> {
  const { validateResource } = policy(name) as ResourceValidationPolicy;
  const type = call.type!;
  const resourceName = call.name ?? "r";
  const urn = `urn:pulumi:${call.stack ?? "dev"}::proj::${type}::${resourceName}`;
  const messages: string[] = [];
  const args = {
    type,
    props: call.props,
    urn,
    name: resourceName,
    opts: {
      protect: call.protect ?? false,
      ignoreChanges: [],
      aliases: [],
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    getConfig: () => call.config ?? {},
    notApplicable: (reason?: string): never => {
      throw new NotApplicable(reason);
    },
    isType: () => false,
    asType: () => undefined,
  };
  try {
    const validations = Array.isArray(validateResource) ? validateResource : [validateResource];
    for (const validate of validations) {
      await validate!(args as never, (message) =>
        messages.push(oneLine(name, resourceName, message)),
      );
    }
  } catch (error) {
    if (error instanceof NotApplicable) return [`not applicable: ${error.message}`];
    throw error;
  }
  return messages;
}

/** The same call under the plugin's and the dynamic resources' type tokens: both must agree. */
async function underBothTokens(name: string, kind: string, call: Call): Promise<string[]> {
  const [plugin, dynamic] = tokensOf(kind);
  const viaPlugin = await violations(name, { ...call, type: plugin });
  expect(await violations(name, { ...call, type: dynamic })).toEqual(viaPlugin);
  return viaPlugin;
}

const webhook = (props: Record<string, unknown>) => ({
  campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
  url: "https://hooks.example.com/calls",
  ...props,
});

test("the pack has a name, and every rule an id, a description and a level", () => {
  expect(POLICY_PACK_NAME).toBe("voice-platform");
  const ids = voicePlatformPolicies.map((p) => p.name);
  expect(new Set(ids).size).toBe(ids.length);
  for (const p of voicePlatformPolicies) {
    expect(p.name).toMatch(/^[a-z0-9-]+$/);
    expect(p.description.length).toBeGreaterThan(60);
    expect(["advisory", "mandatory"]).toContain(p.enforcementLevel);
  }
});

test("webhook-urls-https: an http url or advancedWebhook.url is reported, the secret one without its value", async () => {
  const rule = "webhook-urls-https";
  expect(await underBothTokens(rule, "CampaignWebhook", { props: webhook({}) })).toEqual([]);
  const plain = await underBothTokens(rule, "CampaignWebhook", {
    props: webhook({ url: "http://hooks.example.com/calls" }),
  });
  expect(plain).toEqual([expect.stringContaining("url uses plain http (host hooks.example.com)")]);
  const secretUrl = "http://hooks.example.com/calls?token=Zq8-secret";
  const advanced = await underBothTokens(rule, "CampaignWebhook", {
    props: webhook({ isAdvanced: true, advancedWebhook: { url: secretUrl } }),
  });
  expect(advanced).toEqual([expect.stringContaining("advancedWebhook.url uses plain http")]);
  expect(advanced.join("\n")).not.toContain("Zq8-secret");
  expect(advanced.join("\n")).not.toContain("hooks.example.com");
  const allowed = await underBothTokens(rule, "CampaignWebhook", {
    props: webhook({ url: "http://hooks.internal/calls" }),
    config: { allowHttpHosts: ["hooks.internal"] },
  });
  expect(allowed).toEqual([]);
});

test("webhook-urls-https: a url not known during a preview is left to the run that knows it", async () => {
  const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
  expect(
    await underBothTokens("webhook-urls-https", "CampaignWebhook", {
      props: webhook({ url: unknown }),
    }),
  ).toEqual([]);
});

test("advanced-webhook-method: a method the spec does not name, and a body on GET, are reported", async () => {
  const rule = "advanced-webhook-method";
  const advanced = (fields: object) =>
    webhook({ isAdvanced: true, advancedWebhook: { url: "https://h.example.com", ...fields } });
  expect(
    await underBothTokens(rule, "CampaignWebhook", { props: advanced({ method: "GET" }) }),
  ).toEqual([]);
  expect(await underBothTokens(rule, "CampaignWebhook", { props: advanced({}) })).toEqual([]);
  expect(
    await underBothTokens(rule, "CampaignWebhook", { props: advanced({ method: "post" }) }),
  ).toEqual(["advancedWebhook.method is POST, which the platform does not name: use GET"]);
  expect(
    await underBothTokens(rule, "CampaignWebhook", {
      props: advanced({ method: "GET", body: "x=1" }),
    }),
  ).toEqual([expect.stringContaining("advancedWebhook.body is set on a GET request")]);
  expect(
    await underBothTokens(rule, "CampaignWebhook", {
      props: advanced({ method: "POST" }),
      config: { allowedMethods: ["GET", "POST"] },
    }),
  ).toEqual([]);
});

test("voice-protected: a voice in a stack matching the patterns must be protected", async () => {
  const rule = "voice-protected";
  const props = { name: "Support agent" };
  expect(await underBothTokens(rule, "Voice", { props, stack: "dev" })).toEqual([]);
  expect(await underBothTokens(rule, "Voice", { props, stack: "prod", protect: true })).toEqual([]);
  expect(await underBothTokens(rule, "Voice", { props, stack: "eu-prod" })).toEqual([
    "stack eu-prod matches *-prod, and this voice is not protected: give it the resource option protect: true",
  ]);
  expect(
    await underBothTokens(rule, "Voice", { props, stack: "live", config: { stacks: ["live"] } }),
  ).toHaveLength(1);
  expect(
    await underBothTokens(rule, "SipCarrier", { props: { name: "t" }, stack: "prod" }),
  ).toEqual([]);
});

test("phone-numbers-e164: local forms and numbers without a plus are reported", async () => {
  const rule = "phone-numbers-e164";
  const numbers = (...list: string[]) => ({
    name: "t",
    phoneNumbers: list.map((phoneNumber) => ({ phoneNumber })),
  });
  expect(
    await underBothTokens(rule, "SipCarrier", { props: numbers("+14155550100", "+442071838750") }),
  ).toEqual([]);
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: { name: "t", phoneNumbers: [{ phoneNumberSid: "PN1" }] },
    }),
  ).toEqual([]);
  expect(
    await underBothTokens(rule, "SipCarrier", { props: numbers("0415 555 0100", "14155550100") }),
  ).toEqual([
    'phoneNumbers[0].phoneNumber "0415 555 0100" is not an E.164 number: write it as + country code and number, e.g. +14155550100',
    'phoneNumbers[1].phoneNumber "14155550100" has no leading +: write it as +14155550100',
  ]);
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: numbers("14155550100"),
      config: { requirePlus: false },
    }),
  ).toEqual([]);
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: numbers("+442071838750"),
      config: { countryCodes: ["1"] },
    }),
  ).toEqual([expect.stringContaining("has none of the allowed calling codes (1)")]);
});

test("gateway-sanity: transport, port, sips, reachability, netmask and repeats", async () => {
  const rule = "gateway-sanity";
  const gateways = (...list: object[]) => ({ name: "t", gateways: list });
  const good = { inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060, protocol: "udp" };
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: gateways(good, {
        outbound: true,
        ipv4: "sip.example.com",
        port: 5061,
        protocol: "tls",
        useSipsScheme: true,
      }),
    }),
  ).toEqual([]);
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: gateways(
        { ...good, protocol: "sctp" },
        { ...good, ipv4: "198.51.100.7", protocol: "tls", port: 5060 },
        { ...good, ipv4: "198.51.100.8", useSipsScheme: true },
        { ...good, ipv4: "192.168.1.20" },
        { ...good, ipv4: "198.51.100.9", netmask: 0 },
        good,
      ),
    }),
  ).toEqual([
    "gateways[0]: protocol sctp is not one of udp, tcp, tls, tls/srtp: use one, or list it in this rule's allowedProtocols",
    "gateways[1]: port 5060 is the port of the other transports: tls uses 5061",
    "gateways[2]: useSipsScheme needs a TLS transport, not udp: use tls, or drop useSipsScheme",
    "gateways[3]: ipv4 192.168.1.20 is in 192.168.0.0/16, which the platform cannot reach (allowPrivateAddresses permits it)",
    "gateways[4]: netmask 0 matches every address on the internet: give the carrier's range, e.g. 32",
    "gateways[5] points at 203.0.113.10:5060, as gateways[0] does: remove one",
  ]);
  expect(
    await underBothTokens(rule, "SipCarrier", {
      props: gateways({ ...good, ipv4: "10.0.0.5" }),
      config: { allowPrivateAddresses: true },
    }),
  ).toEqual([]);
});

test("voice-locales: codes that name no real language and region, or none the team allows", async () => {
  const rule = "voice-locales";
  const locales = (...supportedLocales: string[]) => ({ name: "Support agent", supportedLocales });
  expect(
    await underBothTokens(rule, "Voice", { props: locales("en-US", "es-419", "pt-BR") }),
  ).toEqual([]);
  expect(
    await underBothTokens(rule, "Voice", { props: locales("en-UK", "xx-US", "en-ZZ") }),
  ).toEqual([
    // Named by value: check stores the set sorted, so an index would not be the program's.
    "supportedLocales en-UK: it is written en-GB today, and the platform matches locales as written: write en-GB",
    "supportedLocales xx-US: xx is no language code: write an ISO 639 code, e.g. en",
    "supportedLocales en-ZZ: ZZ is no region code: write an ISO 3166 code, e.g. US",
  ]);
  expect(
    await underBothTokens(rule, "Voice", {
      props: locales("en-US", "fr-FR"),
      config: { allowedLocales: ["en-US"] },
    }),
  ).toEqual([
    "supportedLocales fr-FR is not among the allowed locales (en-US): use one of them, or add it to this rule's allowedLocales",
  ]);
});

describe("secrets-from-secret-config", () => {
  const rule = "secrets-from-secret-config";
  const saved = { ...process.env };
  let project: string;

  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), "policy-secrets-"));
    writeFileSync(join(project, "Pulumi.yaml"), "name: trunks\nruntime: nodejs\n");
    writeFileSync(join(project, "index.js"), 'registerPassword: "typed-in-the-program-77",\n');
    writeFileSync(
      join(project, "Pulumi.prod.yaml"),
      [
        "encryptionsalt: v1:abc",
        "config:",
        "  trunks:sipPassword:",
        "    secure: v1:cipher",
        "  trunks:plainPassword: plain-config-password-42",
        "",
      ].join("\n"),
    );
    process.env.PWD = project;
    process.env.PULUMI_NODEJS_PROJECT = "trunks";
    process.env.PULUMI_NODEJS_STACK = "prod";
    // As the engine gives a pack its stack's configuration: every value decrypted.
    process.env.PULUMI_CONFIG = JSON.stringify({
      "trunks:sipPassword": "from-secret-config-9f",
      "trunks:plainPassword": "plain-config-password-42",
    });
  });

  afterEach(() => {
    process.env = { ...saved };
    rmSync(project, { recursive: true, force: true });
  });

  const carrier = (registerPassword: string) => ({ name: "t", registerPassword });
  /** A dynamic resource's props, with the paths its class found written plain in the program. */
  const dynamicProps = (props: Record<string, unknown>, plainSecrets: string[]) => ({
    ...props,
    __resource: { urn: "urn:x", plainSecrets },
  });
  const dynamic = (kind: string) => tokensOf(kind)[1];

  test("a value from secret config passes; one equal to a plain config value is reported by its key, never shown", async () => {
    expect(
      await underBothTokens(rule, "SipCarrier", { props: carrier("from-secret-config-9f") }),
    ).toEqual([]);
    const plain = await underBothTokens(rule, "SipCarrier", {
      props: carrier("plain-config-password-42"),
    });
    expect(plain).toEqual([
      "registerPassword (secret, not shown) is the plain config value trunks:plainPassword: set it with `pulumi config set --secret plainPassword`",
    ]);
    expect(plain.join("\n")).not.toContain("plain-config-password-42");
    // Only the whole value counts: a config value inside the input's is no finding.
    expect(
      await underBothTokens(rule, "SipCarrier", {
        props: carrier("x-plain-config-password-42-x"),
      }),
    ).toEqual([]);
  });

  test("no file is read: a value the project's files hold is no finding (the examples' false positives)", async () => {
    writeFileSync(
      join(project, "Pulumi.yaml"),
      "name: trunks\nruntime: nodejs\n# voice-platform-basic\n",
    );
    writeFileSync(join(project, "index.test.js"), 'import("pulumi-voice-platform");\n');
    const props = webhook({
      isAdvanced: true,
      advancedWebhook: {
        url: "https://crm.example.com/api/calls",
        headers: [{ name: "Authorization", value: "typed-in-the-program-77" }],
        parameters: [{ name: "source", value: "voice-platform" }],
      },
    });
    // Secret in the program (no plainSecrets recorded), whatever index.js holds.
    expect(await underBothTokens(rule, "CampaignWebhook", { props })).toEqual([]);
    expect(
      await underBothTokens(rule, "SipCarrier", { props: carrier("typed-in-the-program-77") }),
    ).toEqual([]);
  });

  test("a secret input the program wrote plain is reported by the path it wrote; plainAllowed lets some be", async () => {
    const props = dynamicProps(
      webhook({
        isAdvanced: true,
        advancedWebhook: {
          url: "https://crm.example.com/api/calls",
          headers: [
            { name: "A", value: "from-secret-config-9f" },
            { name: "Authorization", value: "typed-in-the-program-77" },
          ],
          parameters: [{ name: "source", value: "voice-platform" }],
        },
      }),
      [
        "advancedWebhook.url",
        "advancedWebhook.headers[1].value",
        "advancedWebhook.parameters[0].value",
      ],
    );
    const found = await violations(rule, { type: dynamic("CampaignWebhook"), props });
    expect(found).toEqual([
      'advancedWebhook.headers[1].value (secret, not shown) is a plain value in the program: give it a secret, e.g. config.requireSecret("…") or pulumi.secret(…)',
    ]);
    expect(found.join("\n")).not.toContain("typed-in-the-program-77");
    const strict = await violations(rule, {
      type: dynamic("CampaignWebhook"),
      props,
      config: { plainAllowed: [] },
    });
    expect(strict.map((line) => line.split(" ")[0])).toEqual([
      "advancedWebhook.url",
      "advancedWebhook.headers[1].value",
      "advancedWebhook.parameters[0].value",
    ]);
  });

  test("the provider's apiKey is judged against plain config", async () => {
    const provider = await violations(rule, {
      type: "pulumi:providers:voiceplatform",
      props: { apiKey: "plain-config-password-42" },
    });
    expect(provider).toEqual([expect.stringMatching(/^apiKey .* plain config value/)]);
  });

  test("without the stack's configuration (pulumi policy analyze) the rule says it does not apply", async () => {
    delete process.env.PULUMI_CONFIG;
    expect(
      await underBothTokens(rule, "SipCarrier", { props: carrier("typed-in-the-program-77") }),
    ).toEqual([
      "not applicable: the stack's configuration is not known here (pulumi policy analyze)",
    ]);
  });

  test("without the stack's config file, which keys are secret is not known: only what the program wrote plain is", async () => {
    rmSync(join(project, "Pulumi.prod.yaml"));
    expect(
      await underBothTokens(rule, "SipCarrier", { props: carrier("plain-config-password-42") }),
    ).toEqual([]);
    expect(
      await violations(rule, {
        type: dynamic("SipCarrier"),
        props: dynamicProps(carrier("typed-in-the-program-77"), ["registerPassword"]),
      }),
    ).toHaveLength(1);
  });

  test("a folder whose Pulumi.yaml names another project is not read", async () => {
    process.env.PULUMI_NODEJS_PROJECT = "another";
    expect(
      await underBothTokens(rule, "SipCarrier", { props: carrier("plain-config-password-42") }),
    ).toEqual([]);
  });
});

describe("every rule's settings", () => {
  test("an unknown key or a wrong type stops the rule, naming the rule, the key and the closest valid key", async () => {
    const props = webhook({ url: "http://hooks.internal/calls" });
    await expect(
      violations("webhook-urls-https", {
        type: tokensOf("CampaignWebhook")[0],
        props,
        config: { allowHttpHost: ["hooks.internal"] },
      }),
    ).rejects.toThrow(
      'policy webhook-urls-https: "allowHttpHost" is not one of its settings (allowHttpHosts, exemptResources): did you mean "allowHttpHosts"?',
    );
    await expect(
      violations("webhook-urls-https", {
        type: tokensOf("CampaignWebhook")[0],
        props,
        config: { allowHttpHosts: "hooks.internal" },
      }),
    ).rejects.toThrow(
      'policy webhook-urls-https: setting allowHttpHosts is string, not a list: write a list such as ["…"]',
    );
    await expect(
      violations("gateway-sanity", {
        type: tokensOf("SipCarrier")[0],
        props: { name: "t" },
        config: { allowPrivateAddresses: "yes" },
      }),
    ).rejects.toThrow(
      "policy gateway-sanity: setting allowPrivateAddresses is string, not boolean",
    );
    const { validateStack } = policy("max-concurrency") as StackValidationPolicy;
    expect(() =>
      validateStack({ resources: [], getConfig: () => ({ maxConcurency: 8 }) } as never, () => {}),
    ).toThrow('did you mean "maxConcurrency"?');
  });

  test.each(voicePlatformPolicies.map((p) => p.name))(
    "%s: exemptResources leaves the named resources alone",
    (name) => {
      expect(policy(name).configSchema?.properties.exemptResources).toMatchObject({
        type: "array",
      });
    },
  );

  test("an exempt resource is not checked", async () => {
    const props = webhook({ url: "http://hooks.example.com/calls" });
    const call = { type: tokensOf("CampaignWebhook")[0], props, name: "legacy-hook" };
    expect(await violations("webhook-urls-https", call)).toHaveLength(1);
    expect(
      await violations("webhook-urls-https", {
        ...call,
        config: { exemptResources: ["legacy-hook"] },
      }),
    ).toEqual([]);
  });
});

describe("no-replacement", () => {
  const rule = "no-replacement";
  let dir: string;
  const saved = process.env[PREVIOUS_STATE_VARIABLE];

  /** A previous state holding the resource `name` of `type` with these inputs. */
  function previous(type: string, name: string, inputs: object): void {
    const urn = `urn:pulumi:dev::proj::${type}::${name}`;
    const state = {
      version: 3,
      deployment: { resources: [{ urn, type, id: "old-id-1", inputs }] },
    };
    writeFileSync(join(dir, "previous.json"), JSON.stringify(state));
    process.env[PREVIOUS_STATE_VARIABLE] = join(dir, "previous.json");
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "policy-previous-"));
  });

  /**
   * What the stack rule reports for a program declaring these resources: each line without its
   * "no-replacement <resource>: " head, and the last (the count) as "count: …".
   */
  async function violations(_rule: string, call: Call, others: Call[] = []): Promise<string[]> {
    const { validateStack } = policy(rule) as StackValidationPolicy;
    const declared = [call, ...others].filter((c) => c.type !== undefined);
    const resources = [
      {
        type: "pulumi:pulumi:Stack",
        name: "proj-dev",
        urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
        props: {},
        opts: { ignoreChanges: [] },
      },
      ...declared.map((c) => ({
        type: c.type!,
        props: c.props,
        name: c.name ?? "r",
        urn: `urn:pulumi:dev::proj::${c.type}::${c.name ?? "r"}`,
        opts: { ignoreChanges: [] },
      })),
    ];
    const found: string[] = [];
    try {
      await validateStack(
        {
          resources,
          getConfig: () => call.config ?? {},
          notApplicable: (reason?: string): never => {
            throw new NotApplicable(reason);
          },
        } as never,
        (message) => {
          expect(message).not.toContain("\n");
          found.push(
            message.startsWith(`${rule} proj-dev: `)
              ? `count: ${message.slice(`${rule} proj-dev: `.length)}`
              : message.replace(/^no-replacement [^:]+: /, ""),
          );
        },
      );
    } catch (error) {
      if (error instanceof NotApplicable) return [`not applicable: ${error.message}`];
      throw error;
    }
    return found;
  }
  afterEach(() => {
    if (saved === undefined) delete process.env[PREVIOUS_STATE_VARIABLE];
    else process.env[PREVIOUS_STATE_VARIABLE] = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  test.each(tokensOf("SipCarrier"))(
    "%s: any change of a carrier replaces it and is reported",
    async (type) => {
      previous(type, "trunk", { name: "trunk", gateways: [{ ipv4: "203.0.113.10" }] });
      const same = { name: "trunk", gateways: [{ ipv4: "203.0.113.10" }] };
      expect(await violations(rule, { type, name: "trunk", props: same })).toEqual([]);
      expect(
        await violations(rule, { type, name: "trunk", props: { ...same, name: "trunk-2" } }),
      ).toEqual([
        'changing name replaces this SipCarrier, and the old one (old-id-1) stays on the platform, which has no delete operation: keep name as deployed, or list "trunk" in this rule\'s allowReplacing',
        "count: this change leaves 1 object(s) on the platform: 1 SipCarrier",
      ]);
      expect(
        await violations(rule, {
          type,
          name: "trunk",
          props: { ...same, name: "trunk-2" },
          config: { allowReplacing: ["trunk"] },
        }),
      ).toEqual([]);
      // A program without it: the carrier leaves the program, and stays on the platform.
      expect(await violations(rule, { type, name: "other", props: { name: "new" } })).toEqual([
        'this SipCarrier leaves the program, and its object (old-id-1) stays on the platform, which has no delete operation: keep it in the program, or list "trunk" in this rule\'s allowReplacing',
        "count: this change leaves 1 object(s) on the platform: 1 SipCarrier",
      ]);
      expect(
        await violations(rule, {
          type,
          name: "other",
          props: { name: "new" },
          config: { allowReplacing: ["trunk"] },
        }),
      ).toEqual([]);
    },
  );

  test.each(tokensOf("CampaignWebhook"))(
    "%s: a webhook that leaves the program is reported (its subscription stays, still called)",
    async (type) => {
      previous(type, "leads", {
        campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
        url: "https://h.example.com",
      });
      expect(await violations(rule, { type: undefined, props: {} })).toEqual([
        'this CampaignWebhook leaves the program, and its object (old-id-1) stays on the platform, which has no delete operation: keep it in the program, or list "leads" in this rule\'s allowReplacing',
        "count: this change leaves 1 object(s) on the platform: 1 CampaignWebhook",
      ]);
      expect(
        await violations(rule, {
          type: undefined,
          props: {},
          config: { exemptResources: ["leads"] },
        }),
      ).toEqual([]);
    },
  );

  test.each(tokensOf("Voice"))(
    "%s: a voice's in-place changes pass, its replacing ones are reported",
    async (type) => {
      const asset = {
        "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17",
        path: "samples/a.wav",
        hash: "ab",
      };
      previous(type, "agent", { name: "Agent", supportedLocales: ["en-US"], files: [asset] });
      const { FileAsset } = await import("@pulumi/pulumi/asset");
      const files = [new FileAsset("samples/a.wav")];
      expect(
        await violations(rule, {
          type,
          name: "agent",
          props: { name: "Agent 2", supportedLocales: ["en-GB"], files },
        }),
      ).toEqual([]);
      expect(
        await violations(rule, {
          type,
          name: "agent",
          props: { name: "Agent", files: [new FileAsset("samples/b.wav")] },
        }),
      ).toEqual([
        expect.stringMatching(/^changing files replaces this Voice/),
        "count: this change leaves 1 object(s) on the platform: 1 Voice",
      ]);
    },
  );

  test("a secret the export kept encrypted counts as unchanged", async () => {
    const type = tokensOf("SipCarrier")[0];
    const encrypted = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: "v1:abc",
    };
    previous(type, "trunk", { name: "trunk", registerPassword: encrypted });
    expect(
      await violations(rule, {
        type,
        name: "trunk",
        props: { name: "trunk", registerPassword: "pw" },
      }),
    ).toEqual([]);
  });

  test("without a previous state the rule says it does not apply", async () => {
    delete process.env[PREVIOUS_STATE_VARIABLE];
    expect(
      await violations(rule, { type: tokensOf("Voice")[0], props: { name: "Agent" } }),
    ).toEqual([
      "not applicable: no previous state: set VOICEPLATFORM_PREVIOUS_STATE to a `pulumi stack export` file",
    ]);
  });
});

describe("max-concurrency", () => {
  const saved = process.env.PULUMI_CONFIG;
  afterEach(() => {
    if (saved === undefined) delete process.env.PULUMI_CONFIG;
    else process.env.PULUMI_CONFIG = saved;
  });

  async function stackViolations(resources: Partial<PolicyResource>[], config: object = {}) {
    const { validateStack } = policy("max-concurrency") as StackValidationPolicy;
    const found: string[] = [];
    await validateStack({ resources, getConfig: () => config } as never, (message, urn) =>
      found.push(`${urn ?? "stack"}: ${message}`),
    );
    for (const line of found) expect(line).not.toContain("\n");
    return found;
  }

  test("a provider's maxConcurrency above the plan's limit is reported, as text or number", async () => {
    const provider = (maxConcurrency: unknown) => ({
      type: "pulumi:providers:voiceplatform",
      urn: "urn:p",
      name: "p",
      props: { maxConcurrency },
    });
    expect(await stackViolations([provider("16"), provider(8)])).toEqual([]);
    expect(await stackViolations([provider("64")])).toEqual([
      "urn:p: max-concurrency p: maxConcurrency is 64, more than the 16 calls in flight the platform plan allows: lower it to 16 or less",
    ]);
    expect(await stackViolations([provider(64)], { maxConcurrency: 64 })).toEqual([]);
  });

  test("the dynamic resources' stack config is checked when they are in the stack", async () => {
    process.env.PULUMI_CONFIG = JSON.stringify({ "voiceplatform:maxConcurrency": "32" });
    const dynamic = { type: "pulumi-nodejs:dynamic/voiceplatform:Voice", urn: "urn:v", props: {} };
    expect(await stackViolations([dynamic])).toEqual([
      "stack: max-concurrency: stack config voiceplatform:maxConcurrency is 32, more than the 16 calls in flight the platform plan allows: lower it to 16 or less",
    ]);
    expect(await stackViolations([])).toEqual([]);
  });
});
