/**
 * The Go SDK as a module version in a GOPROXY folder, zipped as Go requires.
 * Measured behaviour: docs/development.md#the-go-module-in-a-goproxy-folder
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { runPublishingTool } from "./publishing-tool";
import { PublishRefusal, ReleaseInputError, ReleaseToolError } from "./errors";

/** golang.org/x/mod/zip's limits. */
const MAX_ZIP_BYTES = 500 * 1024 * 1024;
const MAX_GO_MOD_BYTES = 16 * 1024 * 1024;

/** A file of a module: its path inside the module (slash-separated) and its bytes. */
export interface ModuleFile {
  path: string;
  data: Uint8Array;
}

/** What publishing a version into the folder did. */
export interface GoProxyPublication {
  module: string;
  version: string;
  /** "published", or "unchanged" when the same content was there already. */
  outcome: "published" | "unchanged";
  /** The two go.sum lines of the version. */
  goSum: [string, string];
  /** The folder's files of this version. */
  files: string[];
}

/** Go's case-encoding of module paths and versions in proxy URLs and folders: `A` is `!a`. */
export function escapeForProxy(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);
}

/** A module path's element as golang.org/x/mod/module checks it, or why not. */
function elementProblem(element: string, kind: "module" | "file"): string | undefined {
  if (element === "") return "an empty path element";
  if (/^\.+$/.test(element)) return `the path element "${element}"`;
  if (kind === "module" && element.startsWith(".")) return `a leading dot in "${element}"`;
  if (element.endsWith(".")) return `a trailing dot in "${element}"`;
  const allowed =
    kind === "module" ? /^[A-Za-z0-9._~-]+$/u : /^[\p{L}A-Za-z0-9!#$%&()+,\-.=@[\]^_{}~ ]+$/u;
  if (!allowed.test(element)) return `a character Go refuses in "${element}"`;
  const short = element.split(".")[0]!;
  if (/^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])$/i.test(short)) {
    return `"${element}", a name Windows reserves`;
  }
  return undefined;
}

/** Throws unless `path` is a module path `go get` accepts for a version of `version`'s major. */
export function checkModulePath(path: string, version: string): void {
  const elements = path.split("/");
  const first = elements[0]!;
  const problem =
    (!/^[a-z0-9.-]+$/.test(first) || !first.includes(".") || first.startsWith("-")
      ? `its first element "${first}" is not a domain name (lower-case letters, digits, dots and dashes, with a dot)`
      : undefined) ?? elements.map((e) => elementProblem(e, "module")).find((p) => p !== undefined);
  if (problem !== undefined) {
    throw new ReleaseInputError(
      "--go-module-path",
      `Go module path "${path}" cannot be served by a module proxy: ${problem}. ` +
        "Build the release with --go-module-path set to a path that starts with a domain, " +
        "such as example.com/voiceplatform/sdk/go.",
    );
  }
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  const suffix = /^v(\d+)$/.exec(elements[elements.length - 1]!)?.[1];
  const expected = major >= 2 ? `v${major}` : undefined;
  if ((suffix === undefined ? undefined : `v${suffix}`) !== expected) {
    throw new ReleaseInputError(
      "--go-module-path",
      `Go module path "${path}" does not fit version ${version}: Go requires the path to end ` +
        `in /v${major} for major version ${major} and forbids such an ending below 2.`,
    );
  }
}

/** The Go version of a release version ("0.1.0" is "v0.1.0"); throws when Go has none for it. */
export function goVersion(version: string): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/.test(version)) {
    throw new ReleaseInputError(
      "--tag",
      `version "${version}" is not one Go accepts for a module (semantic version, no build metadata).`,
    );
  }
  return `v${version}`;
}

