/**
 * Lock holders on an Azure Blob state backend, read (read-only) with the official Azure SDK.
 * Measured behaviour: docs/operations.md#how-preflight-reads-the-locks
 */
import type { ContainerClient, StoragePipelineOptions } from "@azure/storage-blob";
import {
  backendDeadline,
  BACKEND_TIMEOUT_VARIABLE,
  limitText,
  stepMilliseconds,
  type BackendDeadline,
} from "./backend-deadline";
import { BackendReadError, BackendTimeoutError } from "../errors";
import { loadAzureBlobClient } from "./backend-clients";
import { isLockKey, LOCK_READ_STEPS, lockRecordOf } from "./lock-objects";

export function isAzureBlobBackend(url: string): boolean {
  return /^azblob:\/\//i.test(url);
}

function flag(value: string | undefined | null): boolean {
  return value !== undefined && value !== null && /^(1|t|true)$/i.test(value);
}

/** Where the container is and which credential reaches it, with no secret in it but by name. */
export interface AzureBlobSettings {
  readonly container: string;
  /** The service URL without a SAS token. */
  readonly serviceUrl: string;
  readonly credential:
    | { kind: "shared-key"; account: string; key: string }
    | { kind: "sas"; token: string }
    | { kind: "connection-string"; connectionString: string }
    | { kind: "entra-id" };
}

export function azureBlobSettings(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
): AzureBlobSettings {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  const pick = (name: string, variable: string) =>
    query.get(name) ?? (env[variable] === "" ? undefined : env[variable]);
  const account = pick("storage_account", "AZURE_STORAGE_ACCOUNT");
  const domain = pick("domain", "AZURE_STORAGE_DOMAIN") ?? "blob.core.windows.net";
  const protocol = pick("protocol", "AZURE_STORAGE_PROTOCOL") ?? "https";
  const emulator = flag(pick("localemu", "AZURE_STORAGE_IS_LOCAL_EMULATOR"));
  const cdn = flag(pick("cdn", "AZURE_STORAGE_IS_CDN"));
  const key = env.AZURE_STORAGE_KEY || undefined;
  const sas = env.AZURE_STORAGE_SAS_TOKEN || undefined;
  const connectionString =
    env.AZURE_STORAGE_CONNECTION_STRING || env.AZURE_STORAGEBLOB_CONNECTIONSTRING || undefined;
  if (protocol !== "http" && protocol !== "https") {
    throw new BackendReadError(`the Azure Blob protocol "${protocol}" is neither http nor https`);
  }
  const container = decodeURIComponent(parsed.hostname);
  if (account === undefined && connectionString === undefined) {
    throw new BackendReadError(
      "no Azure storage account: set AZURE_STORAGE_ACCOUNT (or the URL's storage_account), as for `pulumi`",
    );
  }
  const serviceUrl =
    account === undefined
      ? ""
      : domain.startsWith("127.0.0.1") || domain.startsWith("localhost") || emulator
        ? `${protocol}://${domain}/${account}`
        : cdn
          ? `${protocol}://${domain}`
          : `${protocol}://${account}.${domain}`;
  const credential: AzureBlobSettings["credential"] =
    account !== undefined && key !== undefined
      ? { kind: "shared-key", account, key }
      : sas !== undefined
        ? { kind: "sas", token: sas.replace(/^\?/, "") }
        : connectionString !== undefined
          ? { kind: "connection-string", connectionString }
          : { kind: "entra-id" };
  return { container, serviceUrl, credential };
}

