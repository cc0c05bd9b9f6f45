/**
 * A release folder read back and checked against its SHA256SUMS before anything is published.
 * Measured behaviour: docs/development.md#publishing
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
import { MANIFEST_FILE, type ReleaseManifest } from "./release-manifest";
import { PublishRefusal, ReleaseInputError } from "./errors";

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
  /** release.json's public address, when it says it is the placeholder. */
  placeholderAddress: string | undefined;
  /** The tag Go finds the public module's version by (the workflow pushes it). */
  goTag: string;
  /** The Go module path of the release's Go SDK. */
  goModulePath: string;
  /** The pluginDownloadURL every SDK names; undefined when the release was built without one. */
  pluginDownloadURL: string | undefined;
  pluginArchives: SummedFile[];
  pythonFiles: SummedFile[];
  /** In release.json's order: each after the packages of the release it depends on. */
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
        throw new PublishRefusal(
          sumsFile,
          `${sumsFile} lists ${listed}, outside the release folder: refused.`,
        );
      }
      files.set(name, { file, name, sha256 });
    }
  }
  if (files.size === 0) {
    throw new PublishRefusal(
      "SHA256SUMS",
      `${folder} has no SHA256SUMS listing its artifacts: it is not a whole release.`,
    );
  }
  for (const summed of files.values()) {
    const info = await lstat(summed.file).catch(() => undefined);
    if (info === undefined || !info.isFile()) {
      throw new PublishRefusal(
        summed.name,
        `${summed.name}, listed in the release's SHA256SUMS, is missing or not a file.`,
      );
    }
    const actual = await sha256Of(summed.file);
    if (actual !== summed.sha256) {
      throw new PublishRefusal(
        summed.name,
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
  if (file === undefined)
    throw new PublishRefusal(
      "pulumi-plugin.json",
      "the release's Go module has no pulumi-plugin.json",
    );
  const facts = JSON.parse(Buffer.from(file.data).toString("utf8")) as {
    version?: unknown;
    server?: unknown;
  };
  if (typeof facts.version !== "string") {
    throw new PublishRefusal(file.path, `the release's Go module's ${file.path} names no version`);
  }
  return {
    version: facts.version,
    ...(typeof facts.server === "string" && facts.server !== "" ? { server: facts.server } : {}),
  };
}

/** release.json, parsed; throws, naming what is missing, when it is not one. */
async function manifestOf(folder: string): Promise<ReleaseManifest> {
  const file = join(folder, MANIFEST_FILE);
  const text = await readFile(file, "utf8").catch(() => undefined);
  const manifest = text === undefined ? undefined : (JSON.parse(text) as Partial<ReleaseManifest>);
  const missing = (
    ["version", "publicAddress", "pluginDownloadURL", "plugin", "npm", "python", "go"] as const
  ).filter((key) => manifest?.[key] === undefined);
  if (manifest === undefined || missing.length > 0) {
    throw new PublishRefusal(
      file,
      `${file} ${manifest === undefined ? "is missing" : `names no ${missing.join(", ")}`}: ` +
        "the release folder is not whole. Build the release again.",
    );
  }
  return manifest as ReleaseManifest;
}

/** Throws unless what release.json says of the Go module is what the module's files say. */
function checkGoModule(manifest: ReleaseManifest, module: readonly ModuleFile[]): void {
  const goMod = module.find((f) => f.path === "go.mod");
  if (goMod === undefined)
    throw new PublishRefusal("go.mod", "the release's Go module has no go.mod");
  const plugin = pluginFacts(module);
  const said = [
    [
      "module path",
      manifest.go.modulePath,
      moduleOfGoMod(Buffer.from(goMod.data).toString("utf8")),
    ],
    ["version", manifest.version, plugin.version],
    ["Go version", manifest.go.version, `v${plugin.version}`],
    ["pluginDownloadURL", manifest.pluginDownloadURL, plugin.server],
  ] as const;
  const differing = said.filter(([, manifestSays, moduleSays]) => manifestSays !== moduleSays);
  if (differing.length > 0) {
    throw new PublishRefusal(
      "release.json",
      `release.json and the summed Go module disagree: ${differing
        .map(([what, a, b]) => `${what} ${a} against ${b ?? "(none)"}`)
        .join("; ")}. Build the release again.`,
    );
  }
}

/** Reads and checks the release in `folder`; throws, saying what is wrong, when it is not one. */
export async function readRelease(folder: string): Promise<ReleaseContents> {
  const marker = await lstat(join(folder, RELEASE_MARKER)).catch(() => undefined);
  if (marker === undefined || !marker.isFile()) {
    throw new ReleaseInputError(
      "--from",
      `${folder} is not a release folder (no ${RELEASE_MARKER}): give --from the --out folder ` +
        "of `npm run release`.",
    );
  }
  const manifest = await manifestOf(folder);
  const summed = new Map((await summedFiles(folder)).map((f) => [f.name, f]));
  const named = (names: readonly string[], what: string) =>
    names.map((name) => {
      const file = summed.get(name);
      if (file === undefined) {
        throw new PublishRefusal(
          name,
          `release.json names ${what} ${name}, which the release's SHA256SUMS does not list.`,
        );
      }
      return file;
    });
  const [goTarball] = named([manifest.go.tarball], "the Go module tarball");
  const goModule = await goModuleOf(goTarball!.file);
  checkGoModule(manifest, goModule);
  return {
    folder,
    version: manifest.version,
    placeholderAddress: manifest.publicAddress.placeholder
      ? manifest.publicAddress.address
      : undefined,
    goTag: manifest.go.tag,
    goModulePath: manifest.go.modulePath,
    pluginDownloadURL: manifest.pluginDownloadURL,
    pluginArchives: named(manifest.plugin.archives, "the plugin archive"),
    pythonFiles: named(manifest.python.files, "the Python file"),
    npmTarballs: named(
      manifest.npm.map((pkg) => pkg.file),
      "the npm tarball",
    ),
    goModule,
  };
}
