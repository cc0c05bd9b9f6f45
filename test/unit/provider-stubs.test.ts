import * as pulumi from "@pulumi/pulumi";
import { homedir } from "node:os";
import * as provider from "../../provider";
import { CampaignWebhook, SipCarrier, Voice } from "../../provider";
import { kebabCase, resourceKinds, type ResourceKind } from "../../provider/resources";
import { allPaths, getAt } from "../support/hostile-values";
import { fixtureOf } from "../support/kind-fixtures";
import { writeSample } from "../support/builders";
import { thrownBy } from "../support/thrown";

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

/**
 * `inputs` with every secret the kind's fixture names set to a value of its own
 * (`secret-<suffix>-<n>`), the objects and lists that lead to one made where missing.
 */
function withEverySecret(kind: ResourceKind, suffix: string): Record<string, unknown> {
  const fixture = fixtureOf(kind);
  const inputs = structuredClone(fixture.inputs()) as Record<string, unknown>;
  fixture.secretInputs.forEach((path, index) =>
    setAlong(inputs, path.split("."), `secret-${suffix}-${index}`),
  );
  return inputs;
}

/** Sets `value` at `segments` (`headers[]` into each item of a list, one made where none is). */
function setAlong(holder: Record<string, unknown>, segments: string[], value: string): void {
  const [head, ...rest] = segments;
  const key = head!.replace(/\[\]$/, "");
  if (rest.length === 0) {
    holder[key] = head!.endsWith("[]") ? [value] : value;
    return;
  }
  if (head!.endsWith("[]")) {
    const items = Array.isArray(holder[key]) && holder[key].length > 0 ? holder[key] : [{}];
    holder[key] = items.map((item: Record<string, unknown>) => {
      const copy = { ...item };
      setAlong(copy, rest, value);
      return copy;
    });
  } else {
    const copy = { ...(holder[key] as Record<string, unknown> | undefined) };
    setAlong(copy, rest, value);
    holder[key] = copy;
  }
}

const classOf = (kind: ResourceKind) =>
  (provider as unknown as Record<string, new (name: string, args: object) => pulumi.Resource>)[
    kind
  ]!;

async function declareStack(suffix: string): Promise<void> {
  const resources = resourceKinds.map(
    (kind) => new (classOf(kind))(`${kebabCase(kind)}-${suffix}`, withEverySecret(kind, suffix)),
  );
  await Promise.all(
    resources.map((resource) => new Promise((resolve) => resource.urn.apply(resolve))),
  );
}

const dynamicType = (kind: string) => `pulumi-nodejs:dynamic/voiceplatform:${kind}`;

const registeredAs = (type: string, name: string): Registered => {
  const found = registered.find((r) => r.type === type && r.name === name);
  if (!found) throw new Error(`${type} ${name} was not registered`);
  return found;
};

const providerText = (type: string, name: string): string =>
  registeredAs(type, name).inputs.__provider as string;

/** Every text a program gave a resource, at any depth, long enough not to show by chance. */
function programTexts(inputs: Record<string, unknown>): string[] {
  const own = Object.fromEntries(
    Object.entries(inputs).filter(([key]) => key !== "__provider" && key !== "__resource"),
  );
  return allPaths(own)
    .map((path) => getAt(own, path))
    .filter((value): value is string => typeof value === "string" && value.length >= 6);
}

const SECRET_SIG = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
};

// Loaded by jest from the source tree, outside node_modules: serialized by value, as a linked package is.
describe("the serialized provider of the source tree (by value)", () => {
  beforeAll(async () => {
    await declareStack("a");
    await declareStack("b");
  });

  it("registers each kind's type token, once in each program", () => {
    expect(registered.map((r) => r.type).sort()).toEqual(
      resourceKinds.flatMap((kind) => [dynamicType(kind), dynamicType(kind)]).sort(),
    );
  });

  it.each(resourceKinds)("is under 2 KB for %s and the same in every program", (kind) => {
    const a = providerText(dynamicType(kind), `${kebabCase(kind)}-a`);
    const b = providerText(dynamicType(kind), `${kebabCase(kind)}-b`);
    expect(Buffer.byteLength(a)).toBeLessThan(2048);
    expect(a).toBe(b);
  });

  it("requires only the runtime entry and holds no secret, path or program value", () => {
    const secrets = resourceKinds.flatMap((kind) =>
      fixtureOf(kind).secretInputs.map((_, index) => `secret-a-${index}`),
    );
    expect(secrets.length).toBeGreaterThan(0);
    for (const r of registered) {
      const text = r.inputs.__provider as string;
      expect(
        text
          .match(/require\("[^"]+"\)/g)
          ?.every((call) => call === 'require("pulumi-voice-platform/runtime")'),
      ).toBe(true);
      expect(programTexts(r.inputs)).not.toEqual([]);
      for (const forbidden of [
        "secret-a-",
        "secret-b-",
        ...programTexts(r.inputs),
        process.cwd(),
        homedir(),
        "/tmp/",
      ]) {
        expect(text).not.toContain(forbidden);
      }
    }
  });

  it("deserializes into an object with the six methods the dynamic provider calls", () => {
    const text = providerText(dynamicType("Voice"), "voice-a");
    // The dynamic provider loads the text as a CommonJS module and calls its `handler`.
    const exported: { handler?: () => Record<string, unknown> } = {};
    new Function("exports", "require", text)(exported, require);
    const handler = exported.handler!();
    expect(Object.keys(handler).sort()).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "update",
    ]);
  });

  it.each(resourceKinds)(
    "sends each secret input of %s, as its fixture names them, to the engine as a secret",
    (kind) => {
      const { inputs } = registeredAs(dynamicType(kind), `${kebabCase(kind)}-a`);
      // A nested secret makes the whole top-level input secret.
      const roots = new Set(fixtureOf(kind).secretInputs.map((path) => /^[^.[]+/.exec(path)![0]));
      for (const root of roots) {
        expect({ root, value: inputs[root] }).toEqual({
          root,
          value: { ...SECRET_SIG, value: expect.anything() },
        });
      }
      for (const [name, value] of Object.entries(inputs)) {
        if (roots.has(name)) continue;
        expect({ name, value }).not.toEqual({ name, value: expect.objectContaining(SECRET_SIG) });
      }
    },
  );
});

describe("a __provider the program passes", () => {
  it("is refused, naming the resource, the key and the fix", () => {
    const args = { name: "Voice x", files: [writeSample()], __provider: "exports.handler = 1;" };
    const refusal = (thrownBy(() => new Voice("voice-x", args)) as Error).message;
    expect(refusal).toMatch(/^Voice "voice-x": __provider is not an input/);
    expect(refusal).toContain("reserved for the dynamic provider");
    expect(refusal).toContain("Remove it");
    expect(refusal).not.toContain("exports.handler");
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

describe("secret inputs the program wrote plain", () => {
  it("are named in __resource by the path the program wrote, for the policy pack", async () => {
    const hook = new CampaignWebhook("hook-plain-secrets", {
      campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
      url: "https://hooks.example.com/x",
      isAdvanced: true,
      advancedWebhook: {
        url: pulumi.secret("https://crm.example.com/x?token=t"),
        headers: [
          { name: "A", value: pulumi.secret("from-secret") },
          { name: "B", value: "typed-in-the-program" },
        ],
      },
    });
    await new Promise((resolve) => hook.urn.apply(resolve));
    const facts = registered.find((r) => r.name === "hook-plain-secrets")?.inputs.__resource as
      Record<string, unknown> | undefined;
    expect(facts?.plainSecrets).toEqual(["advancedWebhook.headers[1].value"]);
  });
});
