/**
 * The dynamic front end's answers where the dynamic protocol carries no detail: a diff leaves the
 * details to the engine ("unknown") only when the engine's own comparison of the stored and new
 * inputs shows exactly the changes the diff found, and honours the `ignoreChanges` and
 * `replaceOnChanges` the classes pass in `__resource`. No call is made: check and diff never send.
 */
import { writeFileSync } from "node:fs";
import { voice } from "../../provider/resources/voice";
import { dynamicHandlers } from "../../provider/dynamic/dynamic-adapter";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import { voiceInputs, writeSample } from "../support/builders";
import { processSettings } from "../support/call-context";

const handlers = dynamicHandlers(voice);
const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/voiceplatform:Voice::voice";
const PROVIDER = 'exports.handler = () => require("pulumi-voice-platform/dynamic/voice");\n';

beforeEach(() => rememberEngineConfig(processSettings(), { get: () => undefined }));
afterEach(resetProcessState);

/** What the engine stores after a create: the checked inputs, and the outputs. */
async function created(resource: object, inputs = voiceInputs()) {
  const news = { ...inputs, __provider: PROVIDER, __resource: resource };
  const checked = (await handlers.check({}, news)).inputs;
  const stored = { ...checked, __provider: PROVIDER };
  const state = await voice.stateAfterCreate("v1", checked);
  return { stored, outputs: { ...state, __provider: PROVIDER, __resource: resource } };
}

/** Check then diff, as the engine calls them for an update of `news`. */
async function diff(stored: object, outputs: object, news: object) {
  const checked = (await handlers.check(stored as never, news as never)).inputs;
  return handlers.diff("v1", outputs as never, { ...checked, __provider: PROVIDER });
}

test("a declared change leaves the details to the engine, which shows it: `changes` is unknown", async () => {
  const { stored, outputs } = await created({ urn });
  const news = { ...stored, name: "Renamed", __resource: { urn } };
  expect(await diff(stored, outputs, news)).toEqual({
    changes: undefined,
    replaces: [],
    deleteBeforeReplace: false,
  });
});

test("no change is no change", async () => {
  const { stored, outputs } = await created({ urn });
  expect((await diff(stored, outputs, { ...stored, __resource: { urn } })).changes).toBe(false);
});

test("new content under the same sample path, which the engine cannot see, is a change the provider states", async () => {
  const sample = writeSample("same-path.wav", "first take");
  const { stored, outputs } = await created({ urn }, voiceInputs({ files: [sample] }));
  writeFileSync(sample, "second take");
  await resetProcessState(); // the hash cache of this process
  rememberEngineConfig(processSettings(), { get: () => undefined });
  expect(await diff(stored, outputs, { ...stored, __resource: { urn } })).toEqual({
    changes: true,
    replaces: ["files"],
    deleteBeforeReplace: false,
  });
});

test("the first change after an upgrade (no __resource stored) is stated, not left to the engine, which would show the hidden input", async () => {
  const { stored, outputs } = await created({ urn });
  const { __resource: _inputs, ...olderInputs } = stored as Record<string, unknown>;
  const { __resource: _outputs, ...olderOutputs } = outputs;
  const news = { ...olderInputs, name: "Renamed", __resource: { urn } };
  expect((await diff(olderInputs, olderOutputs, news)).changes).toBe(true);
});

test("replaceOnChanges and ignoreChanges from __resource", async () => {
  const { stored, outputs } = await created({ urn, replaceOnChanges: ["name"] });
  const renamed = { ...stored, name: "Renamed", __resource: { urn, replaceOnChanges: ["name"] } };
  expect((await diff(stored, outputs, renamed)).replaces).toEqual(["name"]);
  // The engine resets an ignored input to the stored one before check; a difference that remains
  // between the outputs and the inputs is ignored too.
  const ignoring = { urn, ignoreChanges: ["stability"] };
  const setting = { ...stored, stability: 0.9, __resource: ignoring };
  const answer = await diff(
    { ...stored, __resource: ignoring },
    { ...outputs, __resource: ignoring },
    setting,
  );
  expect(answer.changes).toBe(false);
});
