/**
 * Runs every cell of the fault matrix (fault-matrix.ts) through the provider's handlers against
 * the emulator: the outcome, how often the request was sent, what the platform holds afterwards
 * (never a duplicate), where the created object is recorded, and what the error says.
 *
 * Set UPDATE_FAULT_MATRIX=1 to rewrite the table in fault-matrix.md from fault-matrix.ts.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ApiConnectionError,
  ApiError,
  ApiResponseError,
  ApiStatusError,
  ApiTimeoutError,
  IncompleteCreateError,
} from "../../provider/platform/errors";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import * as runtime from "../../provider/runtime";
import { pathMatches } from "../emulator/faults";
import { startEmulator, type OrganizationState, type RunningEmulator } from "../emulator";
import { carrierInputs, voiceInputs, webhookInputs, writeSample } from "../support/builders";
import {
  faultKeys,
  faults,
  MATRIX_BEGIN,
  MATRIX_END,
  matrix,
  names,
  operationKeys,
  operations,
  renderMatrix,
  type Cell,
  type FaultKey,
  type OperationKey,
} from "./fault-matrix";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 1 });
});

afterAll(async () => {
  await resetProcessState();
  await emulator.close();
});

function configure(settings: Readonly<Record<string, string>> = {}): void {
  const values: Record<string, string> = {
    apiKey: emulator.apiKey,
    baseUrl: emulator.baseUrl,
    campaignsBaseUrl: emulator.campaignsBaseUrl,
    ...settings,
  };
  rememberEngineConfig({ get: (key) => values[key.replace(/^voiceplatform:/, "")] });
}

async function organization(): Promise<OrganizationState> {
  const state = await emulator.client.state();
  return state.organizations.org_emulator!;
}

function count(state: OrganizationState, kind: "voices" | "carriers" | "subscriptions"): number {
  return kind === "subscriptions"
    ? Object.values(state.subscriptions).flat().length
    : state[kind].length;
}

async function checked(kind: "Voice" | "SipCarrier" | "CampaignWebhook", news: object) {
  const { inputs, failures } = await runtime[kind].check({}, { ...news });
  expect(failures).toEqual([]);
  return inputs;
}

interface Prepared {
  run(): Promise<{ id: string; outs: object }>;
  /** The id the platform gave an object made while preparing (the voice an update changes). */
  existingId?: string;
}

/** How each operation is set up and called; `run` is what the fault hits. */
const drivers: Record<OperationKey, () => Promise<Prepared>> = {
  async clone() {
    const inputs = await checked("Voice", voiceInputs({ name: names.voice }));
    return { run: () => runtime.Voice.create(inputs) };
  },
  async cloneFollowUp() {
    const inputs = await checked("Voice", voiceInputs({ name: names.voice, isMultilingual: true }));
    return { run: () => runtime.Voice.create(inputs) };
  },
  async update() {
    const inputs = await checked("Voice", voiceInputs({ name: names.voice }));
    const { id, outs } = await runtime.Voice.create(inputs);
    const news = await checked("Voice", { ...inputs, name: "Renamed matrix voice" });
    return {
      existingId: id,
      run: async () => ({ id, outs: (await runtime.Voice.update(id, { ...outs }, news)).outs }),
    };
  },
  async carrier() {
    const inputs = await checked("SipCarrier", carrierInputs({ name: names.carrier }));
    return { run: () => runtime.SipCarrier.create(inputs) };
  },
  async subscribe() {
    const inputs = await checked(
      "CampaignWebhook",
      webhookInputs({ campaignId: names.campaignId }),
    );
    return { run: () => runtime.CampaignWebhook.create(inputs) };
  },
};

interface Observed {
  result?: { id: string; outs: object };
  error?: unknown;
  attempts: number;
  state: OrganizationState;
  existingId?: string;
}

async function runCell(op: OperationKey, fault: FaultKey): Promise<Observed> {
  const spec = operations[op];
  const faultSpec = faults[fault];
  await emulator.client.reset();
  configure(faultSpec.settings);
  const prepared = await drivers[op]();
  const before = (await emulator.client.requests()).length;
  await emulator.client.addFault({
    method: spec.method,
    path: spec.path,
    ...(faultSpec.persistent ? {} : { times: 1 }),
    action: faultSpec.action,
  });
  const observed: Partial<Observed> = {};
  try {
    observed.result = await prepared.run();
  } catch (error) {
    observed.error = error;
  }
  await emulator.client.clearFaults();
  const attempts = (await emulator.client.requests())
    .slice(before)
    .filter((entry) => entry.method === spec.method && pathMatches(spec.path, entry.path)).length;
  return {
    ...observed,
    attempts,
    state: await organization(),
    ...(prepared.existingId === undefined ? {} : { existingId: prepared.existingId }),
  };
}

/** The id the platform gave the operation's object, to compare with what the provider recorded. */
function platformIds(op: OperationKey, state: OrganizationState): string[] {
  if (op === "carrier") return state.carriers.map((carrier) => carrier.id);
  if (op === "subscribe")
    return Object.values(state.subscriptions)
      .flat()
      .map((s) => s.id);
  return state.voices.map((voice) => voice.id);
}