/** Why a module's files cannot be zipped as they are, listed; empty when they can. */
export function moduleFileProblems(files: readonly ModuleFile[]): string[] {
  const problems: string[] = [];
  const folded = new Map<string, string>();
  let total = 0;
  for (const { path, data } of files) {
    total += data.length;
    const problem = path
      .split("/")
      .map((e) => elementProblem(e, "file"))
      .find((p) => p !== undefined);
    if (problem !== undefined) problems.push(`${path}: not a valid module file path (${problem})`);
    const key = path.toLowerCase();
    const other = folded.get(key);
    if (other !== undefined) problems.push(`${path} and ${other} differ only in case`);
    folded.set(key, path);
    if (posix.basename(path).toLowerCase() === "go.mod" && path !== "go.mod") {
      problems.push(`${path}: a go.mod below the top folder (a nested module)`);
    }
    if (path === "go.mod" && data.length > MAX_GO_MOD_BYTES) problems.push("go.mod over 16 MiB");
    if (/(^|\/)vendor\//.test(path)) problems.push(`${path}: a vendor folder`);
  }
  if (total > MAX_ZIP_BYTES) problems.push(`${total} bytes in all, over Go's 500 MiB`);
  if (!files.some((f) => f.path === "go.mod")) problems.push("no go.mod at the top");
  return problems;
}

/** Every regular file under `dir`, sorted by path; refuses links and version-control folders. */
export async function readModuleFolder(dir: string): Promise<ModuleFile[]> {
  const files: ModuleFile[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if ([".git", ".hg", ".svn", ".bzr"].includes(entry.name)) {
          throw new PublishRefusal(
            path,
            `the Go module folder holds a version-control folder, ${path}/`,
          );
        }
        await walk(path);
      } else if (entry.isFile()) {
        files.push({ path, data: await readFile(join(dir, path)) });
      } else {
        throw new PublishRefusal(
          path,
          `the Go module folder holds ${path}, which is not a regular file`,
        );
      }
    }
  };
  await walk("");
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The module's go.mod names this module path; throws otherwise. */
export function moduleOfGoMod(goMod: string): string {
  const path = /^module\s+("?)([^\s"]+)\1\s*$/m.exec(goMod)?.[2];
  if (path === undefined)
    throw new PublishRefusal("go.mod", "the Go module's go.mod has no module line");
  return path;
}

/** The `h1:` hash Go records in go.sum for files named `names` (golang.org/x/mod/sumdb/dirhash). */
export function hash1(files: readonly { name: string; data: Uint8Array }[]): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${createHash("sha256").update(f.data).digest("hex")}  ${f.name}\n`);
  return `h1:${createHash("sha256").update(lines.join("")).digest("base64")}`;
}

/** The module zip's bytes: entries under `<module>@<version>/`, sorted, with a fixed time. */
export function moduleZip(module: string, version: string, files: readonly ModuleFile[]): Buffer {
  const entries: Zippable = {};
  // The zip format's earliest time; Go ignores it, and a fixed one makes the same bytes each time.
  const mtime = new Date(1980, 0, 1);
  for (const file of files) entries[`${module}@${version}/${file.path}`] = [file.data, { mtime }];
  return Buffer.from(zipSync(entries, { level: 9 }));
}

/** The files of a module zip, named as in the zip. */
function zipEntries(zip: Uint8Array): { name: string; data: Uint8Array }[] {
  return Object.entries(unzipSync(zip))
    .filter(([name]) => !name.endsWith("/"))
    .map(([name, data]) => ({ name, data }));
}

/** The go.sum lines of a module version from its zip's files and go.mod. */
function goSumLines(
  module: string,
  version: string,
  zipFiles: { name: string; data: Uint8Array }[],
  goMod: Uint8Array,
): [string, string] {
  return [
    `${module} ${version} ${hash1(zipFiles)}`,
    `${module} ${version}/go.mod ${hash1([{ name: "go.mod", data: goMod }])}`,
  ];
}

/** Writes `data` to `file` through a temporary name in its folder, so no reader sees half. */
async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${file}.publishing-${process.pid}`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}

/**
 * Publishes the module `files` (a go.mod at the top naming `module`) as `version` into the
 * GOPROXY folder `folder`: the zip and go.mod first, then .info, then the version in `list`, so
 * no client finds a version whose files are not all there. `time` is the .info's time.
 */
