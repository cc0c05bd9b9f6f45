/**
 * The release's SHA256SUMS files, in the format `sha256sum -c` reads (`<hex>  <name>`): one in
 * the release folder naming every artifact by its path there, and one in plugin/ naming the
 * archives by their bare names. That one is published beside the archives (the download host, the
 * GitHub release), so `sha256sum -c SHA256SUMS` works in the folder a user downloads them to.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

export const CHECKSUMS_FILE = "SHA256SUMS";

export interface Artifact {
  /** Path relative to the release folder, with `/` between folders. */
  name: string;
  size: number;
  sha256: string;
}

export async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * The text of a SHA256SUMS file in `folder` (a path relative to the release folder, "" for the
 * release folder itself) for the artifacts inside it, named relative to it.
 */
export function checksumsText(artifacts: readonly Artifact[], folder: string): string {
  const prefix = folder === "" ? "" : `${folder}/`;
  return artifacts
    .filter((artifact) => artifact.name.startsWith(prefix))
    .map((artifact) => `${artifact.sha256}  ${artifact.name.slice(prefix.length)}\n`)
    .join("");
}

/**
 * Each file's name, size and sha256; writes `SHA256SUMS` into the release folder `out` and into
 * each folder of `published` (relative to `out`).
 */
export async function writeChecksums(
  out: string,
  files: readonly string[],
  published: readonly string[],
): Promise<Artifact[]> {
  const artifacts: Artifact[] = [];
  for (const file of files) {
    artifacts.push({
      name: relative(out, file).split(sep).join("/"),
      size: (await stat(file)).size,
      sha256: await sha256(file),
    });
  }
  for (const folder of ["", ...published]) {
    await writeFile(join(out, folder, CHECKSUMS_FILE), checksumsText(artifacts, folder));
  }
  return artifacts;
}
