/**
 * The `__provider` text the SDK writes into state, for each way the package can be installed, and
 * the dynamic-provider process running each text through a whole lifecycle. The installed package
 * is serialized as a `require` of its stub subpath (the same text in every version); a package
 * loaded from outside `node_modules` (npm link, a monorepo) or from a store under `node_modules`
 * that the serializer cannot map to an export (pnpm's `.pnpm/…`) is serialized by value. That text
 * is byte for byte what every state written before the subpaths existed holds (checked against the
 * 0.1.0 tarball when the subpaths were added), so its lifecycle here is also the old states' one.
 */
import { mkdir, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { startProviderProcess, type PropertyMap } from "../support/provider-process";
import {
  resourceKinds,
  resourceUrn,
  serializedProviders,
  type ResourceKind,
} from "../support/serialized-provider";

const subpaths: Record<ResourceKind, string> = {
  Voice: "voice",
  SipCarrier: "sip-carrier",
  CampaignWebhook: "campaign-webhook",
};

/** What @pulumi/pulumi 3.x's serializer writes for a module captured by name. */
const requiredText = (kind: ResourceKind) =>
  "exports.handler = __f0;\n" +
  `const provider = require("pulumi-voice-platform/dynamic/${subpaths[kind]}");\n\n` +
  "function __f0() {\n  return (function() {\n" +
  "    with({ this: undefined, arguments: undefined }) {\n\nreturn () => provider;\n\n    }\n" +
  "  }).apply(undefined, undefined).apply(this, arguments);\n}\n";

const inputs: Record<ResourceKind, PropertyMap> = {
  Voice: { name: "Serialized voice", files: ["samples/a.wav"] },
  SipCarrier: { name: "serialized-trunk", registerPassword: "serialized-sip-password" },
  CampaignWebhook: {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/serialized",
  },
};
const changed: Record<ResourceKind, PropertyMap> = {
  Voice: { ...inputs.Voice, stability: 0.3 },
  SipCarrier: { ...inputs.SipCarrier, techPrefix: "9" },
  CampaignWebhook: { ...inputs.CampaignWebhook, events: ["POST_PROCESSING_FINISHED:INTERESTED"] },
};

let emulator: RunningEmulator;
const projects: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
});

afterAll(async () => {
  await emulator?.close();
  await Promise.all(projects.map((dir) => removeFixtureProject(dir)));
});

/** A fixture project, its installed package moved to `where` and linked back in its place. */
async function project(where?: (dir: string) => string): Promise<string> {
  const dir = await createFixtureProject({
    name: "serialized-provider-test",
    files: { "samples/a.wav": Buffer.from("RIFF....WAVEfmt serialized sample") },
  });
  projects.push(dir);
  if (where !== undefined) {
    const installed = join(dir, "node_modules", "pulumi-voice-platform");
    const moved = where(dir);
    await mkdir(join(moved, ".."), { recursive: true });
    await rename(installed, moved);
    await symlink(moved, installed, "dir");
  }
  return dir;
}

/** check, create, diff, update (unless it replaces) and delete of each kind with these provider texts. */
async function lifecycle(dir: string, texts: Record<ResourceKind, string>): Promise<void> {
  const provider = await startProviderProcess(dir);
  try {
    await provider.configure({
      "voiceplatform:apiKey": emulator.apiKey,
      "voiceplatform:baseUrl": emulator.baseUrl,
      "voiceplatform:campaignsBaseUrl": emulator.campaignsBaseUrl,
    });
    for (const kind of resourceKinds) {
      const urn = resourceUrn(kind, `serialized-${kind}`);
      const news = { ...inputs[kind], __provider: texts[kind] };
      const checked = await provider.check(urn, {}, news);
      expect(checked.failures).toEqual([]);
      const created = await provider.create(urn, checked.inputs);
      expect(created.properties.__provider).toBe(texts[kind]);
      const next = await provider.check(urn, checked.inputs, {
        ...changed[kind],
        __provider: texts[kind],
      });
      expect(next.failures).toEqual([]);
      const diff = await provider.diff(created.id, urn, created.properties, next.inputs);
      expect(diff.changes).toBe("DIFF_SOME");
      // A carrier has no update: the engine replaces it, deleting the old one with its state.
      let last = created.properties;
      if (diff.replaces.length === 0) {
        last = (await provider.update(created.id, urn, created.properties, next.inputs)).properties;
        expect(last.__provider).toBe(texts[kind]);
      }
      await provider.delete(created.id, urn, last);
    }
  } finally {
    await provider.close();
  }
}

describe("installed from the packed tarball", () => {
  let dir: string;
  let texts: Record<ResourceKind, string>;
  beforeAll(async () => {
    dir = await project();
    texts = await serializedProviders(dir);
  }, 180_000);

  test.each(resourceKinds)("%s is a require of its stub subpath, under 400 bytes", (kind) => {
    expect(texts[kind]).toBe(requiredText(kind));
    expect(Buffer.byteLength(texts[kind])).toBeLessThanOrEqual(400);
  });

  test("the provider process runs each kind's whole lifecycle with it", async () => {
    await lifecycle(dir, texts);
  }, 120_000);
});

describe.each([
  ["linked from outside node_modules", (dir: string) => join(dir, "linked", "voice-platform")],
  ["in a store under node_modules", (dir: string) => join(dir, "node_modules", ".store", "vp")],
])("%s", (_, where) => {
  let dir: string;
  let texts: Record<ResourceKind, string>;
  beforeAll(async () => {
    dir = await project(where);
    texts = await serializedProviders(dir);
  }, 180_000);

  test.each(resourceKinds)("%s is serialized by value and loads only the runtime", (kind) => {
    const text = texts[kind];
    expect(text).toContain(`require("pulumi-voice-platform/runtime").${kind}.create(...a)`);
    expect(text.match(/require\("[^"]+"\)/g)?.every((call) => call.includes("/runtime"))).toBe(
      true,
    );
    expect(text).not.toContain(dir);
    expect(Buffer.byteLength(text)).toBeLessThan(2048);
  });

  test("the provider process runs each kind's whole lifecycle with it", async () => {
    await lifecycle(dir, texts);
  }, 120_000);
});