export async function publishToGoProxyFolder(options: {
  folder: string;
  files: readonly ModuleFile[];
  version: string;
  time: Date;
}): Promise<GoProxyPublication> {
  const { folder, files, version } = options;
  const goMod = files.find((f) => f.path === "go.mod")?.data;
  if (goMod === undefined)
    throw new PublishRefusal("go.mod", "the Go module has no go.mod at the top");
  const module = moduleOfGoMod(Buffer.from(goMod).toString("utf8"));
  checkModulePath(module, version);
  const problems = moduleFileProblems(files);
  if (problems.length > 0) {
    throw new PublishRefusal(
      module,
      `the Go module ${module} cannot be zipped as Go requires:\n  ${problems.join("\n  ")}`,
    );
  }
  const zip = moduleZip(module, version, files);
  const goSum = goSumLines(module, version, zipEntries(zip), goMod);
  const dir = join(folder, escapeForProxy(module), "@v");
  const base = join(dir, escapeForProxy(version));
  const paths = [`${base}.mod`, `${base}.zip`, `${base}.info`, join(dir, "list")];
  const outcome = (await existingVersion(base, module, version, goSum)) ?? "published";
  if (outcome === "published") {
    await mkdir(dir, { recursive: true });
    await writeWhole(`${base}.mod`, goMod);
    await writeWhole(`${base}.zip`, zip);
    const time = options.time.toISOString().replace(/\.\d+Z$/, "Z");
    await writeWhole(`${base}.info`, `${JSON.stringify({ Version: version, Time: time })}\n`);
  }
  // Also when unchanged: a publish stopped before this line left the version out of the list.
  await addToList(join(dir, "list"), version);
  return { module, version, outcome, goSum, files: paths };
}

/** Adds `version` to the folder's version list unless it is there. */
async function addToList(list: string, version: string): Promise<void> {
  const listed = existsSync(list) ? (await readFile(list, "utf8")).split("\n") : [];
  const versions = listed.filter((v) => v.trim() !== "");
  if (versions.includes(version)) return;
  await writeWhole(list, `${[...versions, version].join("\n")}\n`);
}

/**
 * "unchanged" when the folder already holds `version` with the same content (its zip's files
 * and go.mod hash as `goSum`), undefined when it holds none; throws when it holds other content.
 */
async function existingVersion(
  base: string,
  module: string,
  version: string,
  goSum: [string, string],
): Promise<"unchanged" | undefined> {
  const present = [".zip", ".mod", ".info"].filter((ext) => existsSync(`${base}${ext}`));
  if (present.length === 0) return undefined;
  const refuse = (why: string) =>
    new PublishRefusal(
      `${module}@${version}`,
      `${module}@${version} is already in the GOPROXY folder with ${why}: a published module ` +
        "version never changes (go.sum files pin it). Publish the release under a new version.",
    );
  if (present.length < 3) {
    throw refuse(
      `only ${present.join(", ")} (an interrupted publish?); remove those files if no one fetched them`,
    );
  }
  for (const ext of [".zip", ".mod"]) {
    if (!(await lstat(`${base}${ext}`)).isFile()) throw refuse(`a ${ext} that is not a file`);
  }
  const there = goSumLines(
    module,
    version,
    zipEntries(await readFile(`${base}.zip`)),
    await readFile(`${base}.mod`),
  );
  if (there[0] !== goSum[0] || there[1] !== goSum[1]) {
    throw refuse(
      `other content (${there[0].split(" ")[2]}, this release ${goSum[0].split(" ")[2]})`,
    );
  }
  return "unchanged";
}

/**
 * Fetches `module@version` from the GOPROXY folder with Go itself (`go mod download`, which
 * checks the zip by Go's own rules) into a throwaway module cache, and compares the sums Go
 * computes with `goSum`. Throws when Go refuses the version or sums it otherwise.
 */
export async function verifyWithGo(
  publication: GoProxyPublication,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), "voiceplatform-publish-gocheck-"));
  try {
    const { stdout } = await runPublishingTool(
      "go",
      ["mod", "download", "-json", `${publication.module}@${publication.version}`],
      {
        cwd: scratch,
        env: {
          ...env,
          GOPROXY: pathToFileURL(folder).href,
          GONOSUMDB: publication.module,
          GOMODCACHE: join(scratch, "modcache"),
          GOFLAGS: "-modcacherw",
          GOWORK: "off",
          GOTOOLCHAIN: "local",
        },
      },
    );
    const fetched = JSON.parse(stdout) as { Sum?: string; GoModSum?: string };
    const sums = publication.goSum.map((line) => line.split(" ")[2]);
    if (fetched.Sum !== sums[0] || fetched.GoModSum !== sums[1]) {
      throw new ReleaseToolError(
        "go mod download",
        `go mod download sums ${publication.module}@${publication.version} as ${fetched.Sum} ` +
          `(go.mod ${fetched.GoModSum}), the publish computed ${sums[0]} (go.mod ${sums[1]}).`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
