/**
 * What a release folder made by `npm run release` holds, read back and checked before anything
 * of it is published: the folder carries the release's marker, every file its SHA256SUMS lists
 * has that sha256 (so a changed or half-copied artifact is never published), and the Go module's
 * own files say the version, the module path and the pluginDownloadURL every SDK of the release
 * names (from the summed Go tarball, not from files beside it that nothing checks).
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { lstat, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { extract } from "tar";
import { readModuleFolder, moduleOfGoMod, type ModuleFile } from "./go-module-proxy";
import { parseSums } from "./plugin-download-folder";
import { RELEASE_MARKER } from "./release-folder";

/** A summed file of the release. */
export interface SummedFile {
  /** Absolute path. */
  file: string;
  /** Path relative to the release folder, slash-separated. */
  name: string;
  sha256: string;
}

export interface ReleaseContents {
  folder: string;
  version: string;
  /** The Go module path of the release's Go SDK. */
  goModulePath: string;
  /** The pluginDownloadURL every SDK names; undefined when the release was built without one. */
  pluginDownloadURL: string | undefined;
  pluginArchives: SummedFile[];
  pythonFiles: SummedFile[];
  npmTarballs: SummedFile[];
  /** The Go module's files, from its summed tarball. */
  goModule: ModuleFile[];
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** SHA256SUMS files of the release: the folder's own and plugin/'s, where present. */
const SUMS_FILES = ["SHA256SUMS", join("plugin", "SHA256SUMS")];

/** Every file the release's SHA256SUMS files list, each checked against its sum. */
async function summedFiles(folder: string): Promise<SummedFile[]> {
  const files = new Map<string, SummedFile>();
  for (const sumsName of SUMS_FILES.filter((name) => existsSync(join(folder, name)))) {
    const sumsFile = join(folder, sumsName);
    for (const [listed, sha256] of parseSums(await readFile(sumsFile, "utf8"), sumsFile)) {
      const file = resolve(dirname(sumsFile), listed);
      const name = relative(folder, file).split(sep).join("/");
      if (name.startsWith("../") || name === "..") {
        throw new Error(`${sumsFile} lists ${listed}, outside the release folder: refused.`);
      }
      files.set(name, { file, name, sha256 });
    }
  }
  if (files.size === 0) {
    throw new Error(
      `${folder} has no SHA256SUMS listing its artifacts: it is not a whole release.`,
    );
  }
  for (const summed of files.values()) {
    const info = await lstat(summed.file).catch(() => undefined);
    if (info === undefined || !info.isFile()) {
      throw new Error(
        `${summed.name}, listed in the release's SHA256SUMS, is missing or not a file.`,
      );
    }
    const actual = await sha256Of(summed.file);
    if (actual !== summed.sha256) {
      throw new Error(
        `${summed.name} has sha256 ${actual}, the release's SHA256SUMS says ${summed.sha256}: ` +
          "the release folder changed after it was built. Build the release again.",
      );
    }
  }
  return [...files.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The Go module's files, unpacked from its tarball into a temporary folder and read. */
async function goModuleOf(tarball: string): Promise<ModuleFile[]> {
  const scratch = await mkdtemp(join(tmpdir(), "voiceplatform-publish-go-"));
  try {
    await extract({ file: tarball, cwd: scratch });
    return await readModuleFolder(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What the Go SDK's pulumi-plugin.json says: the plugin's version and download server. */
function pluginFacts(module: readonly ModuleFile[]): { version: string; server?: string } {
  const file = module.find((f) => /(^|\/)pulumi-plugin\.json$/.test(f.path));
  if (file === undefined) throw new Error("the release's Go module has no pulumi-plugin.json");
  const facts = JSON.parse(Buffer.from(file.data).toString("utf8")) as {
    version?: unknown;
    server?: unknown;
  };
  if (typeof facts.version !== "string") {
    throw new Error(`the release's Go module's ${file.path} names no version`);
  }
  return {
    version: facts.version,
    ...(typeof facts.server === "string" && facts.server !== "" ? { server: facts.server } : {}),
  };
}

/** Reads and checks the release in `folder`; throws, saying what is wrong, when it is not one. */
export async function readRelease(folder: string): Promise<ReleaseContents> {
  const marker = await lstat(join(folder, RELEASE_MARKER)).catch(() => undefined);
  if (marker === undefined || !marker.isFile()) {
    throw new Error(
      `${folder} is not a release folder (no ${RELEASE_MARKER}): give --from the --out folder ` +
        "of `npm run release`.",
    );
  }
  const files = await summedFiles(folder);
  const under = (prefix: string, suffix: string) =>
    files.filter((f) => f.name.startsWith(prefix) && f.name.endsWith(suffix));
  const goTarballs = files.filter((f) => /^[^/]*go-sdk[^/]*\.tar\.gz$/.test(f.name));
  if (goTarballs.length !== 1) {
    throw new Error(
      `the release's SHA256SUMS lists ${goTarballs.length} Go module tarballs (*go-sdk*.tar.gz); expected one.`,
    );
  }
  const goModule = await goModuleOf(goTarballs[0]!.file);
  const goMod = goModule.find((f) => f.path === "go.mod");
  if (goMod === undefined) throw new Error("the release's Go module has no go.mod");
  const plugin = pluginFacts(goModule);
  const contents: ReleaseContents = {
    folder,
    version: plugin.version,
    goModulePath: moduleOfGoMod(Buffer.from(goMod.data).toString("utf8")),
    pluginDownloadURL: plugin.server,
    pluginArchives: under("plugin/", ".tar.gz"),
    pythonFiles: [...under("python/", ".whl"), ...under("python/", ".tar.gz")],
    npmTarballs: under("npm/", ".tgz"),
    goModule,
  };
  const wrongVersion = [
    ...contents.pluginArchives,
    ...contents.pythonFiles,
    ...contents.npmTarballs,
  ]
    .map((f) => f.name)
    .filter((name) => !name.includes(contents.version));
  if (wrongVersion.length > 0) {
    throw new Error(
      `the release is version ${contents.version} (its Go SDK's pulumi-plugin.json), but ` +
        `${wrongVersion.join(", ")} ${wrongVersion.length === 1 ? "is" : "are"} not: build the release again.`,
    );
  }
  return contents;
}