/** The backend's container, with the credentials `pulumi` uses, within the deadline's steps. */
export async function containerClient(
  settings: AzureBlobSettings,
  deadline: BackendDeadline,
): Promise<ContainerClient> {
  const blob = await loadAzureBlobClient();
  const options: StoragePipelineOptions = {
    retryOptions: {
      maxTries: 3,
      tryTimeoutInMs: stepMilliseconds(LOCK_READ_STEPS.attemptSeconds, deadline),
    },
  };
  const { credential } = settings;
  switch (credential.kind) {
    case "shared-key":
      return new blob.BlobServiceClient(
        settings.serviceUrl,
        new blob.StorageSharedKeyCredential(credential.account, credential.key),
        options,
      ).getContainerClient(settings.container);
    case "sas":
      return new blob.BlobServiceClient(
        `${settings.serviceUrl}?${credential.token}`,
        new blob.AnonymousCredential(),
        options,
      ).getContainerClient(settings.container);
    case "connection-string":
      return blob.BlobServiceClient.fromConnectionString(
        credential.connectionString,
        options,
      ).getContainerClient(settings.container);
    case "entra-id": {
      const identity = await import("@azure/identity").catch(() => {
        throw new BackendReadError(
          "no AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN or AZURE_STORAGE_CONNECTION_STRING is set, and reading the container with an Entra ID login needs the optional package @azure/identity: `npm install --save-dev @azure/identity` in the project, or set one of those variables",
        );
      });
      return new blob.BlobServiceClient(
        settings.serviceUrl,
        new identity.DefaultAzureCredential(),
        options,
      ).getContainerClient(settings.container);
    }
  }
}

/**
 * The JSON of every lock blob under the prefixes. Every request carries the deadline's signal:
 * when it passes, the SDK aborts what is in flight and the read fails, naming the container.
 */
export async function azureBlobLockRecords(
  url: string,
  prefixes: readonly string[],
  deadline: BackendDeadline = backendDeadline(),
): Promise<Record<string, unknown>[]> {
  const settings = azureBlobSettings(url);
  const where = `the Azure Blob container "${settings.container}"${settings.serviceUrl === "" ? "" : ` at ${settings.serviceUrl}`}`;
  const check = `check that this machine reaches the storage account with the credentials \`pulumi\` uses (here: ${describeCredential(settings)})`;
  try {
    return await lockBlobs(await containerClient(settings, deadline), prefixes, deadline.signal);
  } catch (error) {
    if (error instanceof BackendReadError) throw error;
    if (deadline.signal.aborted) {
      throw new BackendTimeoutError(
        `could not read the stack's locks from ${where}: no answer within ${limitText(deadline)}; ${check}, and that the service answers (not stopped, paused or overloaded); if it is only slow, raise ${BACKEND_TIMEOUT_VARIABLE}`,
      );
    }
    const { name, message } = error as Error;
    throw new BackendReadError(
      `could not read the stack's locks from ${where} (${name}: ${withoutSecrets(firstLine(message), settings)}); ${check}`,
    );
  }
}

async function lockBlobs(
  container: ContainerClient,
  prefixes: readonly string[],
  abortSignal: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for (const prefix of prefixes) {
    for await (const item of container.listBlobsFlat({ prefix, abortSignal })) {
      if (!isLockKey(item.name)) continue;
      const bytes = await container
        .getBlobClient(item.name)
        .downloadToBuffer(undefined, undefined, { abortSignal })
        .catch((error: { statusCode?: number }) => {
          // A lock released while listing: the CLI ignores it too.
          if (error.statusCode === 404) return undefined;
          throw error;
        });
      if (bytes !== undefined) records.push(lockRecordOf(bytes));
    }
  }
  return records;
}

function describeCredential(settings: AzureBlobSettings): string {
  switch (settings.credential.kind) {
    case "shared-key":
      return "AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY";
    case "sas":
      return "AZURE_STORAGE_SAS_TOKEN";
    case "connection-string":
      return "AZURE_STORAGE_CONNECTION_STRING";
    case "entra-id":
      return "an Entra ID login through DefaultAzureCredential";
  }
}

/** A SAS signature or key an error may quote, taken out. */
function withoutSecrets(text: string, settings: AzureBlobSettings): string {
  const { credential } = settings;
  const secrets =
    credential.kind === "shared-key"
      ? [credential.key]
      : credential.kind === "sas"
        ? [credential.token]
        : credential.kind === "connection-string"
          ? [credential.connectionString]
          : [];
  let scrubbed = text.replace(/([?&]sig=)[^&\s]+/gi, "$1[secret]");
  for (const secret of secrets) scrubbed = scrubbed.split(secret).join("[secret]");
  return scrubbed;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}
