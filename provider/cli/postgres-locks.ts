/**
 * Lock holders on Pulumi's PostgreSQL state backend (`postgres://…`). That backend is the file
 * backend's layout in a table: one row per object, `key` the object's path (the lock of a stack is
 * `.pulumi/locks/organization/<project>/<stack>/<uuid>.json`), `data` `{"data": <base64 of its
 * bytes>}` (see
 * pkg/backend/diy/postgres in pulumi/pulumi at v3.248.0), every key prefixed with the URL's path
 * as the backend prefixes any bucket's keys (`<database>/.pulumi/...`, measured). Nothing in the CLI lists locks without
 * taking one, so preflight and recover read the rows themselves, read-only.
 */
/** The table Pulumi uses when the URL names none. */
const DEFAULT_TABLE = "pulumi_state";

/**
 * Connection parameters the client below understands; the others (the backend's `table`, libpq's
 * certificate files) are not server settings and would be sent to the server as such.
 */
const CLIENT_PARAMETERS = new Set([
  "sslmode",
  "connect_timeout",
  "application_name",
  "search_path",
  "options",
]);

export function isPostgresBackend(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The state table named by the URL, as Pulumi writes it into its SQL (unquoted, so lower-cased by
 * the server); a name that is not a plain identifier is refused rather than spliced into SQL.
 */
export function postgresStateTable(url: string): string {
  const table = new URL(url).searchParams.get("table") ?? DEFAULT_TABLE;
  if (!/^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)?$/.test(table)) {
    throw new Error(
      `the backend URL's table "${table}" is not a plain SQL identifier; name the state table with letters, digits and _ only`,
    );
  }
  return table;
}

/** The URL the client connects with: the backend's own parameters taken out. */
export function postgresConnectionUrl(url: string): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) {
    if (!CLIENT_PARAMETERS.has(name)) parsed.searchParams.delete(name);
  }
  return parsed.toString();
}

/**
 * Where a stack's locks live: the project layout (3.248's default) and the older flat one, under
 * the URL's path as the backend puts it before every key of a non-file bucket.
 */
export function lockKeyPrefixes(url: string, project: string, stack: string): string[] {
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, "");
  const root = path === "" || path.endsWith("/") ? path : `${path}/`;
  return [
    `${root}.pulumi/locks/organization/${project}/${stack}/`,
    `${root}.pulumi/locks/${stack}/`,
  ];
}

/**
 * The JSON of every lock row under the prefixes, read over one short connection. Credentials come from the URL
 * or the PG* environment, as for the CLI; they are never printed.
 */
export async function postgresLockRecords(
  url: string,
  prefixes: readonly string[],
): Promise<Record<string, unknown>[]> {
  const table = postgresStateTable(url);
  // Loaded here only: the provider's runtime never needs a database client.
  const postgres = (await import("postgres")).default;
  const sql = postgres(postgresConnectionUrl(url), {
    max: 1,
    connect_timeout: 10,
    onnotice: () => {},
  });
  try {
    const rows: { key: string; data: string | null }[] = [];
    for (const prefix of prefixes) {
      // left() rather than LIKE: stack names may hold `_`, a LIKE wildcard.
      rows.push(
        ...(await sql.unsafe<{ key: string; data: string | null }[]>(
          `SELECT key, data->>'data' AS data FROM ${table} WHERE left(key, length($1)) = $1 AND key LIKE '%.json'`,
          [prefix],
        )),
      );
    }
    return rows.map((row) => lockRecordOf(row.data));
  } catch (error) {
    const code = (error as { code?: string }).code;
    // The backend creates its table on first use: no table, no stack, no lock.
    if (code === "42P01") return [];
    throw new Error(
      `could not read the stack's locks from the PostgreSQL backend (${(error as Error).message}); check that this machine reaches the database with the URL and PG* variables \`pulumi\` uses`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A lock object's bytes, as the backend stores them: base64 inside a JSON column. */
function lockRecordOf(base64: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(base64 ?? "", "base64").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    // Not a lock the CLI wrote: it still counts as a lock, of an unknown holder.
    return {};
  }
}
