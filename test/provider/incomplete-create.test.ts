/**
 * The update that finishes a partly created resource (the state an IncompleteCreateError handed
 * the engine), as the engine sends it: on the next `pulumi up`, and on newer engines (CLI 3.274.1)
 * in the same run when an `onError` hook asks for a retry, where Update replaces the Create
 * (pulumi/pulumi#24684) with the recorded id, the recorded state as olds and the inputs as news.
 * Nothing is cloned again, nothing is lost: an update that fails there hands the id back again.
 * test/e2e/engine-changes.test.ts runs the same under the real CLI.
 */
import { IncompleteCreateError } from "../../provider/core/errors";
import { INCOMPLETE_CREATE } from "../../provider/core/hidden-properties";
import * as runtime from "../../provider/runtime";
import { voiceInputs, writeSample } from "../support/builders";
import { useEmulator } from "./emulator-harness";

const context = useEmulator({}, { maxRetries: "0" });
const requests = async () =>
  (await context.emulator.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
const voices = async () => (await context.emulator.state()).organizations.org_emulator!.voices;

async function checkedVoice(overrides: Record<string, unknown> = {}) {
  const { inputs, failures } = await runtime.Voice.check({}, voiceInputs(overrides));
  expect(failures).toEqual([]);
  return inputs;
}

/** A clone whose follow-up PUT (isMultilingual) fails: the error the engine records. */
async function partlyCreatedVoice(news: Record<string, unknown>): Promise<IncompleteCreateError> {
  await context.emulator.addFault({
    method: "PUT",
    path: "/voices/*",
    action: { kind: "status", status: 400 },
  });
  const error = await runtime.Voice.create(news).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(IncompleteCreateError);
  return error as IncompleteCreateError;
}

describe("the update that finishes a partly created voice", () => {
  it("hands the id and the recorded state back when it fails again, so the engine keeps the voice", async () => {
    const news = await checkedVoice({ isMultilingual: true });
    const created = await partlyCreatedVoice(news);
    expect(created.properties[INCOMPLETE_CREATE]).toBe(true);

    // The PUT still fails: the error carries the same id and state, still marked unfinished.
    const retried = await runtime.Voice.update(created.id, created.properties, news).catch(
      (e: unknown) => e,
    );
    expect(retried).toBeInstanceOf(IncompleteCreateError);
    expect(retried).toMatchObject({ id: created.id });
    expect((retried as IncompleteCreateError).properties).toEqual(created.properties);
    expect((retried as Error).message).toMatch(
      new RegExp(`^created ${created.id} on the platform, then: update voice "Support agent"`),
    );
    expect(await requests()).toEqual([
      "POST /voices/voice-clone 200",
      `PUT /voices/${created.id} 400`,
      `PUT /voices/${created.id} 400`,
    ]);
    expect(await voices()).toHaveLength(1);
  });

  it("finishes it with one PUT and no clone, and records a state the next diff finds unchanged", async () => {
    const news = await checkedVoice({ isMultilingual: true });
    const created = await partlyCreatedVoice(news);
    await context.emulator.clearFaults();

    const { outs } = await runtime.Voice.update(created.id, created.properties, news);
    expect(outs).not.toHaveProperty(INCOMPLETE_CREATE);
    expect(outs).toMatchObject({ isMultilingual: true, samples: created.properties.samples });
    expect(await requests()).toEqual([
      "POST /voices/voice-clone 200",
      `PUT /voices/${created.id} 400`,
      `PUT /voices/${created.id} 200`,
    ]);
    expect(await runtime.Voice.diff(created.id, outs, news)).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await voices()).toEqual([expect.objectContaining({ isMultilingual: true })]);
  });

  it("describes the samples a partly created state did not record, instead of cloning a new voice", async () => {
    const sample = writeSample("unrecorded.wav", "the sample a failed create left undescribed");
    const news = await checkedVoice({ files: [sample] });
    const { id, outs } = await runtime.Voice.create(news);
    // What stateOfCreated hands the engine when building the state fails after the clone.
    const { samples: _samples, ...unrecorded } = outs;
    const leftOver = new IncompleteCreateError(id, unrecorded, new Error("lost")).properties;

    const diff = await runtime.Voice.diff(id, leftOver, news);
    expect(diff.replaces).toEqual([]);
    const updated = await runtime.Voice.update(id, leftOver, news);
    expect(updated.outs.samples).toEqual(outs.samples);
    expect(await runtime.Voice.diff(id, updated.outs, news)).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await voices()).toHaveLength(1);
  });
});
