/**
 * Release archives are the same bytes from the same inputs: whatever the files' times, the
 * umask they were written under, the order the folder lists them in or the path it lies at. And
 * the fixed time comes from SOURCE_DATE_EPOCH or the last commit, checked.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { list } from "tar";
import { ReleaseInputError } from "../../provider/release/errors";
import {
  sourceDateEpoch,
  writeReproducibleTarGz,
} from "../../provider/release/reproducible-archive";
import { verifiedInstallCommand } from "../../provider/release/verified-install";

const repository = join(__dirname, "..", "..");
const EPOCH = 1_764_000_000;

/** Writes the same small tree in the order given, with the modes and times given. */
async function writeTree(dir: string, order: string[], mode: number, time: number) {
  for (const name of order) {
    const path = join(dir, name);
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, `content of ${name}\n`, {
      mode: name.endsWith(".sh") ? mode | 0o100 : mode,
    });
    await utimes(path, time, time);
  }
}

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

describe("reproducible release archives", () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "voiceplatform-archives-"));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test("two trees differing only in times, modes, order and place give the same bytes", async () => {
    const names = ["b.txt", "a/z.txt", "a/run.sh", "A.txt"];
    const one = join(root, "one", "stage");
    const two = join(root, "elsewhere", "deeper", "stage");
    await writeTree(one, names, 0o600, 1_000_000_000);
    await writeTree(two, [...names].reverse(), 0o664, 1_800_000_000);
    await writeReproducibleTarGz({ dir: one, file: join(root, "one.tar.gz"), epochSeconds: EPOCH });
    await writeReproducibleTarGz({ dir: two, file: join(root, "two.tar.gz"), epochSeconds: EPOCH });
    expect(await sha256(join(root, "one.tar.gz"))).toBe(await sha256(join(root, "two.tar.gz")));
  });

  test("entries are sorted, owned by no one, 0644 or 0755, dated the fixed time", async () => {
    const entries: { path: string; mode: number; uid: number; uname: string; mtime: number }[] = [];
    await list({
      file: join(root, "one.tar.gz"),
      onReadEntry: (entry) => {
        entries.push({
          path: entry.path,
          mode: entry.mode ?? -1,
          uid: entry.uid ?? 0,
          uname: entry.uname ?? "",
          mtime: entry.mtime ? entry.mtime.getTime() / 1000 : 0,
        });
      },
    });
    expect(entries.map((e) => e.path)).toEqual(["A.txt", "a/", "a/run.sh", "a/z.txt", "b.txt"]);
    expect(entries.map((e) => e.mode.toString(8))).toEqual(["644", "755", "755", "644", "644"]);
    expect(entries.every((e) => e.uid === 0 && e.uname === "")).toBe(true);
    expect(entries.filter((e) => !e.path.endsWith("/")).map((e) => e.mtime)).toEqual([
      EPOCH,
      EPOCH,
      EPOCH,
      EPOCH,
    ]);
  });

  test("the gzip header carries no time and a fixed OS byte", async () => {
    const header = (await readFile(join(root, "one.tar.gz"))).subarray(0, 10);
    expect([...header.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    expect(header.readUInt32LE(4)).toBe(0);
    expect(header[9]).toBe(255);
  });

  test("the fixed time is SOURCE_DATE_EPOCH, else the last commit's; a bad one is refused", async () => {
    expect(await sourceDateEpoch(repository, { SOURCE_DATE_EPOCH: "1700000000" })).toBe(
      1_700_000_000,
    );
    const commit = await sourceDateEpoch(repository, {});
    expect(commit).toBeGreaterThan(1_700_000_000);
    for (const bad of ["yesterday", "-5", "1.5", "100"]) {
      const error: unknown = await sourceDateEpoch(repository, { SOURCE_DATE_EPOCH: bad }).then(
        () => undefined,
        (refused: unknown) => refused,
      );
      expect(error).toBeInstanceOf(ReleaseInputError);
      expect((error as ReleaseInputError).input).toBe("SOURCE_DATE_EPOCH");
      const { message } = error as ReleaseInputError;
      expect(message).toContain(`SOURCE_DATE_EPOCH=${JSON.stringify(bad)} `);
      expect(message).toContain("not a time the archives can hold");
      expect(message).toContain("seconds since 1970 of 1980 or later");
    }
    await expect(sourceDateEpoch(join(root, "one"), {})).rejects.toThrow(
      "set SOURCE_DATE_EPOCH to seconds since 1970",
    );
  });
});

describe("the verified install command the release prints", () => {
  const sha = "a".repeat(64);
  const archive = "pulumi-resource-voiceplatform-v0.1.0-linux-amd64.tar.gz";

  test("checks the sha256 with sha256sum before pulumi installs the file", () => {
    expect(verifiedInstallCommand("0.1.0", archive, sha)).toBe(
      `echo "${sha}  ${archive}" | sha256sum -c - && ` +
        `pulumi plugin install resource voiceplatform 0.1.0 --file ${archive}`,
    );
  });

  test("refuses anything but a sha256 and a plain file name (it is shell text)", () => {
    expect(() => verifiedInstallCommand("0.1.0", archive, "abc")).toThrow("not a sha256");
    expect(() => verifiedInstallCommand("0.1.0", "x; rm -rf ~", sha)).toThrow("not a plain file");
  });
});
