/**
 * Which state backend `pulumi` uses, found without asking it (a `pulumi whoami` reads the backend
 * too, and hangs with it), and how a message names that backend without any credential in it.
 */
import { azureBlobSettings, isAzureBlobBackend } from "./azblob-locks";
import { isPostgresBackend, postgresTarget } from "./postgres-locks";
import { isS3Backend, s3ClientSettings } from "./s3-locks";
import { configuredBackendUrl, fileBackendDirectory } from "../../settings/backend-location";

export { configuredBackendUrl };

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
