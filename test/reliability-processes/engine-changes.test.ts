/**
 * What newer Pulumi engines (CLI 3.274.1) do to a provider process, through both front ends (the
 * plugin's process and the real dynamic-provider process), each over gRPC as the engine drives
 * them:
 * - the engine passes `PULUMI_ACCESS_TOKEN` and `PULUMI_API` to every provider (3.247): a platform
 *   answer that quotes them reaches the user with both blanked, in every form redaction knows;
 * - a retry after a partial create calls Update with the recorded id and state (pulumi#24684): an
 *   Update of that state that fails again answers with the id and the state
 *   (ErrorResourceInitFailed), or the engine would drop the object from the stack.
 * test/e2e/engine-changes.test.ts runs both under the real CLI.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { carrierInputs, voiceInputs, writeSample } from "../support/builders";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import {
  ProviderCallError,
  ResourceInitError,
  startProviderProcess,
  type ProviderProcess,
} from "../support/provider-process";
import { oneLineProviderText, resourceUrn } from "../support/serialized-provider";

jest.setTimeout(300_000);

const ACCESS_TOKEN = "pul-4f9c2e7a1b0d83e6c5a4f19b2d7e0c3a8b6f5d1e";
const PULUMI_API = "https://pulumi-backend.example.net/api-7Hq2";
const API_KEY = "engine-changes-api-key-3Vb8";

/** Every form of the engine's credentials a leak could take: as is, in either case, encoded. */
function credentialLeaks(text: string): string[] {
  return [ACCESS_TOKEN, PULUMI_API].flatMap((secret) =>
    [secret, secret.toUpperCase(), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]
      .filter((form) => text.toLowerCase().includes(form.toLowerCase()))
      .map((form) => `${JSON.stringify(form)} in …${text.slice(0, 400)}…`),
  );
}

/**
 * A platform that refuses every request with 400 and quotes the engine's credentials back, as
 * a gateway echoing its environment might: the token as is and upper case, the address
 * percent-encoded and JSON-escaped.
 */
function startQuotingPlatform(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume().on("end", () => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: {
            message: `refused: token ${ACCESS_TOKEN} (${ACCESS_TOKEN.toUpperCase()}) from ${encodeURIComponent(PULUMI_API)}`,
            backend: PULUMI_API,
          },
        }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let project: string;
let quoting: Server;
let emulator: RunningEmulator;

beforeAll(async () => {
  [project, quoting, emulator] = await Promise.all([
    createFixtureProject({ name: "engine-changes" }),
    startQuotingPlatform(),
    startEmulator({ apiKey: API_KEY }),
  ]);
}, 600_000);

afterAll(async () => {
  await emulator?.stop();
  await new Promise((resolve) => quoting?.close(resolve));
  if (project !== undefined) await removeFixtureProject(project);
});

interface FrontEnd {
  start(settings: Record<string, string>, env: NodeJS.ProcessEnv): Promise<ProviderProcess>;
  urn(kind: "Voice" | "SipCarrier"): string;
  /** The inputs as the engine sends them to this front end. */
  news(kind: "Voice" | "SipCarrier", inputs: Record<string, unknown>): Record<string, unknown>;
}

const frontEnds: Record<string, FrontEnd> = {
  "the provider plugin's process": {
    async start(settings, env) {
      const executable = `${project}/node_modules/.bin/pulumi-resource-voiceplatform`;
      const provider = await startProviderProcess(project, env, { executable });
      await provider.configureProvider(settings);
      return provider;
    },
    urn: (kind) => `urn:pulumi:dev::engine::voiceplatform:index:${kind}::it`,
    news: (_kind, inputs) => inputs,
  },
  "the dynamic-provider process": {
    async start(settings, env) {
      const provider = await startProviderProcess(project, env);
      await provider.configure(
        Object.fromEntries(Object.entries(settings).map(([k, v]) => [`voiceplatform:${k}`, v])),
      );
      return provider;
    },
    urn: (kind) => resourceUrn(kind, "it"),
    news: (kind, inputs) => ({ ...inputs, __provider: oneLineProviderText(kind) }),
  },
};

describe.each(Object.entries(frontEnds))("%s", (_name, frontEnd) => {
  it("blanks PULUMI_ACCESS_TOKEN and PULUMI_API, which the engine passes it, in a platform answer it quotes", async () => {
    const address = quoting.address() as AddressInfo;
    const provider = await frontEnd.start(
      { apiKey: API_KEY, baseUrl: `http://127.0.0.1:${address.port}`, maxRetries: "0" },
      { PULUMI_ACCESS_TOKEN: ACCESS_TOKEN, PULUMI_API },
    );
    let shown: string;
    try {
      const urn = frontEnd.urn("SipCarrier");
      const checked = await provider.check(urn, {}, frontEnd.news("SipCarrier", carrierInputs()));
      expect(checked.failures).toEqual([]);
      const error = await provider.create(urn, checked.inputs).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderCallError);
      shown = [(error as ProviderCallError).details, provider.stdout, provider.stderr].join("\n");
    } finally {
      await provider.close();
    }
    // Not vacuous: the platform's answer is quoted, with the credentials blanked.
    expect(shown).toMatch(/400/);
    expect(shown).toContain("refused: token [redacted]");
    expect(credentialLeaks(shown)).toEqual([]);
  });

  it("answers a failed update of a partly created voice with its id and state, which the engine keeps", async () => {
    const provider = await frontEnd.start(
      {
        apiKey: API_KEY,
        baseUrl: emulator.baseUrl,
        campaignsBaseUrl: emulator.campaignsBaseUrl,
        maxRetries: "0",
      },
      {},
    );
    try {
      await emulator.reset();
      await emulator.addFault({
        method: "PUT",
        path: "/voices/*",
        action: { kind: "status", status: 400 },
      });
      const urn = frontEnd.urn("Voice");
      const inputs = voiceInputs({ isMultilingual: true, files: [writeSample("partly.wav")] });
      const checked = await provider.check(urn, {}, frontEnd.news("Voice", inputs));
      const created = await provider.create(urn, checked.inputs).catch((e: unknown) => e);
      expect(created).toBeInstanceOf(ResourceInitError);
      const partial = created as ResourceInitError;

      // What CLI 3.274.1 sends when an onError hook retries: Update with the recorded state.
      const retried = await provider
        .update(partial.id, urn, partial.properties, checked.inputs, checked.inputs)
        .catch((e: unknown) => e);
      expect(retried).toBeInstanceOf(ResourceInitError);
      expect(retried).toMatchObject({ id: partial.id, properties: partial.properties });
      expect((retried as ResourceInitError).reasons[0]).toMatch(
        new RegExp(`^created ${partial.id} on the platform, then: update voice`),
      );

      await emulator.clearFaults();
      const finished = await provider.update(
        partial.id,
        urn,
        partial.properties,
        checked.inputs,
        checked.inputs,
      );
      expect(finished.properties).toMatchObject({ isMultilingual: true });
      expect(finished.properties).not.toHaveProperty("__incompleteCreate");
      const requests = (await emulator.requests()).map((r) => `${r.method} ${r.status}`);
      expect(requests).toEqual(["POST 200", "PUT 400", "PUT 400", "PUT 200"]);
    } finally {
      await provider.close();
    }
  });
});
