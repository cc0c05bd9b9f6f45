/**
 * The state backends' clients, optional peer dependencies of the package (package.json): a team
 * installs only the one its backend needs. Each is loaded here, on first use, by a literal
 * import() (so the plugin's bundle still holds it); a missing one is said in one line with the
 * `npm install` that fixes it.
 */
import { BackendClientMissing } from "../errors";

/** Each client: its package, package.json's peer range for it, and the backend it reads. */
export const BACKEND_CLIENTS = {
  s3: { name: "@aws-sdk/client-s3", range: "^3.1175.0", backend: "An S3-compatible" },
  azureBlob: { name: "@azure/storage-blob", range: "~12.32.0", backend: "An Azure Blob" },
  postgres: { name: "postgres", range: "^3.4.9", backend: "A PostgreSQL" },
} as const;

type BackendClient = (typeof BACKEND_CLIENTS)[keyof typeof BACKEND_CLIENTS];

/** The command that installs the client, quoted so that no shell (cmd's `^`) changes the range. */
export function installCommand(client: BackendClient): string {
  return `npm install "${client.name}@${client.range}"`;
}

/**
 * The failure of loading `client`: BackendClientMissing when the package itself is not installed
 * (not when something it needs is missing: that error is rethrown as it is).
 */
function missingClient(client: BackendClient): (error: unknown) => never {
  return (error) => {
    const { code, message } = error as NodeJS.ErrnoException;
    const notFound = code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND";
    if (!notFound || !String(message).includes(`'${client.name}'`)) throw error;
    throw new BackendClientMissing(
      `${client.backend} state backend is read and written with the optional package ${client.name}, which is not installed here: run \`${installCommand(client)}\` in the project`,
      installCommand(client),
    );
  };
}

export function loadS3Client(): Promise<typeof import("@aws-sdk/client-s3")> {
  return import("@aws-sdk/client-s3").catch(missingClient(BACKEND_CLIENTS.s3));
}

export function loadAzureBlobClient(): Promise<typeof import("@azure/storage-blob")> {
  return import("@azure/storage-blob").catch(missingClient(BACKEND_CLIENTS.azureBlob));
}

export async function loadPostgresClient(): Promise<typeof import("postgres")> {
  return (await import("postgres").catch(missingClient(BACKEND_CLIENTS.postgres))).default;
}
