import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { rememberEngineConfig } from "../../provider/settings/config";
import { resetProcessState } from "../../provider/settings/process-state";
import { UNKNOWN } from "../../provider/core/engine-values";
import {
  voice,
  pickCreatedVoice,
  toCloneForm,
  toUpdateBody,
  toVoiceState,
  VoiceInputs,
} from "../../provider/resources/voice";
import { SampleUpload } from "../../provider/platform/sample-files";
import { voiceInputs, writeSample } from "../support/builders";
import { callContext, processSettings } from "../support/call-context";

const { check, diff } = voice;

afterEach(resetProcessState);

describe("Voice check", () => {
  it("accepts valid inputs and normalizes locales into a sorted set", async () => {
    const { inputs, failures } = await check(
      callContext(),
      {},
      voiceInputs({ supportedLocales: ["fr-fr", "en-us", "en-US"] }),
    );
    expect(failures).toEqual([]);
    expect(inputs.supportedLocales).toEqual(["en-US", "fr-FR"]);
  });

  it("fills in the stack's default sub-organization", async () => {
    rememberEngineConfig(processSettings(), {
      get: (key) => (key === "voiceplatform:subOrganizationId" ? "sub_default" : undefined),
    });
    expect((await check(callContext(), {}, voiceInputs())).inputs.subOrganizationId).toBe(
      "sub_default",
    );
    expect(
      (await check(callContext(), {}, voiceInputs({ subOrganizationId: "sub_mine" }))).inputs
        .subOrganizationId,
    ).toBe("sub_mine");
  });

  it.each([
    ["name", { name: 5 }, "must be a string, not number 5"],
    ["name", { name: "" }, "must not be empty: remove it or give a value"],
    [
      "supportedLocales[0]",
      { supportedLocales: ["english"] },
      "must be a locale code in the form language-REGION, e.g. en-US",
    ],
    ["stability", { stability: "high" }, 'must be a finite number, not "high"'],
    ["speed", { speed: Number.NaN }, "must be a finite number, not number NaN"],
    ["subAccounts", { subAccounts: "yes" }, 'must be true or false, not "yes"'],
    ["isMultilingual", { isMultilingual: 1 }, "must be true or false, not number 1"],
    [
      "files",
      { files: [] },
      "is required to clone a voice: give at least one audio sample, or set existingVoiceId to adopt a voice",
    ],
    [
      "similarity_boost",
      { similarity_boost: 0.5 },
      'is not an input of Voice (did you mean "similarityBoost"?); remove it or fix its name',
    ],
  ])("reports %s", async (property, overrides, reason) => {
    const { failures } = await check(callContext(), {}, voiceInputs(overrides));
    expect(failures).toContainEqual({ property, reason });
  });

  it("reports a missing sample file with its path", async () => {
    const { failures } = await check(
      callContext(),
      {},
      voiceInputs({ files: ["./does/not/exist.wav"] }),
    );
    expect(failures).toHaveLength(1);
    expect(failures[0]!.property).toBe("files[0]");
    expect(failures[0]!.reason).toMatch(
      /does\/not\/exist.wav" does not exist or cannot be read: fix the path/,
    );
  });

  it("rejects assets other than files", async () => {
    const stringAsset = {
      "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17",
      text: "hi",
    };
    const { failures } = await check(callContext(), {}, voiceInputs({ files: [stringAsset] }));
    expect(failures.map((f) => f.property)).toContain("files[0]");
  });

  it("reports every problem at once", async () => {
    const { failures } = await check(
      callContext(),
      {},
      voiceInputs({ name: 1, stability: "x", speed: "y", unknownField: true }),
    );
    expect(failures.map((f) => f.property).sort()).toEqual([
      "name",
      "speed",
      "stability",
      "unknownField",
    ]);
  });

  it("refuses clone-only fields on an adopted voice", async () => {
    const { failures } = await check(
      callContext(),
      {},
      { name: "Adopted", existingVoiceId: "v1", description: "d" },
    );
    expect(failures).toEqual([
      {
        property: "description",
        reason:
          "is only sent when cloning, so it cannot apply to the adopted voice v1: remove it, or remove existingVoiceId to clone a new voice",
      },
    ]);
  });

  it("lets preview's unknown values through", async () => {
    const { failures } = await check(
      callContext(),
      {},
      voiceInputs({ name: UNKNOWN, files: UNKNOWN, supportedLocales: [UNKNOWN] }),
    );
    expect(failures).toEqual([]);
    expect((await check(callContext(), {}, voiceInputs({ files: [UNKNOWN] }))).failures).toEqual(
      [],
    );
  });
});

