/**
 * The emulator's named fault profiles show what docs/testing-your-stacks.md says they show, with
 * the provider's handlers against them: the profile's rules act (the request log names them), and
 * the provider does what the profile is there to show (waits and retries, or refuses to create
 * twice and says so, or redacts what the platform quotes back).
 */
import { setTimeout as delay } from "node:timers/promises";
import { faultProfiles, type RequestLogEntry } from "../../provider/emulator";
import * as runtime from "../../provider/runtime";
import { advancedWebhook, carrierInputs, voiceInputs, webhookInputs } from "../support/builders";
import { useEmulator } from "./emulator-harness";

const API_KEY = "profiles-key-7Hq2";
const context = useEmulator({ apiKey: API_KEY, subOrganizationIds: ["sub-profiles"] });
const emulator = () => context.emulator;
const line = (entry: RequestLogEntry) =>
  `${entry.method} ${entry.path} ${entry.status ?? "no answer"}${entry.fault ? ` (${entry.fault.kind})` : ""}`;
const organization = async () => (await emulator().state()).organizations.org_emulator!;

async function checked(kind: "Voice" | "SipCarrier" | "CampaignWebhook", news: object) {
  const { inputs, failures } = await runtime[kind].check({}, news as Record<string, unknown>);
  expect(failures).toEqual([]);
  return inputs;
}

async function failureOf(work: Promise<unknown>): Promise<Error> {
  return work.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error as Error,
  );
}

test("every profile says what it does and what it shows, and has rules the emulator takes", async () => {
  for (const [name, profile] of Object.entries(faultProfiles)) {
    expect({ name, does: profile.does.length > 20, shows: profile.shows.length > 20 }).toEqual({
      name,
      does: true,
      shows: true,
    });
    const active = await emulator().setFaults(name as keyof typeof faultProfiles);
    expect(active.map(({ method, path, action }) => ({ method, path, action }))).toEqual(
      profile.rules.map(({ method, path, action }) => ({ method, path, action })),
    );
  }
});

test("latency: each request is held by the profile, then processed; one object", async () => {
  await emulator().setFaults("latency");
  const inputs = await checked("SipCarrier", carrierInputs());
  const created = runtime.SipCarrier.create(inputs);
  // Held: the log shows the request without an answer while the latency runs.
  let held: RequestLogEntry[] = [];
  while (held.length === 0) {
    await delay(20);
    held = await emulator().requests({ status: null, faulted: true });
  }
  expect(held.map(line)).toEqual(["POST /organization/sip no answer (latency)"]);
  const { id } = await created;
  expect((await emulator().requests()).map(line)).toEqual(["POST /organization/sip 201 (latency)"]);
  expect((await organization()).carriers.map((carrier) => carrier.id)).toEqual([id]);
});

test("rate-limited: the provider waits Retry-After and sends again; one object per create", async () => {
  await emulator().setFaults("rate-limited");
  const carrier = await runtime.SipCarrier.create(await checked("SipCarrier", carrierInputs()));
  const webhook = await runtime.CampaignWebhook.create(
    await checked("CampaignWebhook", webhookInputs()),
  );
  expect((await emulator().requests()).map(line)).toEqual([
    "POST /organization/sip 429 (status)",
    "POST /organization/sip 201",
    "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 429 (status)",
    "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 200",
  ]);
  const [refused, accepted] = await emulator().requests({ path: "/organization/sip" });
  // The provider waited at least the Retry-After the 429 asked for.
  expect(Date.parse(accepted!.receivedAt) - Date.parse(refused!.receivedAt)).toBeGreaterThanOrEqual(
    1000,
  );
  const held = await organization();
  expect(held.carriers.map((c) => c.id)).toEqual([carrier.id]);
  expect(Object.values(held.subscriptions).flat()).toHaveLength(1);
  expect(webhook.outs).toMatchObject({ status: "success", data: true });
});

test("server-errors: an update is sent again; a create is not, says the object may exist, and the next create makes one", async () => {
  const voice = await runtime.Voice.create(await checked("Voice", voiceInputs()));
  await emulator().setFaults("server-errors");
  await emulator().newRequests();

  const renamed = await checked("Voice", voiceInputs({ name: "Renamed agent" }));
  await runtime.Voice.update(voice.id, voice.outs, renamed);
  expect((await emulator().newRequests()).map(line)).toEqual([
    `PUT /voices/${voice.id} 500 (status)`,
    `PUT /voices/${voice.id} 200`,
  ]);

  const inputs = await checked("SipCarrier", carrierInputs());
  const error = await failureOf(runtime.SipCarrier.create(inputs));
  expect(error.message).toMatch(/500 .*may have .*existingCarrierId/s);
  expect((await emulator().newRequests()).map(line)).toEqual([
    "POST /organization/sip 500 (status)",
  ]);
  expect((await organization()).carriers).toEqual([]);

  const { id } = await runtime.SipCarrier.create(inputs);
  expect((await emulator().newRequests()).map(line)).toEqual(["POST /organization/sip 201"]);
  expect((await organization()).carriers.map((carrier) => carrier.id)).toEqual([id]);
});

test("lost-answer: the platform holds the object, the provider never sends the create again and says how to adopt it", async () => {
  await emulator().setFaults("lost-answer");
  const error = await failureOf(
    runtime.SipCarrier.create(await checked("SipCarrier", carrierInputs())),
  );
  expect(error.message).toMatch(/may have .*existingCarrierId/s);
  expect((await emulator().requests()).map(line)).toEqual([
    "POST /organization/sip no answer (reset-after)",
  ]);
  const carriers = (await organization()).carriers;
  expect(carriers).toHaveLength(1);
  expect(carriers[0]).toMatchObject({ name: "main-trunk", register_password: "[redacted]" });
});

test("echo: the platform quotes every secret back; the provider's error shows none of them", async () => {
  await emulator().setFaults("echo");
  const password = "Echo-Sip-Password-42";
  const token = "Echo-Webhook-Token-42";
  const carrierError = await failureOf(
    runtime.SipCarrier.create(
      await checked("SipCarrier", carrierInputs({ registerPassword: password })),
    ),
  );
  const webhookError = await failureOf(
    runtime.CampaignWebhook.create(
      await checked(
        "CampaignWebhook",
        webhookInputs({
          isAdvanced: true,
          advancedWebhook: advancedWebhook({ headers: [{ name: "X-Token", value: token }] }),
        }),
      ),
    ),
  );
  for (const error of [carrierError, webhookError]) {
    // Not vacuous: the platform's quoting answer is shown, redacted.
    expect(error.message).toContain("[redacted]");
    for (const secret of [API_KEY, password, token]) {
      for (const form of [secret, secret.toLowerCase(), secret.toUpperCase()]) {
        expect(error.message).not.toContain(form);
      }
    }
  }
  expect((await emulator().requests()).map(line)).toEqual([
    "POST /organization/sip 400 (echo)",
    "POST /campaigns/65a1f0c2e4b0a1b2c3d4e5f6/webhook/subscribe 400 (echo)",
  ]);
  expect(Object.values((await organization()).subscriptions).flat()).toEqual([]);
});
