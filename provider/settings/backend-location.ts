/**
 * Where `pulumi`'s state lives, found without running it: the backend URL as the CLI chooses it,
 * and a file backend's folder. Pure reads of the environment and two files, so the provider's
 * ledger (provider/ledger/) and the commands (provider/cli/) share them.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The backend URL as the CLI chooses it (pkg/workspace/creds.go, GetCurrentCloudURL, at
 * v3.248.0): PULUMI_BACKEND_URL, else the project's `backend.url`, else the login's `current`.
 */
export function configuredBackendUrl(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  const fromProject = projectBackendUrl(projectDir);
  if (fromProject !== undefined) return fromProject;
  const home = env.PULUMI_HOME || join(homedir(), ".pulumi");
  try {
    const credentials = JSON.parse(readFileSync(join(home, "credentials.json"), "utf8")) as {
      current?: unknown;
    };
    return typeof credentials.current === "string" && credentials.current !== ""
      ? credentials.current
      : undefined;
  } catch {
    return undefined;
  }
}

/** `backend: url:` of the project's Pulumi.yaml. */
function projectBackendUrl(projectDir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const path = join(projectDir, file);
    if (!existsSync(path)) continue;
    const block = /^backend:[ \t]*\r?\n((?:[ \t]+\S.*\r?\n?)+)/m.exec(readFileSync(path, "utf8"));
    return block === null ? undefined : /^[ \t]+url:[ \t]*["']?([^"'\s#]+)/m.exec(block[1]!)?.[1];
  }
  return undefined;
}

/** The folder of a `file://` backend, or undefined for any other backend. */
export function fileBackendDirectory(url: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const withoutQuery = url.replace(/\?.*$/, "");
  // `pulumi login --local` and `file://~` both mean the home folder.
  if (withoutQuery === "file://~" || withoutQuery.startsWith("file://~/")) {
    return join(homedir(), withoutQuery.slice("file://~".length));
  }
  return fileURLToPath(withoutQuery);
}