describe("Voice wire mapping", () => {
  it("builds the clone form with camelCase settings and JSON-encoded locales", async () => {
    const sample = writeSample("a.wav", "abc");
    const inputs = VoiceInputs.parse(
      voiceInputs({ files: [sample], supportsAllLanguages: false, subAccounts: true }),
    );
    const form = toCloneForm(inputs, await Promise.all([sample].map(SampleUpload.open)));
    const fields = Object.fromEntries([...form.entries()].filter(([key]) => key !== "files"));
    expect(fields).toEqual({
      name: "Support agent",
      supportedLocales: '["en-US"]',
      stability: "0.5",
      similarityBoost: "0.75",
      speed: "1",
      subAccounts: "true",
      supportsAllLanguages: "false",
    });
    const files = form.getAll("files") as unknown as File[];
    expect(files.map((file) => [file.name, file.size, file.type])).toEqual([
      ["a.wav", 3, "audio/wav"],
    ]);
  });

  it("builds the update body with snake_case settings and only what is declared", () => {
    expect(toUpdateBody(VoiceInputs.parse(voiceInputs({ isMultilingual: true })))).toEqual({
      name: "Support agent",
      isMultilingual: true,
      supportedLocales: ["en-US"],
      settings: { stability: 0.5, similarity_boost: 0.75, speed: 1 },
    });
    expect(toUpdateBody({ name: "n", existingVoiceId: "v" })).toEqual({ name: "n" });
  });

  it("leaves out of the update body what ignoreChanges names: the platform keeps its own", () => {
    const inputs = VoiceInputs.parse(voiceInputs({ isMultilingual: true }));
    expect(toUpdateBody(inputs, ["name", "stability", "supportedLocales[0]"])).toEqual({
      isMultilingual: true,
      // A path below an input leaves the input as a whole to be sent (the engine kept its item).
      supportedLocales: ["en-US"],
      settings: { similarity_boost: 0.75, speed: 1 },
    });
    expect(toUpdateBody({ name: "n", existingVoiceId: "v" }, ["name"])).toEqual({});
    expect(toUpdateBody(inputs, ["*"])).toEqual({});
  });

  it("picks the created voice by name, else the first", () => {
    const voices = [
      { id: "a", name: "Other" },
      { id: "b", name: "Support agent" },
      { id: "c", name: "Support agent" },
    ];
    expect(pickCreatedVoice(voices, "Support agent")?.id).toBe("b");
    expect(pickCreatedVoice(voices, "Missing")?.id).toBe("a");
    expect(pickCreatedVoice([], "x")).toBeUndefined();
  });

  it("fills outputs the user left out from the platform's answer", () => {
    const state = toVoiceState(
      { name: "n", files: [] },
      {
        id: "v1",
        voiceId: "el_1",
        settings: { stability: 0.3, similarity_boost: 0.8 },
        isMultilingual: true,
        supportedLocales: ["de-DE"],
      },
      [],
      [],
    );
    expect(state).toMatchObject({
      stability: 0.3,
      similarityBoost: 0.8,
      isMultilingual: true,
      supportedLocales: ["de-DE"],
      voiceId: "el_1",
    });
    // No bookkeeping beside what the schema shows: a diff or an SDK would show it.
    expect(state).not.toHaveProperty("stateVersion");
  });
});

