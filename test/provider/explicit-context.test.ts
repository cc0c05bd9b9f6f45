/**
 * A call's context travels by name (docs/architecture.md, "How a call's context travels"): two
 * providers of one process, each configured as the plugin's Configure configures it with its own
 * API key and base URL, make calls at the same time, and each request reaches its own provider's
 * platform with its own provider's key. Nothing runs inside `withProviderStates` and the process's
 * own provider is never configured: the key reaches the request only through the context each
 * call is given.
 */
import { startEmulator, type RunningEmulator } from "../../provider/emulator";
import { providerContext } from "../../provider/core/provider-context";
import { servedResource } from "../../provider/core/served-resource";
import { configureProvider } from "../../provider/plugin/provider-config";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import {
  endProvider,
  processProviderStates,
  providerSettings,
  resetProcessState,
  type ProviderStates,
} from "../../provider/settings/process-state";
import { AuthenticationError } from "../../provider/platform/errors";
import { carrierInputs } from "../support/builders";

const KEY_A = "key-of-provider-a-0123456789";
const KEY_B = "key-of-provider-b-9876543210";

let platformA: RunningEmulator;
let platformB: RunningEmulator;
const providers: ProviderStates[] = [];
const savedKey = process.env.VOICEPLATFORM_API_KEY;

beforeAll(async () => {
  // No key in the environment: a request can only carry the one its provider was configured with.
  delete process.env.VOICEPLATFORM_API_KEY;
  platformA = await startEmulator({ organizations: [{ id: "org_a", apiKey: KEY_A }] });
  platformB = await startEmulator({ organizations: [{ id: "org_b", apiKey: KEY_B }] });
});

afterAll(async () => {
  if (savedKey !== undefined) process.env.VOICEPLATFORM_API_KEY = savedKey;
  await Promise.all(providers.map(endProvider));
  await resetProcessState();
  await Promise.all([platformA.stop(), platformB.stop()]);
});

/** An explicit provider named `name`, configured as the plugin's Configure does it. */
function explicitProvider(name: string, apiKey: string, platform: RunningEmulator) {
  const states: ProviderStates = new Map();
  providers.push(states);
  const urn = `urn:pulumi:dev::voice::pulumi:providers:voiceplatform::${name}`;
  configureProvider(providerSettings(states), { apiKey, baseUrl: platform.baseUrl }, urn);
  const served = servedResource(sipCarrier);
  return {
    /** A SIP carrier created as the plugin's Check then Create would, each with its context. */
    async createCarrier(carrier: string) {
      const resource = `urn:pulumi:dev::voice::voiceplatform:index:SipCarrier::${carrier}`;
      const context = () => providerContext({ states, resource });
      const checked = await served.check(context(), {}, carrierInputs({ name: carrier }));
      expect(checked.failures).toEqual([]);
      return served.create(context(), checked.inputs);
    },
  };
}

async function carriersOf(platform: RunningEmulator, organization: string): Promise<string[]> {
  const carriers = (await platform.state()).organizations[organization]?.carriers ?? [];
  return carriers.map((carrier) => String(carrier.name)).sort();
}

test("two providers calling at once: each request carries its own provider's key to its own platform", async () => {
  const a = explicitProvider("a", KEY_A, platformA);
  const b = explicitProvider("b", KEY_B, platformB);
  // B's key sent to A's platform: refused there, and the message names where that key was set.
  const crossed = explicitProvider("crossed", KEY_B, platformA);
  const names = [0, 1, 2, 3];
  const [createdA, createdB, refused] = await Promise.all([
    Promise.all(names.map((n) => a.createCarrier(`a-${n}`))),
    Promise.all(names.map((n) => b.createCarrier(`b-${n}`))),
    crossed.createCarrier("crossed-0").catch((error: unknown) => error),
  ]);

  expect(createdA.map((created) => created.id)).toEqual(names.map(() => expect.any(String)));
  expect(createdB.map((created) => created.id)).toEqual(names.map(() => expect.any(String)));
  expect(await carriersOf(platformA, "org_a")).toEqual(["a-0", "a-1", "a-2", "a-3"]);
  expect(await carriersOf(platformB, "org_b")).toEqual(["b-0", "b-1", "b-2", "b-3"]);
  // The organization each request's key belongs to, as each platform saw it.
  const seenA = (await platformA.requests()).map((r) => `${r.organizationId} ${r.status}`);
  const seenB = (await platformB.requests()).map((r) => `${r.organizationId} ${r.status}`);
  expect(seenA.sort()).toEqual(["null 401", ...names.map(() => "org_a 201")]);
  expect(seenB).toEqual(names.map(() => "org_b 201"));

  expect(refused).toBeInstanceOf(AuthenticationError);
  expect((refused as Error).message).toContain(
    'the `apiKey` input of the explicit provider "crossed"',
  );
  expect((refused as Error).message).not.toContain(KEY_B);
  // The process's own provider was never configured: no module-level settings served these calls.
  expect(providerSettings(processProviderStates()).givenSettings).toEqual({});
  expect(providerSettings(processProviderStates()).engineConfig).toEqual({});
});
