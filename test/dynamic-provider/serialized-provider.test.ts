/**
 * The `__provider` text the SDK writes into state, for each way the package can be installed, and
 * the dynamic-provider process running each text through a whole lifecycle. Wherever the project
 * can name the package (installed, linked from outside `node_modules`, a store under it as pnpm's)
 * the text is one `require` of the stub subpath, the same in every version. A copy the project
 * cannot name (nested inside another package beside a hoisted one) is serialized by value: byte for
 * byte what the first release wrote, read here from the golden stack that release wrote.
 */
import { cp, mkdir, readFile, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import { startProviderProcess, type PropertyMap } from "../support/provider-process";
import {
  oneLineProviderText,
  resourceKinds,
  resourceType,
  resourceUrn,
  serializedProviders,
  type ResourceKind,
} from "../support/serialized-provider";

/** The by-value text of each kind in the stack the first release wrote. */
async function firstReleaseTexts(): Promise<Record<ResourceKind, string>> {
  const exported = JSON.parse(
    await readFile(
      join(__dirname, "..", "e2e", "golden", "0.1.0-first-demo", "stack.json"),
      "utf8",
    ),
  ) as { deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] } };
  const texts = {} as Record<ResourceKind, string>;
  for (const kind of resourceKinds) {
    const found = exported.deployment.resources.find((r) => r.type === resourceType(kind));
    texts[kind] = found?.inputs?.__provider as string;
  }
  return texts;
}

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
  await emulator?.stop();
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

describe.each([
  ["installed from the packed tarball", undefined],
  ["linked from outside node_modules", (dir: string) => join(dir, "linked", "voice-platform")],
  ["in a store under node_modules", (dir: string) => join(dir, "node_modules", ".store", "vp")],
])("%s", (_, where) => {
  let dir: string;
  let texts: Record<ResourceKind, string>;
  beforeAll(async () => {
    dir = await project(where);
    texts = await serializedProviders(dir);
  }, 180_000);

  test.each(resourceKinds)("%s is one require of its stub subpath", (kind) => {
    expect(texts[kind]).toBe(oneLineProviderText(kind));
    expect(Buffer.byteLength(texts[kind])).toBeLessThanOrEqual(100);
  });

  test("the provider process runs each kind's whole lifecycle with it", async () => {
    await lifecycle(dir, texts);
  }, 120_000);
});

describe("nested in another package, beside a hoisted copy", () => {
  let dir: string;
  let texts: Record<ResourceKind, string>;
  beforeAll(async () => {
    dir = await project();
    const nested = join(dir, "node_modules", "infra-lib", "node_modules", "pulumi-voice-platform");
    await mkdir(join(nested, ".."), { recursive: true });
    await cp(join(dir, "node_modules", "pulumi-voice-platform"), nested, { recursive: true });
    texts = await serializedProviders(dir, nested);
  }, 180_000);

  test("each kind is serialized by value, byte for byte as the first release wrote it", async () => {
    expect(texts).toEqual(await firstReleaseTexts());
    for (const kind of resourceKinds) expect(texts[kind]).not.toContain(dir);
  });

  test("the provider process runs each kind's whole lifecycle with it", async () => {
    await lifecycle(dir, texts);
  }, 120_000);
});
