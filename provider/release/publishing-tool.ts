/**
 * Runs the registries' own clients (npm, twine, go) for `npm run release:publish`, with every
 * credential kept out of what is printed or thrown: the credentials reach the tools through the
 * environment only, and everything the tools print passes through the provider's redaction
 * (every remembered secret blanked in any case and encoding) before anyone sees it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { isFindable, redactSecrets, rememberSecret } from "../platform/redaction";
import { ReleaseToolError } from "./errors";

const run = promisify(execFile);

/** The environment variables that carry publishing credentials. */
export const CREDENTIAL_VARIABLES = ["NODE_AUTH_TOKEN", "TWINE_USERNAME", "TWINE_PASSWORD"];

/** Remembers every credential in `env` so that no output of a tool shows it. */
export function rememberCredentials(env: NodeJS.ProcessEnv): void {
  for (const name of CREDENTIAL_VARIABLES) rememberSecret(env[name]);
}

/**
 * A tool's output as it may be shown: redacted, or withheld whole when a credential is too short
 * to be searched for (redaction.ts), since it could then show in it unnoticed.
 */
function shown(output: string, env: NodeJS.ProcessEnv): string {
  const short = CREDENTIAL_VARIABLES.filter((name) => {
    const value = env[name];
    return value !== undefined && value !== "" && !isFindable(value);
  });
  if (short.length > 0 && output !== "") {
    return `[output withheld: ${short.join(", ")} ${short.length === 1 ? "is" : "are"} too short to be blanked in it]`;
  }
  return redactSecrets(output);
}

/** Runs `file args`, answering its redacted output; throws with it, redacted, on failure. */
export async function runPublishingTool(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  rememberCredentials(options.env);
  const command = redactSecrets([file, ...args].join(" "));
  try {
    const { stdout, stderr } = await run(file, [...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout: shown(stdout, options.env), stderr: shown(stderr, options.env) };
  } catch (error) {
    const { stdout, stderr, message } = error as Error & { stdout?: string; stderr?: string };
    const output = [stdout ?? "", stderr ?? ""].join("").trim() || message;
    throw new ReleaseToolError(command, `${command} failed:\n${shown(output, options.env)}`);
  }
}
