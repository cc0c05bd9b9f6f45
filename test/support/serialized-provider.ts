/**
 * The `__provider` text of each resource exactly as the SDK sends it to the engine. It is taken
 * from a real Pulumi program run under `pulumi.runtime.setMocks` inside the fixture project: the
 * installed package's resource classes serialize their stubs with the installed @pulumi/pulumi,
 * and the mock's `newResource` sees the registered inputs, `__provider` included.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export const resourceKinds = ["Voice", "SipCarrier", "CampaignWebhook"] as const;
export type ResourceKind = (typeof resourceKinds)[number];

/** The type token the dynamic resource classes register (the one `pulumi.dynamic.Resource` would). */
export function resourceType(kind: ResourceKind): string {
  return `pulumi-nodejs:dynamic/voiceplatform:${kind}`;
}

/** The `__provider` a resource of this kind stores when the project can name the package. */
export function oneLineProviderText(kind: ResourceKind): string {
  const subpath = {
    Voice: "voice",
    SipCarrier: "sip-carrier",
    CampaignWebhook: "campaign-webhook",
  }[kind];
  return `exports.handler = () => require("pulumi-voice-platform/dynamic/${subpath}");\n`;
}

/** The URN the engine gives a top-level resource of this kind (project "fixture", stack "test"). */
export function resourceUrn(
  kind: ResourceKind,
  name: string,
  where: { project?: string; stack?: string } = {},
): string {
  return `urn:pulumi:${where.stack ?? "test"}::${where.project ?? "fixture"}::${resourceType(kind)}::${name}`;
}

/** Runs in the fixture project, so every require resolves to its node_modules. */
const captureScript = (from: string) => `
const pulumi = require("@pulumi/pulumi");
const captured = {};
pulumi.runtime.setMocks(
  {
    newResource(args) {
      captured[args.type] = args.inputs.__provider;
      return { id: args.name + "-id", state: args.inputs };
    },
    call(args) {
      return args.inputs;
    },
  },
  "fixture",
  "test",
  false,
);
const platform = require(${JSON.stringify(from)});
const resources = [
  new platform.Voice("voice", { name: "Serialized voice", files: ["samples/a.wav"] }),
  new platform.SipCarrier("carrier", { name: "serialized-trunk" }),
  new platform.CampaignWebhook("webhook", {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/calls",
  }),
];
pulumi.all(resources.map((resource) => resource.urn)).apply(() => {
  process.stdout.write(JSON.stringify(captured));
});
`;

const cache = new Map<string, Promise<Record<ResourceKind, string>>>();

/**
 * The `__provider` text of every resource kind, computed once per project directory, with the
 * package the program loads (`from`, a specifier or a path) resolved from that directory.
 */
export function serializedProviders(
  projectDir: string,
  from = "pulumi-voice-platform",
): Promise<Record<ResourceKind, string>> {
  const key = `${projectDir}\0${from}`;
  let texts = cache.get(key);
  if (texts === undefined) {
    texts = captureProviders(projectDir, from);
    texts.catch(() => cache.delete(key));
    cache.set(key, texts);
  }
  return texts;
}

export async function serializedProvider(kind: ResourceKind, projectDir: string): Promise<string> {
  return (await serializedProviders(projectDir))[kind];
}

async function captureProviders(
  projectDir: string,
  from: string,
): Promise<Record<ResourceKind, string>> {
  const { stdout } = await run(process.execPath, ["-e", captureScript(from)], {
    cwd: projectDir,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`serializing the providers in ${projectDir} failed: ${error.stderr ?? error}`);
  });
  const captured = JSON.parse(stdout) as Record<string, unknown>;
  const texts = {} as Record<ResourceKind, string>;
  for (const kind of resourceKinds) {
    const text = captured[resourceType(kind)];
    if (typeof text !== "string" || text === "") {
      throw new Error(`the program registered no ${resourceType(kind)} with a __provider text`);
    }
    texts[kind] = text;
  }
  return texts;
}
