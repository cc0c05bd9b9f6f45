/**
 * Where a project's ledger is: VOICEPLATFORM_LEDGER when set, else the state backend `pulumi` uses
 * (as the CLI chooses it), so a team keeps it with its state and runs nothing new: a file
 * backend's folder, an S3-compatible bucket, an Azure Blob container, a PostgreSQL state table.
 * Elsewhere (Pulumi Cloud, Google Cloud Storage) VOICEPLATFORM_LEDGER names a place every runner
 * shares.
 */
import { isAbsolute, resolve } from "node:path";
import { configuredBackendUrl, fileBackendDirectory } from "../settings/backend-location";
import { folderStore, type LedgerStore } from "./ledger-stores";

export const LEDGER_VARIABLE = "VOICEPLATFORM_LEDGER";

/** The store, or why there is none here (said once by the provider, and by the command). */
export type LedgerLocation =
  { readonly store: LedgerStore } | { readonly missing: string; readonly fix: string };

const FIX = `set ${LEDGER_VARIABLE} to a place every runner of the team shares: a folder (file:///path, or an absolute path) or an S3, Azure Blob or PostgreSQL URL as \`pulumi login\` takes it`;

/** The backends the ledger writes beside the state, by their URL's scheme. */
const BACKEND_STORES = [
  { scheme: /^s3:\/\//i, named: "S3 bucket", store: "s3Store" },
  { scheme: /^azblob:\/\//i, named: "Azure Blob container", store: "azureBlobStore" },
  { scheme: /^postgres(ql)?:\/\//i, named: "PostgreSQL server", store: "postgresStore" },
] as const;

/**
 * The store on a backend the ledger writes beside the state, with that backend's credentials,
 * its module (and client) loaded at the first read or write.
 */
function backendStore(url: string): LedgerStore | undefined {
  const found = BACKEND_STORES.find(({ scheme }) => scheme.test(url));
  if (found === undefined) return undefined;
  let loaded: Promise<LedgerStore> | undefined;
  const store = () =>
    (loaded ??= import("./backend-stores").then((stores) => stores[found.store](url)));
  return {
    // Only the host: a URL may hold a password or a token.
    where: `the ${found.named} ${new URL(url).hostname} (prefix .pulumi/voiceplatform-ledger/)`,
    write: async (entry) => (await store()).write(entry),
    readAll: async () => (await store()).readAll(),
  };
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
