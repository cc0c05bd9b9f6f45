/**
 * The plugin archives published into the folder behind `pluginDownloadURL` (a web server's
 * folder, a bucket synced from it), with a SHA256SUMS that `sha256sum -c --ignore-missing` checks
 * in that folder. The folder may hold other versions: their files and sums are kept. A file
 * already there with the same bytes is left as it is; one with other bytes is refused, since
 * users' installs and SHA256SUMS copies pin what was published under a name.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, lstat, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { PublishRefusal } from "./errors";

/** An archive to publish: its file and the sha256 the release's SHA256SUMS gives it. */
export interface ArchiveToPublish {
  file: string;
  sha256: string;
}

export interface DownloadFolderPublication {
  /** Archive names copied in. */
  published: string[];
  /** Archive names that were there with the same bytes. */
  unchanged: string[];
}

async function sha256Of(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

/** SHA256SUMS lines (`<sha256>  <name>`) as a map; throws on a line of another shape. */
export function parseSums(text: string, where: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (match === null)
      throw new PublishRefusal(where, `${where}: "${line}" is not a "<sha256>  <name>" line`);
    sums.set(match[2]!, match[1]!);
  }
  return sums;
}

function formatSums(sums: Map<string, string>): string {
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, sum]) => `${sum}  ${name}\n`)
    .join("");
}

/**
 * Copies each archive into `folder` (made if missing) and merges their sums into its SHA256SUMS.
 * Every check runs before anything is written; each file goes in under a temporary name and is
 * renamed, and SHA256SUMS is written last, so a reader never sees a sum for a missing archive.
 */
export async function publishToDownloadFolder(
  folder: string,
  archives: readonly ArchiveToPublish[],
): Promise<DownloadFolderPublication> {
  const sumsFile = join(folder, "SHA256SUMS");
  const sums = existsSync(sumsFile)
    ? parseSums(await readFile(sumsFile, "utf8"), sumsFile)
    : new Map<string, string>();
  const result: DownloadFolderPublication = { published: [], unchanged: [] };
  for (const { file, sha256 } of archives) {
    const name = basename(file);
    const target = join(folder, name);
    const listed = sums.get(name);
    const there = existsSync(target);
    if (there && !(await lstat(target)).isFile()) {
      throw new PublishRefusal(
        target,
        `${target} is there and is not a file: remove it, then publish again.`,
      );
    }
    const thereSum = there ? await sha256Of(target) : undefined;
    for (const [what, sum] of [
      ["the archive there", thereSum],
      ["the folder's SHA256SUMS", listed],
    ] as const) {
      if (sum !== undefined && sum !== sha256) {
        throw new PublishRefusal(
          name,
          `${name}: ${what} has sha256 ${sum}, this release's is ${sha256}. A published ` +
            "archive never changes (users' SHA256SUMS pin it): publish the release under a new version.",
        );
      }
    }
    if (thereSum === sha256) result.unchanged.push(name);
    else result.published.push(name);
  }
  await mkdir(folder, { recursive: true });
  for (const { file, sha256 } of archives) {
    const name = basename(file);
    sums.set(name, sha256);
    if (!result.published.includes(name)) continue;
    const temporary = join(folder, `.${name}.publishing-${process.pid}`);
    await copyFile(file, temporary);
    if ((await sha256Of(temporary)) !== sha256) {
      throw new PublishRefusal(name, `${name} changed while it was copied: publish again.`);
    }
    await rename(temporary, join(folder, name));
  }
  const temporary = join(folder, `.SHA256SUMS.publishing-${process.pid}`);
  await writeFile(temporary, formatSums(sums));
  await rename(temporary, sumsFile);
  return result;
}
