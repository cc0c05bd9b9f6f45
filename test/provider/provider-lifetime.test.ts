/**
 * A provider's lifetime against the emulator, in process: the engine's Cancel stops a provider
 * starting calls (a call waiting for its turn, for the pacing or for a retry included) while the
 * calls in flight finish and keep their ids; a provider the engine has ended (the shared server,
 * when its launcher is gone) has its calls in flight cut at once, uploads included, and sends
 * nothing more. Each provider is given states of its own, as the shared server gives them.
 */
import * as runtime from "../../provider/runtime";
import { dynamicHandlers } from "../../provider/dynamic/dynamic-adapter";
import { sipCarrier } from "../../provider/resources/sip-carrier";
import { voice } from "../../provider/resources/voice";
import { ApiError, RequestNotSentError } from "../../provider/platform/errors";
import {
  cancelProviderCalls,
  endProvider,
  providerSettings,
  withProviderStates,
  type ProviderStates,
} from "../../provider/settings/process-state";
import { carrierInputs, voiceInputs, writeSample } from "../support/builders";
import { useEmulator } from "./emulator-harness";

const context = useEmulator();
const emulator = () => context.emulator;

const providers: ProviderStates[] = [];
afterEach(async () => {
  // Their connections closed, as the shared server's are when a provider ends.
  await Promise.all(providers.splice(0).map(endProvider));
});

/**
 * A provider of its own, configured against the emulator, and its dynamic handlers; `run` runs
 * work as one of its calls, as the shared server does.
 */
function provider(settings: Record<string, string> = {}) {
  const states: ProviderStates = new Map();
  providers.push(states);
  const handlers = {
    states,
    SipCarrier: dynamicHandlers(sipCarrier, states),
    Voice: dynamicHandlers(voice, states),
  };
  const run = <R>(work: (provider: typeof handlers) => R): R =>
    withProviderStates(states, () => work(handlers));
  context.configure({ timeoutSeconds: "120", ...settings }, providerSettings(states));
  return { states, run };
}

async function checkedCarrier(name: string) {
  const { inputs, failures } = await runtime.SipCarrier.check({}, carrierInputs({ name }));
  expect(failures).toEqual([]);
  return inputs;
}

