/**
 * Where a project's ledger is: VOICEPLATFORM_LEDGER when set, else the state backend `pulumi` uses
 * (as the CLI chooses it), so a team keeps it with its state and runs nothing new: a file
 * backend's folder, an S3-compatible bucket, an Azure Blob container, a PostgreSQL state table.
 * Elsewhere (Pulumi Cloud, Google Cloud Storage) VOICEPLATFORM_LEDGER names a place every runner
 * shares.
 */
import { isAbsolute, resolve } from "node:path";
import { isAzureBlobBackend } from "../cli/backends/azblob-locks";
import { isPostgresBackend } from "../cli/backends/postgres-locks";
import { isS3Backend } from "../cli/backends/s3-locks";
import { configuredBackendUrl, fileBackendDirectory } from "../settings/backend-location";
import {
  azureBlobStore,
  folderStore,
  postgresStore,
  s3Store,
  type LedgerStore,
} from "./ledger-stores";

export const LEDGER_VARIABLE = "VOICEPLATFORM_LEDGER";

/** The store, or why there is none here (said once by the provider, and by the command). */
export type LedgerLocation =
  { readonly store: LedgerStore } | { readonly missing: string; readonly fix: string };

const FIX = `set ${LEDGER_VARIABLE} to a place every runner of the team shares: a folder (file:///path, or an absolute path) or an S3, Azure Blob or PostgreSQL URL as \`pulumi login\` takes it`;

/** The store on a backend the ledger writes beside the state, with that backend's credentials. */
function backendStore(url: string): LedgerStore | undefined {
  if (isS3Backend(url)) return s3Store(url);
  if (isAzureBlobBackend(url)) return azureBlobStore(url);
  if (isPostgresBackend(url)) return postgresStore(url);
  return undefined;
}

export function ledgerLocation(
  projectDir: string,
  env: NodeJS.ProcessEnv = process.env,
): LedgerLocation {
  const set = env[LEDGER_VARIABLE]?.trim();
  if (set !== undefined && set !== "") {
    const folder = set.startsWith("file://")
      ? fileBackendDirectory(set)
      : isAbsolute(set)
        ? resolve(set)
        : undefined;
    if (folder !== undefined) return { store: folderStore(folder) };
    const store = backendStore(set);
    if (store !== undefined) return { store };
    return {
      missing: `${LEDGER_VARIABLE} is "${set}", which is no backend URL the ledger writes (file://, s3://, azblob://, postgres://) nor an absolute path`,
      fix: FIX,
    };
  }
  const backend = configuredBackendUrl(projectDir, env);
  const folder = backend === undefined ? undefined : fileBackendDirectory(backend);
  if (folder !== undefined) return { store: folderStore(folder) };
  const store = backend === undefined ? undefined : backendStore(backend);
  if (store !== undefined) return { store };
  return {
    missing:
      backend === undefined
        ? "no state backend is configured here (PULUMI_BACKEND_URL, Pulumi.yaml's backend.url or `pulumi login`)"
        : `the state backend (${backend.split(":")[0]}://…) is not one the ledger writes (a folder, S3, Azure Blob, PostgreSQL), and ${LEDGER_VARIABLE} is not set`,
    fix: FIX,
  };
}
