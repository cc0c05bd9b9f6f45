import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describeSample, describeSamplesInOrder, sampleHash } from "../../provider/sample-files";
import { writeSample } from "./builders";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const assetSig = { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17" };

describe("sample files", () => {
  it("hashes a small sample inline and a large one on a worker thread, to the same sha256", async () => {
    const small = writeSample("small.wav", "tiny");
    const large = writeSample("large.wav", Buffer.alloc(9 * 1024 * 1024, 3));
    expect(await describeSamplesInOrder([small, large])).toEqual([
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

  it("fails for a sample that is gone", async () => {
    await expect(describeSample("/nonexistent/sample.wav")).rejects.toThrow(/ENOENT/);
  });
});
