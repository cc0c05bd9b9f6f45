/**
 * Which state backend `pulumi` uses, found without asking it (a `pulumi whoami` reads the backend
 * too, and hangs with it), and how a message names that backend without any credential in it.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { azureBlobSettings, isAzureBlobBackend } from "./azblob-locks";
import { isPostgresBackend, postgresTarget } from "./postgres-locks";
import { isS3Backend, s3ClientSettings } from "./s3-locks";
import { fileBackendDirectory } from "./stack-lock";

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

/**
 * The backend as a message names it: its kind and host, never a user name, password, key or
 * token (a PostgreSQL URL may hold a password, an S3 or Azure one a SAS or profile).
 */
export function describeBackend(url: string | undefined): string {
  if (url === undefined) return "the state backend `pulumi` is logged into";
  try {
    return describeKnownBackend(url);
  } catch {
    // A URL the readers refuse (they say why when they read it): its kind is enough here.
    return `the state backend (${url.split(":")[0]}://…)`;
  }
}

function describeKnownBackend(url: string): string {
  const folder = fileBackendDirectory(url);
  if (folder !== undefined) return `the state folder ${folder}`;
  if (isS3Backend(url)) {
    const { bucket, config } = s3ClientSettings(url);
    const where =
      config.endpoint !== undefined
        ? ` at ${new URL(String(config.endpoint)).origin}`
        : typeof config.region === "string"
          ? ` (region ${config.region})`
          : "";
    return `the S3 bucket "${bucket}"${where}`;
  }
  if (isAzureBlobBackend(url)) {
    const settings = azureBlobSettings(url);
    const where = settings.serviceUrl === "" ? "" : ` at ${settings.serviceUrl}`;
    return `the Azure Blob container "${settings.container}"${where}`;
  }
  if (isPostgresBackend(url)) {
    const target = postgresTarget(url);
    return `the PostgreSQL server at ${target.host}:${target.port}`;
  }
  const parsed = new URL(url);
  if (parsed.protocol === "gs:") return `the Google Cloud Storage bucket "${parsed.hostname}"`;
  if (parsed.protocol === "https:" || parsed.protocol === "http:") {
    return `the Pulumi Cloud service at ${parsed.origin}`;
  }
  return `the state backend (${parsed.protocol}//${parsed.hostname})`;
}
