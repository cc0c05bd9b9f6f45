/**
 * The release's wheel and sdist uploaded with twine, after what the index already holds.
 * Measured behaviour: docs/development.md#publishing
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { defaultToolsFolder } from "./tools-folder";
import { pythonToolVenv } from "./sdk-packages";
import { runPublishingTool } from "./publishing-tool";
import { PublishRefusal, ReleaseToolError } from "./errors";

export const TWINE_VERSION = "7.0.0";

export interface PythonPublication {
  published: string[];
  unchanged: string[];
}

async function twinePython(toolsFolder: string): Promise<string> {
  return pythonToolVenv(toolsFolder, `twine-${TWINE_VERSION}`, [`twine==${TWINE_VERSION}`]);
}

/** `twine check` of the files; throws with what it found. */
export async function checkPythonFiles(
  files: readonly string[],
  env: NodeJS.ProcessEnv,
  toolsFolder = defaultToolsFolder(),
): Promise<void> {
  const python = await twinePython(toolsFolder);
  await runPublishingTool(python, ["-m", "twine", "check", ...files], { env });
}

/** A distribution's project name, normalized as PEP 503 names its page. */
export function projectOfFile(file: string): string {
  const name = /^([A-Za-z0-9._]+?)-\d/.exec(basename(file))?.[1];
  if (name === undefined)
    throw new PublishRefusal(
      basename(file),
      `${basename(file)} is not named like a wheel or sdist`,
    );
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** The files a PEP 503 project page lists, by name, with the sha256 its links carry. */
export function listedFiles(page: string): Map<string, string | undefined> {
  const files = new Map<string, string | undefined>();
  for (const match of page.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([^<]+)<\/a>/gi)) {
    files.set(match[2]!.trim(), /#sha256=([0-9a-f]{64})/i.exec(match[1]!)?.[1]?.toLowerCase());
  }
  return files;
}

/** What the index lists of the project (empty when it has no page for it). */
async function filesOnIndex(index: URL, project: string): Promise<Map<string, string | undefined>> {
  const page = new URL(`${project}/`, index.href.endsWith("/") ? index : `${index.href}/`);
  const response = await fetch(page, { signal: AbortSignal.timeout(60_000) });
  if (response.status === 404) return new Map();
  if (!response.ok) {
    throw new ReleaseToolError(
      "python index",
      `the Python index answered ${response.status} for ${page.origin}${page.pathname}`,
    );
  }
  return listedFiles(await response.text());
}

/** Which files to upload, after comparing them with what `index` lists; throws on a mismatch. */
async function notYetOnIndex(
  files: readonly string[],
  index: URL,
): Promise<{ upload: string[]; unchanged: string[] }> {
  const result = { upload: [] as string[], unchanged: [] as string[] };
  const listed = new Map<string, Map<string, string | undefined>>();
  for (const file of files) {
    const project = projectOfFile(file);
    if (!listed.has(project)) listed.set(project, await filesOnIndex(index, project));
    const name = basename(file);
    if (!listed.get(project)!.has(name)) {
      result.upload.push(file);
      continue;
    }
    const there = listed.get(project)!.get(name);
    const ours = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
    if (there !== ours) {
      throw new PublishRefusal(
        name,
        `python: ${name} is already on the index with ${there === undefined ? "no sha256 to compare" : `sha256 ${there}`}, ` +
          `this release's is ${ours}: an index never takes a file name twice. Publish the release under a new version.`,
      );
    }
    result.unchanged.push(name);
  }
  return result;
}

/** Uploads the files not yet on the index (all of them without `index`); see the file's comment. */
export async function publishToPython(options: {
  files: readonly string[];
  repository: URL;
  index?: URL;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  toolsFolder?: string;
}): Promise<PythonPublication> {
  const { upload, unchanged } =
    options.index === undefined
      ? { upload: [...options.files], unchanged: [] }
      : await notYetOnIndex(options.files, options.index);
  for (const name of unchanged) {
    options.log(`python: ${name} is already on the index with the same sha256: left as it is`);
  }
  if (upload.length > 0) {
    const python = await twinePython(options.toolsFolder ?? defaultToolsFolder());
    const args = ["-m", "twine", "upload", "--non-interactive", "--disable-progress-bar"];
    await runPublishingTool(
      python,
      [...args, "--repository-url", options.repository.href, ...upload],
      // No keyring lookups: credentials come from the environment or nowhere.
      { env: { ...options.env, PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring" } },
    ).catch((error: Error) => {
      const exists = /already exists|\b409\b|conflict/i.test(error.message);
      throw exists && options.index === undefined
        ? new ReleaseToolError(
            "twine",
            `${error.message}\nGive --python-index <the index's simple URL> so that a run ` +
              "compares what the index holds and uploads only what is missing.",
            { cause: error },
          )
        : error;
    });
    for (const file of upload) options.log(`python: uploaded ${basename(file)}`);
  }
  return { published: upload.map((file) => basename(file)), unchanged };
}
