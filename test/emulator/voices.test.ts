import { createHash } from "node:crypto";
import { openAsBlob } from "node:fs";
import { readFile } from "node:fs/promises";
import { call, callJson, cloneForm, errorOf, sampleFiles, type SampleFiles } from "./api-calls";
import type { Voice } from "../../provider/emulator";
import { startEmulator, type RunningEmulator } from "../../provider/emulator";

let emulator: RunningEmulator;
let samples: SampleFiles;
let sample: string;

beforeAll(async () => {
  emulator = await startEmulator({
    organizations: [
      { id: "org_a", apiKey: "key-a", subOrganizationIds: ["sub_a1", "sub_a2"] },
      { id: "org_b", apiKey: "key-b" },
    ],
  });
  samples = await sampleFiles();
  sample = await samples.create("one.wav", 4096);
});
afterAll(async () => {
  await emulator.stop();
  await samples.remove();
});
beforeEach(() => emulator.reset());

function clone(fields: Record<string, string>, files = [sample], apiKey = "key-a") {
  return cloneForm(fields, files).then((body) =>
    call("POST", `${emulator.baseUrl}/voices/voice-clone`, { apiKey, body }),
  );
}

async function clonedVoice(fields: Record<string, string> = { name: "Base voice" }) {
  const result = await clone(fields);
  expect(result.status).toBe(200);
  const voices = result.json as Voice[];
  expect(voices).toHaveLength(1);
  return voices[0] as Voice;
}

function updateVoice(id: string, body: unknown, options: { apiKey?: string; sub?: string } = {}) {
  return callJson("PUT", `${emulator.baseUrl}/voices/${id}`, body, {
    apiKey: options.apiKey ?? "key-a",
    headers: options.sub === undefined ? {} : { "x-sub-organization-id": options.sub },
  });
}