describe("Voice diff", () => {
  const sample = writeSample("diff.wav", "first content");
  const stored = async (overrides = {}) => {
    const inputs = (await check(callContext(), {}, voiceInputs({ files: [sample], ...overrides })))
      .inputs;
    const sha256 = createHash("sha256").update("first content").digest("hex");
    return {
      ...inputs,
      samples: [{ name: "diff.wav", sha256, size: 13 }],
      clonedVoices: [],
    };
  };
  const news = async (overrides = {}) =>
    (await check(callContext(), {}, voiceInputs({ files: [sample], ...overrides }))).inputs;

  it("sees no change for the same inputs, or reordered locales", async () => {
    const olds = await stored({ supportedLocales: ["en-US", "fr-FR"] });
    expect(
      await diff(callContext(), "v1", olds, await news({ supportedLocales: ["fr-FR", "en-US"] })),
    ).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      diffs: [],
      detailedDiff: {},
    });
  });

  it("updates name, locales and settings in place, naming each in the detailed diff", async () => {
    const olds = await stored();
    const result = await diff(
      callContext(),
      "v1",
      olds,
      await news({ name: "Renamed", stability: 0.9, supportedLocales: ["de-DE"] }),
    );
    const update = { kind: "update", replace: false };
    expect(result).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      diffs: ["name", "supportedLocales", "stability"],
      detailedDiff: { name: update, supportedLocales: update, stability: update },
    });
  });

  it("replaces for new sample content at the same path, not for a new path with the same content", async () => {
    const olds = await stored();
    const copy = writeSample("renamed.wav", "first content");
    expect((await diff(callContext(), "v1", olds, await news({ files: [copy] }))).changes).toBe(
      false,
    );
    const changed = writeSample("diff.wav", "first content");
    writeFileSync(changed, "second content");
    expect(await diff(callContext(), "v1", olds, await news({ files: [changed] }))).toMatchObject({
      changes: true,
      replaces: ["files"],
      detailedDiff: { files: { kind: "update", replace: true } },
    });
  });

  it.each([
    "description",
    "providerType",
    "subAccounts",
    "supportsAllLanguages",
    "subOrganizationId",
  ])("replaces when %s changes", async (key) => {
    const value = key === "subAccounts" || key === "supportsAllLanguages" ? true : "changed";
    const result = await diff(callContext(), "v1", await stored(), await news({ [key]: value }));
    expect(result.replaces).toEqual([key]);
  });

  it("treats a setting left out as no change, and an unknown value as a change", async () => {
    const olds = await stored();
    expect(
      (await diff(callContext(), "v1", olds, await news({ stability: undefined }))).changes,
    ).toBe(false);
    expect(await diff(callContext(), "v1", olds, await news({ name: UNKNOWN }))).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(
      await diff(callContext(), "v1", olds, { ...(await news()), files: UNKNOWN }),
    ).toMatchObject({
      replaces: ["files"],
    });
  });

  it("compares a FileAsset that diff receives without its path by the engine's content hash", async () => {
    const olds = await stored();
    const elided = (hash: string) => ({
      "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17",
      hash,
    });
    const sameContent = createHash("sha256").update("first content").digest("hex");
    expect(
      (await diff(callContext(), "v1", olds, { ...(await news()), files: [elided(sameContent)] }))
        .changes,
    ).toBe(false);
    expect(
      await diff(callContext(), "v1", olds, { ...(await news()), files: [elided("0".repeat(64))] }),
    ).toMatchObject({ replaces: ["files"] });
  });

  it("ignores __provider", async () => {
    const olds = { ...(await stored()), __provider: "old text" };
    expect(
      (await diff(callContext(), "v1", olds, { ...(await news()), __provider: "new text" }))
        .changes,
    ).toBe(false);
  });
});
