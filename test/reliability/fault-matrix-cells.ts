/**
 * Runs every cell of the fault matrix (fault-matrix.ts) against the emulator through a front end
 * over the resource handlers: the dynamic runtime's handlers in process (fault-matrix.test.ts) or
 * the provider plugin's process over gRPC (test/plugin/fault-matrix.test.ts). Each cell checks
 * the outcome, how often the request was sent, what the platform holds afterwards (never a
 * duplicate), where the created object is recorded, and what the error says.
 */
import { join } from "node:path";
import type { Inputs } from "../../provider/core/resource-descriptor";
import {
  ApiConnectionError,
  ApiError,
  ApiResponseError,
  ApiStatusError,
  ApiTimeoutError,
} from "../../provider/platform/errors";
import { IncompleteCreateError } from "../../provider/core/errors";
import { configureAgainst } from "../provider/emulator-harness";
import { resetProcessState } from "../../provider/settings/process-state";
import * as runtime from "../../provider/runtime";
import { pathMatches } from "../../provider/emulator/path-pattern";
import {
  startEmulator,
  type AnswerShape,
  type OrganizationState,
  type RunningEmulator,
} from "../../provider/emulator";
import { carrierInputs, voiceInputs, webhookInputs } from "../support/builders";
import { createFixtureProject, removeFixtureProject } from "../support/packed-package";
import {
  ProviderCallError,
  ResourceInitError,
  startProviderProcess,
  type ProviderProcess,
} from "../support/provider-process";
import {
  coveringCells,
  faultKeys,
  faults,
  matrix,
  names,
  operationKeys,
  operations,
  type Cell,
  type FaultKey,
  type OperationKey,
} from "./fault-matrix";

let emulator: RunningEmulator;

/** The emulator the front ends' settings point at, for a test outside `describeFaultMatrix`. */
export function useEmulator(running: RunningEmulator): void {
  emulator = running;
}

export type Kind = "Voice" | "SipCarrier" | "CampaignWebhook";

/** A front end over the resource handlers: how the cells reach them. */
export interface FrontEnd {
  /** The handlers run in this process, so their errors keep their classes. */
  readonly inProcess: boolean;
  configure(settings: Readonly<Record<string, string>>): Promise<void>;
  check(kind: Kind, news: Inputs): Promise<{ inputs: Inputs; failures: unknown[] }>;
  create(kind: Kind, news: Inputs): Promise<{ id: string; outs: Inputs }>;
  update(kind: Kind, id: string, olds: Inputs, news: Inputs): Promise<{ outs: Inputs }>;
  close(): Promise<void>;
}

function platformSettings(settings: Readonly<Record<string, string>>): Record<string, string> {
  return {
    apiKey: emulator.apiKey,
    baseUrl: emulator.baseUrl,
    campaignsBaseUrl: emulator.campaignsBaseUrl,
    ...settings,
  };
}

/** The dynamic runtime's handlers, called in this process as the stubs call them. */
export function inProcess(): FrontEnd {
  return {
    inProcess: true,
    async configure(settings) {
      configureAgainst(emulator, settings);
    },
    check: (kind, news) => runtime[kind].check({}, { ...news }),
    create: async (kind, news) => {
      const { id, outs } = await runtime[kind].create(news);
      return { id, outs: { ...outs } as Inputs };
    },
    update: async (kind, id, olds, news) => ({
      outs: { ...(await runtime[kind].update(id, { ...olds }, news)).outs } as Inputs,
    }),
    close: async () => undefined,
  };
}

/**
 * The plugin process as the engine drives it: one process per provider configuration, as the
 * engine starts one per provider (a cell's settings are another provider's inputs).
 */
export function pluginProcess(): FrontEnd {
  let project: Promise<string> | undefined;
  const processes = new Map<string, Promise<ProviderProcess>>();
  let current: Promise<ProviderProcess> | undefined;
  const urn = (kind: Kind) => `urn:pulumi:matrix::matrix::voiceplatform:index:${kind}::cell`;
  return {
    inProcess: false,
    async configure(settings) {
      const args = platformSettings(settings);
      const key = JSON.stringify(args);
      if (!processes.has(key)) {
        project ??= createFixtureProject({ name: "fault-matrix-plugin" });
        const started = project.then(async (dir) => {
          const plugin = await startProviderProcess(
            dir,
            {},
            {
              executable: join(dir, "node_modules", ".bin", "pulumi-resource-voiceplatform"),
            },
          );
          await plugin.configureProvider(args);
          return plugin;
        });
        processes.set(key, started);
      }
      current = processes.get(key);
    },
    check: async (kind, news) => (await current!).check(urn(kind), {}, news),
    create: async (kind, news) => {
      const { id, properties } = await (await current!).create(urn(kind), news);
      return { id, outs: properties };
    },
    update: async (kind, id, olds, news) => ({
      outs: (await (await current!).update(id, urn(kind), olds, news)).properties,
    }),
    async close() {
      await Promise.all([...processes.values()].map(async (p) => (await p).close()));
      if (project !== undefined) await removeFixtureProject(await project);
    },
  };
}

/** What a cell's error says, whichever front end it came through. */
function errorFacts(error: unknown): { message: string; id?: unknown; properties?: unknown } {
  if (error instanceof ResourceInitError)
    return { message: error.details, id: error.id, properties: error.properties };
  if (error instanceof ProviderCallError) return { message: error.details };
  if (error instanceof IncompleteCreateError)
    return { message: error.message, id: error.id, properties: error.properties };
  return { message: (error as Error).message, id: (error as { id?: unknown }).id };
}

async function organization(): Promise<OrganizationState> {
  const state = await emulator.state();
  return state.organizations.org_emulator!;
}