describe("POST /voices/voice-clone", () => {
  test("returns one voice built from the form, with a hash of every sample", async () => {
    const second = await samples.create("two.wav", 70_000);
    const result = await clone(
      {
        name: "Narrator",
        description: "warm",
        providerType: "ELEVENLABS",
        supportedLocales: JSON.stringify(["en-US", "fr-FR"]),
        subAccounts: "true",
        stability: "0.4",
        similarityBoost: "0.8",
        speed: "1.1",
        supportsAllLanguages: "false",
      },
      [sample, second],
    );

    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toMatch(/^application\/json/);
    const answered = result.json as Record<string, unknown>[];
    // Spec 2.1: the answer shows eight fields, and settings only stability and style.
    expect(answered).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        voiceId: expect.any(String),
        name: "Narrator",
        organizationId: "org_a",
        settings: { stability: 0.4, style: 0 },
        isMultilingual: false,
        supportedLocales: ["en-US", "fr-FR"],
        ttsClient: "elevenlabs",
      },
    ]);
    const [voice] = (await emulator.state()).organizations.org_a!.voices;
    expect(voice).toMatchObject({
      id: answered[0]!.id,
      name: "Narrator",
      description: "warm",
      subOrganizationId: null,
      providerType: "ELEVENLABS",
      settings: { stability: 0.4, similarity_boost: 0.8, speed: 1.1, style: 0 },
      subAccounts: true,
      supportsAllLanguages: false,
    });
    expect(voice?.voiceId).not.toBe(voice?.id);
    const expectedSamples = await Promise.all(
      [sample, second].map(async (path) => {
        const content = await readFile(path);
        return {
          filename: path.split("/").pop(),
          size: content.length,
          sha256: createHash("sha256").update(content).digest("hex"),
        };
      }),
    );
    expect(voice?.samples).toEqual(expectedSamples);
  });

  test("answers every stored field and fields no spec names in the extended mode", async () => {
    await emulator.settings({ answers: "extended" });
    try {
      const result = await clone({ name: "Rich", speed: "1.2" }, [sample]);
      const [voice] = result.json as Record<string, unknown>[];
      expect(voice).toMatchObject({
        name: "Rich",
        providerType: "ELEVENLABS",
        subOrganizationId: null,
        settings: { speed: 1.2, similarity_boost: 0.75, use_speaker_boost: true },
        createdAt: expect.any(String),
        labels: expect.any(Object),
      });
    } finally {
      await emulator.settings({ answers: "spec" });
    }
  });

  test("records the sub-organization from the header", async () => {
    const body = await cloneForm({ name: "Sub voice" }, [sample]);
    const result = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
      apiKey: "key-a",
      headers: { "x-sub-organization-id": "sub_a1" },
      body,
    });
    expect(result.status).toBe(200);
    const id = (result.json as Voice[])[0]?.id;
    const stored = (await emulator.state()).organizations.org_a!.voices;
    expect(stored.find((voice) => voice.id === id)?.subOrganizationId).toBe("sub_a1");
  });

  test.each([
    ["stability", { stability: "high" }, "stability"],
    ["similarityBoost", { similarityBoost: "" }, "similarityBoost"],
    ["speed", { speed: "1,0" }, "speed"],
    ["subAccounts", { subAccounts: "yes" }, "subAccounts"],
    ["supportsAllLanguages", { supportsAllLanguages: "1" }, "supportsAllLanguages"],
    ["supportedLocales as plain text", { supportedLocales: "en-US" }, "supportedLocales"],
    ["supportedLocales with numbers", { supportedLocales: "[1, 2]" }, "supportedLocales"],
    ["supportedLocales as object", { supportedLocales: '{"en":1}' }, "supportedLocales"],
  ])("rejects a mistyped %s", async (_label, fields, field) => {
    const result = await clone({ name: "Typed", ...fields });
    expect(result.status).toBe(400);
    expect(errorOf(result)).toMatchObject({ status: 400, code: "invalid_field", field });
  });

  test("names similarityBoost when the form sends similarity_boost", async () => {
    const result = await clone({ name: "Mixed", similarity_boost: "0.5" });
    expect(result.status).toBe(400);
    const error = errorOf(result);
    expect(error).toMatchObject({ code: "wrong_field_name", field: "similarity_boost" });
    expect(error.message).toContain('use "similarityBoost"');
  });

  test("rejects an unknown form field", async () => {
    const result = await clone({ name: "Extra", isMultilingual: "true" });
    expect(errorOf(result)).toMatchObject({
      status: 400,
      code: "unknown_field",
      field: "isMultilingual",
    });
  });

  test("rejects supportedLocales sent as repeated fields", async () => {
    const form = await cloneForm({ name: "Repeated" }, [sample]);
    form.append("supportedLocales", "en-US");
    form.append("supportedLocales", "fr-FR");
    const result = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
      apiKey: "key-a",
      body: form,
    });
    expect(errorOf(result)).toMatchObject({ code: "duplicate_field", field: "supportedLocales" });
  });

  test("requires a name and at least one non-empty file", async () => {
    expect(errorOf(await clone({ description: "nameless" }))).toMatchObject({
      code: "missing_field",
      field: "name",
    });
    expect(errorOf(await clone({ name: "No files" }, []))).toMatchObject({
      status: 400,
      code: "missing_files",
      field: "files",
    });
    const empty = await samples.create("empty.wav", 0);
    expect(errorOf(await clone({ name: "Empty file" }, [sample, empty]))).toMatchObject({
      code: "invalid_field",
      field: "files[1]",
    });
  });

  test("rejects a file part outside the files field", async () => {
    const form = await cloneForm({ name: "Misfiled" });
    form.append("sample", await openAsBlob(sample), "x.wav");
    const result = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
      apiKey: "key-a",
      body: form,
    });
    expect(errorOf(result)).toMatchObject({
      status: 400,
      code: "unexpected_file_field",
      field: "sample",
    });
    expect((await emulator.state()).organizations.org_a?.voices).toEqual([]);
  });

  test("rejects files sent as a text field", async () => {
    const result = await clone({ name: "Text files", files: "not a file" }, []);
    expect(errorOf(result)).toMatchObject({ code: "invalid_field", field: "files" });
  });

  test("answers 415 to a JSON body", async () => {
    const result = await callJson(
      "POST",
      `${emulator.baseUrl}/voices/voice-clone`,
      { name: "json" },
      { apiKey: "key-a" },
    );
    expect(errorOf(result)).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  test("answers 400 to a multipart body without a boundary", async () => {
    const result = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
      apiKey: "key-a",
      headers: { "content-type": "multipart/form-data" },
      body: "garbage",
    });
    expect(errorOf(result)).toMatchObject({ status: 400, code: "malformed_multipart" });
  });
});

