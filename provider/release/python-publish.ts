/**
 * The release's wheel and sdist uploaded with twine to a repository URL (PyPI's upload URL, a
 * pypiserver, a private index). twine comes pinned from the private tools folder (a virtualenv
 * made on first use, as the release's `build` is) and reads its credentials from TWINE_USERNAME
 * and TWINE_PASSWORD (for PyPI: `__token__` and an API token), never from a command line.
 * `twine check` runs first, so metadata an index would refuse stops the publish before anything
 * goes out; `--skip-existing` makes a re-run after a failure upload only what is missing (an index
 * never takes a file name twice, whatever its bytes).
 */
import { defaultToolsFolder } from "./tools-folder";
import { pythonToolVenv } from "./sdk-packages";
import { runPublishingTool } from "./publishing-tool";

export const TWINE_VERSION = "7.0.0";

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

/** Uploads the files; answers what twine printed, redacted. */
export async function publishToPython(options: {
  files: readonly string[];
  repository: URL;
  env: NodeJS.ProcessEnv;
  toolsFolder?: string;
}): Promise<string> {
  const python = await twinePython(options.toolsFolder ?? defaultToolsFolder());
  const { stdout, stderr } = await runPublishingTool(
    python,
    [
      "-m",
      "twine",
      "upload",
      "--non-interactive",
      "--disable-progress-bar",
      "--skip-existing",
      "--repository-url",
      options.repository.href,
      ...options.files,
    ],
    // No keyring lookups: credentials come from the environment or nowhere.
    { env: { ...options.env, PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring" } },
  );
  return `${stdout}${stderr}`;
}
