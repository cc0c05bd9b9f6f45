import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { SampleChangedError } from "../../provider/platform/errors";
import { describeSample, sampleHash, SampleUpload } from "../../provider/platform/sample-files";
import { writeSample } from "../support/builders";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const assetSig = { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17" };

describe("sample files", () => {
  it("hashes a small sample inline and a large one on a worker thread, to the same sha256", async () => {
    const small = writeSample("small.wav", "tiny");
    const large = writeSample("large.wav", Buffer.alloc(9 * 1024 * 1024, 3));
    expect([await describeSample(small), await describeSample(large)]).toEqual([
      { name: "small.wav", sha256: sha256(small), size: 4 },
      { name: "large.wav", sha256: sha256(large), size: 9 * 1024 * 1024 },
    ]);
  });

  it("takes the hash the engine computed for a FileAsset instead of reading the file again", async () => {
    const path = writeSample("asset.wav", "asset content");
    const engineHash = "a".repeat(64);
    expect(await describeSample({ ...assetSig, path, hash: engineHash } as never)).toEqual({
      name: "asset.wav",
      sha256: engineHash,
      size: 13,
    });
    expect(await sampleHash({ ...assetSig, hash: engineHash } as never)).toBe(engineHash);
  });

  it("hashes an upload from the bytes it sends, and remembers the hash for the next diff", async () => {
    const path = writeSample("upload.wav", Buffer.alloc(200 * 1024, 5));
    const upload = await SampleUpload.open(path);
    const sent = Buffer.concat(await collect(upload.stream()));
    expect(sent.equals(readFileSync(path))).toBe(true);
    const facts = { name: "upload.wav", sha256: sha256(path), size: 200 * 1024 };
    expect(await upload.facts()).toEqual(facts);
    // The next open of the unchanged file knows the hash: nothing is hashed twice.
    const again = await SampleUpload.open(path);
    expect(await again.facts()).toEqual(facts);
    expect(await describeSample(path)).toEqual(facts);
  });

  it("sends a FileAsset's content under the engine's hash without hashing it", async () => {
    const path = writeSample("engine.wav", "engine content");
    const engineHash = "b".repeat(64);
    const upload = await SampleUpload.open({ ...assetSig, path, hash: engineHash } as never);
    expect(Buffer.concat(await collect(upload.stream())).toString()).toBe("engine content");
    expect((await upload.facts()).sha256).toBe(engineHash);
  });

  it.each([
    ["grows", (path: string) => appendFileSync(path, "more audio"), /more read/],
    ["shrinks", (path: string) => writeFileSync(path, "short"), /5 read/],
  ])("stops an upload whose sample %s after it was opened", async (_, change, read) => {
    const path = writeSample("changing.wav", "original audio");
    const upload = await SampleUpload.open(path);
    change(path);
    const failure = collect(upload.stream());
    await expect(failure).rejects.toThrow(SampleChangedError);
    await expect(failure).rejects.toThrow(read);
    await expect(failure).rejects.toThrow(
      /changing\.wav" changed while it was being uploaded \(14 bytes/,
    );
  });

  it("fails for a sample that is gone", async () => {
    await expect(describeSample("/nonexistent/sample.wav")).rejects.toThrow(/ENOENT/);
  });
});

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}