describe("PUT /voices/{id}", () => {
  test("merges the given fields and keeps the others", async () => {
    const voice = await clonedVoice({ name: "Before", stability: "0.3", speed: "0.9" });
    const result = await updateVoice(voice.id, {
      name: "After",
      isMultilingual: true,
      supportedLocales: ["de-DE"],
      settings: { similarity_boost: 0.2 },
    });
    expect(result.status).toBe(200);
    const [before] = (await emulator.state()).organizations.org_a!.voices;
    const expected = {
      ...before!,
      name: "After",
      isMultilingual: true,
      supportedLocales: ["de-DE"],
      settings: { ...before!.settings, similarity_boost: 0.2 },
    };
    expect((await emulator.state()).organizations.org_a?.voices).toEqual([expected]);
    expect(result.json).toEqual({
      ...voice,
      name: "After",
      isMultilingual: true,
      supportedLocales: ["de-DE"],
      settings: { stability: 0.3, style: 0 },
    });
  });

  test("accepts an empty body as a no-op", async () => {
    const voice = await clonedVoice();
    const result = await updateVoice(voice.id, {});
    expect(result.status).toBe(200);
    expect(result.json).toEqual(voice);
  });

  test.each([
    [
      { settings: { similarityBoost: 0.5 } },
      "settings.similarityBoost",
      "settings.similarity_boost",
    ],
    [{ similarity_boost: 0.5 }, "similarity_boost", "settings.similarity_boost"],
    [{ stability: 0.5 }, "stability", "settings.stability"],
  ])("says which name to use for %j", async (body, field, use) => {
    const voice = await clonedVoice();
    const error = errorOf(await updateVoice(voice.id, body));
    expect(error).toMatchObject({ status: 400, code: "wrong_field_name", field });
    expect(error.message).toContain(`use "${use}"`);
  });

  test.each([
    [{ name: 5 }, "name"],
    [{ isMultilingual: "true" }, "isMultilingual"],
    [{ supportedLocales: "en-US" }, "supportedLocales"],
    [{ supportedLocales: ["en-US", 7] }, "supportedLocales[1]"],
    [{ settings: { stability: "0.5" } }, "settings.stability"],
    [{ settings: 1 }, "settings"],
  ])("rejects the mistyped field in %j", async (body, field) => {
    const voice = await clonedVoice();
    expect(errorOf(await updateVoice(voice.id, body))).toMatchObject({
      status: 400,
      code: "invalid_field",
      field,
    });
  });

  test("rejects unknown fields, top level and in settings", async () => {
    const voice = await clonedVoice();
    expect(errorOf(await updateVoice(voice.id, { color: "red" }))).toMatchObject({
      code: "unknown_field",
      field: "color",
    });
    expect(errorOf(await updateVoice(voice.id, { settings: { style: 1 } }))).toMatchObject({
      code: "unknown_field",
      field: "settings.style",
    });
  });

  test("rejects malformed JSON, a non-object body and a non-JSON content type", async () => {
    const voice = await clonedVoice();
    const url = `${emulator.baseUrl}/voices/${voice.id}`;
    const malformed = await callJson("PUT", url, '{"name": ', { apiKey: "key-a" });
    expect(errorOf(malformed)).toMatchObject({ status: 400, code: "malformed_json" });
    const array = await callJson("PUT", url, [1], { apiKey: "key-a" });
    expect(errorOf(array)).toMatchObject({ status: 400, code: "invalid_body" });
    const text = await call("PUT", url, {
      apiKey: "key-a",
      headers: { "content-type": "text/plain" },
      body: "{}",
    });
    expect(errorOf(text)).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  test("answers 404 for an unknown id and for another organization's voice", async () => {
    const voice = await clonedVoice();
    expect(errorOf(await updateVoice("0123456789abcdef01234567", {}))).toMatchObject({
      status: 404,
      code: "voice_not_found",
    });
    expect(errorOf(await updateVoice(voice.id, {}, { apiKey: "key-b" }))).toMatchObject({
      status: 404,
    });
  });

  test("hides a sub-organization's voice from a sibling sub-organization", async () => {
    const body = await cloneForm({ name: "Sub voice" }, [sample]);
    const created = await call("POST", `${emulator.baseUrl}/voices/voice-clone`, {
      apiKey: "key-a",
      headers: { "x-sub-organization-id": "sub_a1" },
      body,
    });
    const voice = (created.json as Voice[])[0] as Voice;
    expect((await updateVoice(voice.id, {}, { sub: "sub_a2" })).status).toBe(404);
    expect((await updateVoice(voice.id, {}, { sub: "sub_a1" })).status).toBe(200);
    expect((await updateVoice(voice.id, {})).status).toBe(200);
  });
});