function count(state: OrganizationState, kind: "voices" | "carriers" | "subscriptions"): number {
  return kind === "subscriptions"
    ? Object.values(state.subscriptions).flat().length
    : state[kind].length;
}

export async function checked(frontEnd: FrontEnd, kind: Kind, news: object) {
  const { inputs, failures } = await frontEnd.check(kind, { ...news } as Inputs);
  expect(failures).toEqual([]);
  return inputs;
}

interface Prepared {
  run(): Promise<{ id: string; outs: object }>;
  /** The id the platform gave an object made while preparing (the voice an update changes). */
  existingId?: string;
}

/** How each operation is set up and called; `run` is what the fault hits. */
const drivers: Record<OperationKey, (frontEnd: FrontEnd) => Promise<Prepared>> = {
  async clone(frontEnd) {
    const inputs = await checked(frontEnd, "Voice", voiceInputs({ name: names.voice }));
    return { run: () => frontEnd.create("Voice", inputs) };
  },
  async cloneFollowUp(frontEnd) {
    const inputs = await checked(
      frontEnd,
      "Voice",
      voiceInputs({ name: names.voice, isMultilingual: true }),
    );
    return { run: () => frontEnd.create("Voice", inputs) };
  },
  async update(frontEnd) {
    const inputs = await checked(frontEnd, "Voice", voiceInputs({ name: names.voice }));
    const { id, outs } = await frontEnd.create("Voice", inputs);
    const news = await checked(frontEnd, "Voice", { ...inputs, name: "Renamed matrix voice" });
    return {
      existingId: id,
      run: async () => ({ id, outs: (await frontEnd.update("Voice", id, outs, news)).outs }),
    };
  },
  async carrier(frontEnd) {
    const inputs = await checked(frontEnd, "SipCarrier", carrierInputs({ name: names.carrier }));
    return { run: () => frontEnd.create("SipCarrier", inputs) };
  },
  async subscribe(frontEnd) {
    const inputs = await checked(
      frontEnd,
      "CampaignWebhook",
      webhookInputs({ campaignId: names.campaignId }),
    );
    return { run: () => frontEnd.create("CampaignWebhook", inputs) };
  },
};

interface Observed {
  result?: { id: string; outs: object };
  error?: unknown;
  attempts: number;
  state: OrganizationState;
  existingId?: string;
}

async function runCell(frontEnd: FrontEnd, op: OperationKey, fault: FaultKey): Promise<Observed> {
  const spec = operations[op];
  const faultSpec = faults[fault];
  await emulator.reset();
  await frontEnd.configure(faultSpec.settings ?? {});
  const prepared = await drivers[op](frontEnd);
  const before = (await emulator.requests()).length;
  await emulator.addFault({
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
  await emulator.clearFaults();
  const attempts = (await emulator.requests())
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
  const facts = errorFacts(error);
  switch (cell.recorded) {
    case "error-id":
      expect(facts.id).toBe(platformIds(op, observed.state)[0]);
      expect(facts.properties).toMatchObject({ name: names.voice });
      break;
    case "may-exist":
    case "none":
      // No id to record: the provider cannot know one, and must not invent one.
      expect(error).not.toBeInstanceOf(IncompleteCreateError);
      expect(error).not.toBeInstanceOf(ResourceInitError);
      expect(facts.id).toBeUndefined();
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
  const message = observed.error === undefined ? "" : errorFacts(observed.error).message;
  for (const pattern of cell.says) expect(message).toMatch(pattern);
}

/**
 * The class each fault ends in: `instanceof ApiError` catches all of them, or their `cause` when
 * the object was created and a later call failed.
 */
function assertErrorKind(fault: FaultKey, observed: Observed): void {
  const error = observed.error;
  if (error instanceof IncompleteCreateError) {
    expect(error.cause).toBeInstanceOf(ApiStatusError);
    return;
  }
  expect(error).toBeInstanceOf(ApiError);
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

/**
 * The matrix through one front end, against an emulator of its own answering as the spec shows,
 * or richer (`answers`): every cell, or the covering set (fault-matrix.ts, `coveringCells`).
 */
export function describeFaultMatrix(
  makeFrontEnd: () => FrontEnd,
  answers: AnswerShape = "spec",
  cells: "every cell" | "covering set" = "every cell",
): void {
  const covering = coveringCells();
  const runs = (op: OperationKey, fault: FaultKey) =>
    matrix[op][fault] !== undefined &&
    (cells === "every cell" || covering.some(([o, f]) => o === op && f === fault));
  const frontEnd = makeFrontEnd();

  beforeAll(async () => {
    emulator = await startEmulator({ seed: 1, answers });
  });

  afterAll(async () => {
    await frontEnd.close();
    await resetProcessState();
    await emulator.stop();
  }, 30_000);

  describe.each(operationKeys)("%s", (op) => {
    describe.each(faultKeys.filter((fault) => runs(op, fault)))("under %s", (fault) => {
      const cell = matrix[op][fault]!;
      let observed: Observed;

      beforeAll(async () => {
        observed = await runCell(frontEnd, op, fault);
      }, 180_000);

      it(`${cell.outcome === "ok" ? "is retried to success" : "fails"}: ${cell.attempts} attempt(s), ${cell.objects} object(s), recorded as ${cell.recorded}`, () => {
        assertOutcome(op, cell, observed);
      });

      if (cell.outcome === "error") {
        it("says what happened and what to do", () => assertMessage(cell, observed));
        // Error classes live in a process: over gRPC only the message and the details travel.
        if (frontEnd.inProcess)
          it("is an ApiError of the fault's kind", () => assertErrorKind(fault, observed));
      }
    });
  });
}