/** Resolves once `count` requests to `path` have reached the emulator and wait for an answer. */
async function heldAtEmulator(path: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const held = (await emulator().requests()).filter((r) => r.path === path && r.status === null);
    if (held.length >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} requests to ${path} never arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function holdCreates(path: string, ms = 60_000, times?: number) {
  return emulator().addFault({
    method: "POST",
    path,
    ...(times === undefined ? {} : { times }),
    action: { kind: "latency", ms },
  });
}

async function stored() {
  const organization = (await emulator().state()).organizations.org_emulator;
  return { carriers: organization?.carriers ?? [], voices: organization?.voices ?? [] };
}

/** The error `work` fails with. */
async function failureOf(work: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await work.then(
    () => new Error("the call succeeded"),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the engine's Cancel", () => {
  test("a call started after it is refused, saying nothing was sent", async () => {
    const { run } = provider();
    const inputs = await run(() => checkedCarrier("after-cancel"));
    run((p) => cancelProviderCalls(p.states));
    const error = await failureOf(run((p) => p.SipCarrier.create(inputs)));
    expect(error).toBeInstanceOf(RequestNotSentError);
    expect(error.message).toMatch(
      /^create SIP carrier "after-cancel" failed: not sent: the engine cancelled the deployment \(Ctrl-C, or the engine closing this provider\) \(POST http:\/\/127\.0\.0\.1:\d+\/organization\/sip\)\. Nothing was sent for it, so nothing was created or changed on the platform: run `pulumi up` again to carry on$/,
    );
    expect(await emulator().requests()).toEqual([]);
  });

  test("calls in flight finish and return the platform's ids, an upload included", async () => {
    const { run } = provider();
    const carrier = await run(() => checkedCarrier("in-flight"));
    await holdCreates("/organization/sip", 1_500);
    await holdCreates("/voices/voice-clone", 1_500);
    const creating = run((p) => p.SipCarrier.create(carrier));
    const cloning = run((p) =>
      p.Voice.create(
        voiceInputs({ files: [writeSample("long.wav", Buffer.alloc(2 * 1024 * 1024, 7))] }),
      ),
    );
    await heldAtEmulator("/organization/sip", 1);
    await heldAtEmulator("/voices/voice-clone", 1);
    run((p) => cancelProviderCalls(p.states));
    const [created, cloned] = await Promise.all([creating, cloning]);
    const { carriers, voices } = await stored();
    expect(carriers.map((c) => c.id)).toEqual([created.id]);
    expect(voices.map((v) => v.id)).toEqual([cloned.id]);
  });

  test("ends the waits of calls not started (its turn, the pacing, a retry) and sends nothing more", async () => {
    const { run } = provider({ maxConcurrency: "1" });
    const first = await run(() => checkedCarrier("holds-the-slot"));
    const second = await run(() => checkedCarrier("waits-for-the-slot"));
    await holdCreates("/organization/sip", 1_500, 1);
    const holding = run((p) => p.SipCarrier.create(first));
    await heldAtEmulator("/organization/sip", 1);
    const waiting = run((p) => p.SipCarrier.create(second));
    run((p) => cancelProviderCalls(p.states));
    const refused = await failureOf(waiting);
    expect(refused).toBeInstanceOf(RequestNotSentError);
    expect(refused.message).toMatch(/^create SIP carrier "waits-for-the-slot" failed: not sent:/);
    const { id } = await holding;
    expect((await stored()).carriers.map((c) => c.id)).toEqual([id]);

    // A retry waiting out a Retry-After, and a call held by that same wait.
    const { run: runOther } = provider();
    await emulator().reset();
    await emulator().addFault({
      method: "PUT",
      path: "/voices/*",
      times: 1,
      action: { kind: "status", status: 429, retryAfterSeconds: 30 },
    });
    const started = Date.now();
    const update = (id: string) =>
      runOther((p) => p.Voice.update(id, { name: "Support agent" }, { name: `Renamed ${id}` }));
    const retrying = update("voice-1");
    const deadline = Date.now() + 30_000;
    while ((await emulator().requests()).every((r) => r.status !== 429)) {
      if (Date.now() > deadline) throw new Error("the PUT never reached the emulator");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const heldByTheWait = update("voice-2");
    runOther((p) => cancelProviderCalls(p.states));
    const [notRetried, notStarted] = await Promise.all([
      failureOf(retrying),
      failureOf(heldByTheWait),
    ]);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(notRetried.message).toMatch(
      /^update voice "Renamed voice-1" \(voice-1\) failed: 429 Too Many Requests: .*not tried again: the engine cancelled the deployment/,
    );
    expect(notStarted).toBeInstanceOf(RequestNotSentError);
    expect((await emulator().requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "PUT 429",
    ]);
  });

  test("is one provider's: another provider of the same process carries on", async () => {
    const cancelled = provider();
    const other = provider();
    cancelled.run((p) => cancelProviderCalls(p.states));
    const { id } = await other.run(async (p) => p.SipCarrier.create(await checkedCarrier("other")));
    expect((await stored()).carriers.map((c) => c.id)).toEqual([id]);
  });
});

describe("a provider the engine has ended", () => {
  test("has its calls in flight cut at once, an upload included, and creates nothing", async () => {
    const { states, run } = provider();
    const carrier = await run(() => checkedCarrier("cut"));
    await holdCreates("/organization/sip");
    await holdCreates("/voices/voice-clone");
    const creating = run((p) => p.SipCarrier.create(carrier));
    const cloning = run((p) =>
      p.Voice.create(
        voiceInputs({ files: [writeSample("long.wav", Buffer.alloc(8 * 1024 * 1024, 7))] }),
      ),
    );
    await heldAtEmulator("/organization/sip", 1);
    await heldAtEmulator("/voices/voice-clone", 1);
    const endedAt = Date.now();
    const cutting = Promise.all([failureOf(creating), failureOf(cloning)]);
    await endProvider(states);
    const [cut, cutUpload] = await cutting;
    // Cut, not answered: the emulator holds each request for 60 s.
    expect(Date.now() - endedAt).toBeLessThan(30_000);
    expect(cut.message).toMatch(/not tried again: the engine ended this provider/);
    expect(cutUpload.message).toMatch(/not tried again: the engine ended this provider/);

    // Requests still connected would be processed now; the cut ones are gone.
    await emulator().clearFaults();
    const other = provider();
    await other.run(async (p) => p.SipCarrier.create(await checkedCarrier("probe")));
    const { carriers, voices } = await stored();
    expect(carriers.map((c) => c.name)).toEqual(["probe"]);
    expect(voices).toEqual([]);
  });

  test("starts nothing again, even for a call that was under way before it ended", async () => {
    const { states, run } = provider();
    const inputs = await run(() => checkedCarrier("late"));
    await endProvider(states);
    const error = await failureOf(run((p) => p.SipCarrier.create(inputs)));
    expect(error).toBeInstanceOf(RequestNotSentError);
    expect(error.message).toMatch(/not sent: the engine ended this provider/);
    expect(await emulator().requests()).toEqual([]);
  });
});
