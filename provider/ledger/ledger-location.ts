/**
 * Where a project's ledger is: VOICEPLATFORM_LEDGER when set, else the state backend `pulumi` uses
 * (as the CLI chooses it), so a team keeps it with its state and runs nothing new: a file
 * backend's folder, an S3-compatible bucket. Elsewhere (Pulumi Cloud, a backend the ledger does
 * not write yet) VOICEPLATFORM_LEDGER names a place every runner shares.
 */
import { isAbsolute, resolve } from "node:path";
import { isS3Backend } from "../cli/backends/s3-locks";
import { configuredBackendUrl, fileBackendDirectory } from "../settings/backend-location";
import { folderStore, s3Store, type LedgerStore } from "./ledger-stores";

export const LEDGER_VARIABLE = "VOICEPLATFORM_LEDGER";

/** The store, or why there is none here (said once by the provider, and by the command). */
export type LedgerLocation =
  { readonly store: LedgerStore } | { readonly missing: string; readonly fix: string };

const FIX = `set ${LEDGER_VARIABLE} to a place every runner of the team shares: a folder (file:///path, or an absolute path) or an S3 bucket URL as \`pulumi login\` takes it`;

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
    if (isS3Backend(set)) return { store: s3Store(set) };
    return {
      missing: `${LEDGER_VARIABLE} is "${set}", which is not a file:// or s3:// URL nor an absolute path`,
      fix: FIX,
    };
  }
  const backend = configuredBackendUrl(projectDir, env);
  const folder = backend === undefined ? undefined : fileBackendDirectory(backend);
  if (folder !== undefined) return { store: folderStore(folder) };
  if (backend !== undefined && isS3Backend(backend)) return { store: s3Store(backend) };
  return {
    missing:
      backend === undefined
        ? "no state backend is configured here (PULUMI_BACKEND_URL, Pulumi.yaml's backend.url or `pulumi login`)"
        : `the state backend (${backend.split(":")[0]}://…) is neither a folder nor an S3 bucket, and ${LEDGER_VARIABLE} is not set`,
    fix: FIX,
  };
}
