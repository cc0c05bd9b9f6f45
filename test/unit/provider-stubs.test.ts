import * as pulumi from "@pulumi/pulumi";
import { homedir } from "node:os";
import { CampaignWebhook, SipCarrier, Voice, type AdvancedWebhookArgs } from "../../provider";
import { advancedWebhook, campaignId, writeSample } from "../support/builders";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

async function declareStack(suffix: string): Promise<void> {
  const resources = [
    new Voice(`voice-${suffix}`, {
      name: `Voice ${suffix}`,
      files: [writeSample()],
      stability: 0.4,
    }),
    new SipCarrier(`carrier-${suffix}`, {
      name: `trunk-${suffix}`,
      registerPassword: `sip-password-${suffix}`,
    }),
    new CampaignWebhook(`hook-${suffix}`, {
      campaignId,
      url: "https://hooks.example.com",
      isAdvanced: true,
      advancedWebhook: advancedWebhook({
        headers: [{ name: "X-Token", value: `header-secret-${suffix}` }],
      }) as unknown as AdvancedWebhookArgs,
    }),
  ];
  await Promise.all(
    resources.map((resource) => new Promise((resolve) => resource.urn.apply(resolve))),
  );
}

const providerText = (type: string, name: string): string => {
  const found = registered.find((r) => r.type === type && r.name === name);
  if (!found) throw new Error(`${type} ${name} was not registered`);
  return found.inputs.__provider as string;
};

// Loaded by jest from the source tree, outside node_modules: serialized by value, as a linked package is.
describe("the serialized provider of the source tree (by value)", () => {
  beforeAll(async () => {
    await declareStack("a");
    await declareStack("b");
  });

  it("registers the three type tokens", () => {
    expect(registered.map((r) => r.type).sort()).toEqual(
      [
        "pulumi-nodejs:dynamic/voiceplatform:CampaignWebhook",
        "pulumi-nodejs:dynamic/voiceplatform:CampaignWebhook",
        "pulumi-nodejs:dynamic/voiceplatform:SipCarrier",
        "pulumi-nodejs:dynamic/voiceplatform:SipCarrier",
        "pulumi-nodejs:dynamic/voiceplatform:Voice",
        "pulumi-nodejs:dynamic/voiceplatform:Voice",
      ].sort(),
    );
  });

  it.each(["Voice", "SipCarrier", "CampaignWebhook"])(
    "is under 2 KB for %s and the same in every program",
    (kind) => {
      const type = `pulumi-nodejs:dynamic/voiceplatform:${kind}`;
      const prefix = { Voice: "voice", SipCarrier: "carrier", CampaignWebhook: "hook" }[kind];
      const a = providerText(type, `${prefix}-a`);
      const b = providerText(type, `${prefix}-b`);
      expect(Buffer.byteLength(a)).toBeLessThan(2048);
      expect(a).toBe(b);
    },
  );

  it("requires only the runtime entry and holds no secret, path or program value", () => {
    for (const r of registered) {
      const text = r.inputs.__provider as string;
      expect(
        text
          .match(/require\("[^"]+"\)/g)
          ?.every((call) => call === 'require("pulumi-voice-platform/runtime")'),
      ).toBe(true);
      for (const forbidden of [
        "sip-password",
        "header-secret",
        "Voice a",
        "trunk-a",
        process.cwd(),
        homedir(),
        "/tmp/",
      ]) {
        expect(text).not.toContain(forbidden);
      }
    }
  });

  it("deserializes into an object with the six methods the dynamic provider calls", () => {
    const text = providerText("pulumi-nodejs:dynamic/voiceplatform:Voice", "voice-a");
    // The dynamic provider loads the text as a CommonJS module and calls its `handler`.
    const exported: { handler?: () => Record<string, unknown> } = {};
    new Function("exports", "require", text)(exported, require);
    const provider = exported.handler!();
    expect(Object.keys(provider).sort()).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "update",
    ]);
  });

  it("sends the SIP password and the advanced webhook to the engine as secrets", () => {
    const secret = (value: unknown) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value,
    });
    const carrier = registered.find((r) => r.name === "carrier-a")!;
    expect(carrier.inputs.registerPassword).toEqual(secret("sip-password-a"));
    const hook = registered.find((r) => r.name === "hook-a")!;
    expect(hook.inputs.advancedWebhook).toEqual(
      secret(expect.objectContaining({ url: "https://crm.example.com/hook" })),
    );
  });
});

describe("a __provider the program passes", () => {
  it("is refused, naming the resource, the key and the fix", () => {
    const args = { name: "Voice x", files: [writeSample()], __provider: "exports.handler = 1;" };
    expect(() => new Voice("voice-x", args)).toThrow(
      'Voice "voice-x": __provider is not an input; it is reserved for the dynamic provider. Remove it',
    );
  });
});

describe("inputs the user marked secret", () => {
  it("are named in __resource when the package does not call them secret, and only then", async () => {
    const marked = new SipCarrier("carrier-marked", {
      name: "trunk-marked",
      registerUsername: pulumi.secret("marked-user"),
      registerPassword: pulumi.secret("sip-password-marked"),
      gateways: [{ ipv4: pulumi.secret("203.0.113.7"), port: 5060 }],
    });
    const plain = new SipCarrier("carrier-plain", { name: "trunk-plain" });
    await Promise.all(
      [marked, plain].map((resource) => new Promise((resolve) => resource.urn.apply(resolve))),
    );
    const factsOf = (name: string) =>
      registered.find((r) => r.name === name)?.inputs.__resource as Record<string, unknown>;
    expect(factsOf("carrier-marked").markedSecret).toEqual(["registerUsername", "gateways"]);
    expect(factsOf("carrier-plain")).not.toHaveProperty("markedSecret");
  });
});