function assertOutcome(op: OperationKey, cell: Cell, observed: Observed): void {
  const spec = operations[op];
  expect({ attempts: observed.attempts, objects: count(observed.state, spec.objects) }).toEqual({
    attempts: cell.attempts,
    objects: cell.objects,
  });
  if (cell.outcome === "ok") {
    expect(observed.error).toBeUndefined();
    const { id } = observed.result!;
    if (op === "subscribe") {
      // The API gives a subscription no id; the provider derives one from the campaign.
      const [subscription] = Object.values(observed.state.subscriptions).flat();
      expect(id.startsWith(`${subscription!.campaignId}/`)).toBe(true);
    } else {
      expect(platformIds(op, observed.state)).toEqual([id]);
    }
    if (op === "update") expect(observed.state.voices[0]!.name).toBe("Renamed matrix voice");
    if (op === "cloneFollowUp") expect(observed.state.voices[0]!.isMultilingual).toBe(true);
    return;
  }
  expect(observed.result).toBeUndefined();
  expect(observed.error).toBeInstanceOf(Error);
  const error = observed.error as Error;
  switch (cell.recorded) {
    case "error-id":
      expect(error).toBeInstanceOf(IncompleteCreateError);
      expect((error as IncompleteCreateError).id).toBe(platformIds(op, observed.state)[0]);
      expect((error as IncompleteCreateError).properties).toMatchObject({
        name: names.voice,
        stateVersion: 1,
      });
      break;
    case "may-exist":
    case "none":
      // No id to record: the provider cannot know one, and must not invent one.
      expect(error).not.toBeInstanceOf(IncompleteCreateError);
      expect((error as { id?: unknown }).id).toBeUndefined();
      break;
    case "result":
      throw new Error("an error cell cannot record its object in a result");
  }
  if (op === "update") {
    // A failed update leaves the voice as it was, under the same id.
    expect(platformIds(op, observed.state)).toEqual([observed.existingId]);
    expect(observed.state.voices[0]!.name).toBe(names.voice);
  }
  if (error instanceof ApiError) expect(error.operation).not.toBe("");
}

function assertMessage(cell: Cell, observed: Observed): void {
  const message = (observed.error as Error | undefined)?.message ?? "";
  for (const pattern of cell.says) expect(message).toMatch(pattern);
}

/** The class each fault ends in: `instanceof ApiError` catches all of them. */
function assertErrorKind(fault: FaultKey, observed: Observed): void {
  const error = observed.error;
  expect(error).toBeInstanceOf(ApiError);
  if (error instanceof IncompleteCreateError) {
    expect(error.cause).toBeInstanceOf(ApiStatusError);
    return;
  }
  const kind = faults[fault].action.kind;
  const expected =
    kind === "status"
      ? ApiStatusError
      : kind === "latency"
        ? ApiTimeoutError
        : kind === "reset-before" || kind === "reset-after"
          ? ApiConnectionError
          : ApiResponseError;
  expect(error).toBeInstanceOf(expected);
}

describe.each(operationKeys)("%s", (op) => {
  const cells = faultKeys.filter((fault) => matrix[op][fault] !== undefined);

  describe.each(cells)("under %s", (fault) => {
    const cell = matrix[op][fault]!;
    let observed: Observed;

    beforeAll(async () => {
      observed = await runCell(op, fault);
    }, 60_000);

    it(`${cell.outcome === "ok" ? "is retried to success" : "fails"}: ${cell.attempts} attempt(s), ${cell.objects} object(s), recorded as ${cell.recorded}`, () => {
      assertOutcome(op, cell, observed);
    });

    if (cell.outcome === "error") {
      it("says what happened and what to do", () => assertMessage(cell, observed));
      it("is an ApiError of the fault's kind", () => assertErrorKind(fault, observed));
    }
  });
});

test("a sample removed between check and create fails before anything is sent, saying so", async () => {
  await emulator.client.reset();
  configure();
  const file = writeSample("gone.wav");
  const inputs = await checked("Voice", voiceInputs({ name: names.voice, files: [file] }));
  rmSync(file);
  await expect(runtime.Voice.create(inputs)).rejects.toThrow(
    /^clone voice "Matrix voice": a sample cannot be read \(ENOENT: .*gone\.wav\), so nothing was sent\. Fix the file and run `pulumi up` again$/,
  );
  expect(await emulator.client.requests()).toEqual([]);
});

test("fault-matrix.md shows the matrix this suite runs", () => {
  const path = join(__dirname, "fault-matrix.md");
  const text = readFileSync(path, "utf8");
  const begin = text.indexOf(MATRIX_BEGIN);
  const end = text.indexOf(MATRIX_END);
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(begin);
  const rendered = `${MATRIX_BEGIN}\n\n${renderMatrix()}\n\n${MATRIX_END}`;
  // As the repository keeps it: formatted by prettier (run apart: it imports modules dynamically).
  const expected = execFileSync(
    process.execPath,
    [require.resolve("prettier/bin/prettier.cjs"), "--stdin-filepath", path],
    {
      input: text.slice(0, begin) + rendered + text.slice(end + MATRIX_END.length),
      encoding: "utf8",
    },
  );
  if (text !== expected && process.env.UPDATE_FAULT_MATRIX === "1") {
    writeFileSync(path, expected);
    return;
  }
  expect(text).toBe(expected);
});
