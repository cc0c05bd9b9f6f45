/**
 * The ledger on the shared state backends, with the URL and credentials `pulumi` uses: objects
 * in an S3-compatible bucket or an Azure Blob container, rows of PostgreSQL's state table. Loaded
 * only when the ledger is on one of them (ledger-location.ts): their clients, and Node's tls and
 * net, stay out of a provider whose ledger is a folder, and out of the plugin's startup snapshot.
 */
import { loadS3Client } from "../cli/backends/backend-clients";
import { backendDeadline, type BackendDeadline } from "../cli/backends/backend-deadline";
import { azureBlobSettings, containerClient } from "../cli/backends/azblob-locks";
import {
  onPostgresBackend,
  postgresStateTable,
  postgresTarget,
} from "../cli/backends/postgres-locks";
import { s3ClientSettings } from "../cli/backends/s3-locks";
import { entryFileName, entryLine, LEDGER_PREFIX } from "./ledger-entry";
import { inTimeOrder, type LedgerStore } from "./ledger-stores";

/**
 * The ledger as objects under `.pulumi/voiceplatform-ledger/` of the backend's S3 bucket, with the
 * URL and credentials `pulumi` uses. The client is loaded on first use, only on this backend.
 */
export function s3Store(url: string): LedgerStore {
  const { bucket, config } = s3ClientSettings(url);
  const where = `the S3 bucket "${bucket}"${config.endpoint === undefined ? "" : ` at ${String(config.endpoint)}`}`;
  const connect = async (deadline: BackendDeadline) => {
    const sdk = await loadS3Client();
    return { sdk, s3: new sdk.S3Client(s3ClientSettings(url, deadline).config) };
  };
  return {
    where,
    async write(entry) {
      const deadline = backendDeadline();
      const { sdk, s3 } = await connect(deadline);
      try {
        await s3.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: `${LEDGER_PREFIX}${entryFileName(entry)}`,
            Body: entryLine(entry),
            ContentType: "application/json",
          }),
          { abortSignal: deadline.signal },
        );
      } finally {
        s3.destroy();
      }
    },
    async readAll() {
      const deadline = backendDeadline();
      const { sdk, s3 } = await connect(deadline);
      const texts: string[] = [];
      try {
        let token: string | undefined;
        do {
          const page = await s3.send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: LEDGER_PREFIX,
              ContinuationToken: token,
            }),
            { abortSignal: deadline.signal },
          );
          for (const key of (page.Contents ?? []).map((object) => object.Key ?? "")) {
            if (!key.endsWith(".json")) continue;
            const got = await s3.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), {
              abortSignal: deadline.signal,
            });
            texts.push((await got.Body?.transformToString()) ?? "");
          }
          token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
        } while (token !== undefined);
      } finally {
        s3.destroy();
      }
      return inTimeOrder(texts);
    },
  };
}

/** The ledger as blobs under `.pulumi/voiceplatform-ledger/` of the backend's Azure container. */
export function azureBlobStore(url: string): LedgerStore {
  const settings = azureBlobSettings(url);
  const where = `the Azure Blob container "${settings.container}"${settings.serviceUrl === "" ? "" : ` at ${settings.serviceUrl}`}`;
  return {
    where,
    async write(entry) {
      const deadline = backendDeadline();
      const container = await containerClient(settings, deadline);
      const line = entryLine(entry);
      await container
        .getBlockBlobClient(`${LEDGER_PREFIX}${entryFileName(entry)}`)
        .upload(line, Buffer.byteLength(line), {
          abortSignal: deadline.signal,
          blobHTTPHeaders: { blobContentType: "application/json" },
        });
    },
    async readAll() {
      const deadline = backendDeadline();
      const container = await containerClient(settings, deadline);
      const texts: string[] = [];
      for await (const blob of container.listBlobsFlat({
        prefix: LEDGER_PREFIX,
        abortSignal: deadline.signal,
      })) {
        if (!blob.name.endsWith(".json")) continue;
        const bytes = await container
          .getBlobClient(blob.name)
          .downloadToBuffer(0, undefined, { abortSignal: deadline.signal });
        texts.push(bytes.toString("utf8"));
      }
      return inTimeOrder(texts);
    },
  };
}

/**
 * The ledger as rows of the backend's state table, keyed `.pulumi/voiceplatform-ledger/<name>`
 * with the data as Pulumi stores a blob (`{"data": "<base64>"}`), beside the stacks' own rows.
 */
export function postgresStore(url: string): LedgerStore {
  const target = postgresTarget(url);
  return {
    where: `the PostgreSQL server at ${target.host}:${target.port} (table ${postgresStateTable(url)})`,
    async write(entry) {
      const base64 = Buffer.from(entryLine(entry)).toString("base64");
      await onPostgresBackend(url, true, (sql, table) =>
        sql.unsafe(
          `INSERT INTO ${table} (key, data) VALUES ($1, jsonb_build_object('data', $2::text)) ON CONFLICT (key) DO NOTHING`,
          [`${LEDGER_PREFIX}${entryFileName(entry)}`, base64],
        ),
      );
    },
    async readAll() {
      const rows = await onPostgresBackend(url, false, (sql, table) =>
        sql.unsafe<{ data: string | null }[]>(
          `SELECT data->>'data' AS data FROM ${table} WHERE left(key, length($1)) = $1`,
          [LEDGER_PREFIX],
        ),
      ).catch((error: { code?: string }) => {
        // Pulumi creates its table on first use: none yet, no ledger yet.
        if (error.code === "42P01") return [];
        throw error;
      });
      return inTimeOrder(rows.map((row) => Buffer.from(row.data ?? "", "base64").toString("utf8")));
    },
  };
}
