/**
 * Lock holders on Pulumi's PostgreSQL state backend, its lock rows read over one short connection.
 * Measured behaviour: docs/operations.md#how-preflight-reads-the-locks
 */
import { existsSync, readFileSync } from "node:fs";
import { connect as tcpConnect, type Socket } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls";
import type { Sql } from "postgres";
import {
  backendDeadline,
  BACKEND_TIMEOUT_VARIABLE,
  limitText,
  stepMilliseconds,
  type BackendDeadline,
} from "./backend-deadline";
import { BackendReadError, BackendTimeoutError } from "../errors";
import { loadPostgresClient } from "./backend-clients";
import { isLockKey, LOCK_READ_STEPS, lockRecordOf } from "./lock-objects";

export { lockKeyPrefixes } from "./lock-objects";

/** The table Pulumi uses when the URL names none. */
const DEFAULT_TABLE = "pulumi_state";

export const SSL_MODES = [
  "disable",
  "allow",
  "prefer",
  "require",
  "verify-ca",
  "verify-full",
] as const;
export type SslMode = (typeof SSL_MODES)[number];

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
    throw new BackendReadError(
      `the backend URL's table "${table}" is not a plain SQL identifier; name the state table with letters, digits and _ only`,
    );
  }
  return table;
}

/** Everything the reader needs to reach the server, from the URL and then the PG* variables. */
export interface PostgresTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
  readonly sslmode: SslMode;
  /** Whether the URL (or PGSSLMODE) named the mode; unnamed means `require` here. */
  readonly sslmodeGiven: boolean;
  readonly sslrootcert?: string;
  readonly sslcert?: string;
  readonly sslkey?: string;
  readonly connectSeconds: number;
  readonly applicationName: string;
}

export function postgresTarget(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): PostgresTarget {
  const parsed = new URL(url);
  const query = (name: string, variable: string) =>
    parsed.searchParams.get(name) ?? (env[variable] === "" ? undefined : env[variable]);
  const modeText = query("sslmode", "PGSSLMODE");
  const rootCertText = query("sslrootcert", "PGSSLROOTCERT");
  let sslmode: SslMode;
  if (modeText === undefined) sslmode = rootCertText === "system" ? "verify-full" : "require";
  else if ((SSL_MODES as readonly string[]).includes(modeText)) sslmode = modeText as SslMode;
  else {
    throw new BackendReadError(
      `the backend URL's sslmode "${modeText}" is not one of ${SSL_MODES.join(", ")}: fix PULUMI_BACKEND_URL (or PGSSLMODE)`,
    );
  }
  // lib/pq, like libpq, takes ~/.postgresql/root.crt when no root certificate is named.
  const defaultRoot = join(home, ".postgresql", "root.crt");
  const sslrootcert =
    rootCertText ?? (sslmode !== "disable" && existsSync(defaultRoot) ? defaultRoot : undefined);
  const connectText = query("connect_timeout", "PGCONNECT_TIMEOUT");
  const connectSeconds =
    connectText === undefined || !(Number(connectText) > 0)
      ? LOCK_READ_STEPS.connectSeconds
      : Number(connectText);
  const user = decodeURIComponent(parsed.username) || env.PGUSER || env.USER || "postgres";
  const sslcert = query("sslcert", "PGSSLCERT");
  const sslkey = query("sslkey", "PGSSLKEY");
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, "") || env.PGHOST || "localhost",
    port: Number(parsed.port || env.PGPORT || 5432),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || env.PGDATABASE || user,
    user,
    password: decodeURIComponent(parsed.password) || env.PGPASSWORD || "",
    sslmode,
    sslmodeGiven: modeText !== undefined,
    ...(sslrootcert === undefined ? {} : { sslrootcert }),
    ...(sslcert === undefined ? {} : { sslcert }),
    ...(sslkey === undefined ? {} : { sslkey }),
    connectSeconds,
    applicationName: "pulumi-voice-platform",
  };
}

/** What the reader does on the wire for a mode: whether TLS is asked for, required and verified. */
export function tlsPlan(target: PostgresTarget): {
  ask: boolean;
  required: boolean;
  options: ConnectionOptions;
} {
  const ca = target.sslrootcert;
  const files = {
    ...(ca === undefined || ca === "system" ? {} : { ca: readFileSync(ca) }),
    ...(target.sslcert === undefined ? {} : { cert: readFileSync(target.sslcert) }),
    ...(target.sslkey === undefined ? {} : { key: readFileSync(target.sslkey) }),
  };
  // verify-ca checks the chain and not the host name, as does require with a root certificate.
  const chainOnly = { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  switch (target.sslmode) {
    case "disable":
      return { ask: false, required: false, options: {} };
    case "allow":
    case "prefer":
    case "require": {
      const verify = ca !== undefined;
      return {
        ask: target.sslmode !== "allow",
        required: target.sslmode === "require",
        options: verify ? chainOnly : { ...files, rejectUnauthorized: false },
      };
    }
    case "verify-ca":
      return { ask: true, required: true, options: chainOnly };
    case "verify-full":
      return {
        ask: true,
        required: true,
        options: { ...files, rejectUnauthorized: true, servername: target.host },
      };
  }
}

/** Protocol bytes: the SSLRequest packet, and backend message codes. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
const AUTHENTICATION = 0x52; // 'R'
const CLEARTEXT_PASSWORD = 3;
const AUTHENTICATION_OK = 0;

/** How the server was reached, for the messages. */
function where(target: PostgresTarget): string {
  return `${target.host}:${target.port}`;
}

function connectTimeout(target: PostgresTarget): BackendReadError {
  return new BackendReadError(
    `the PostgreSQL server at ${where(target)} did not complete the connection within ${target.connectSeconds} s (connect_timeout)`,
  );
}

/**
 * A TCP connection whose silence past the connect time, or the read's deadline, destroys it, so a
 * stalled server leaves nothing open behind the error (the command could not exit otherwise).
 */
function connectTcp(target: PostgresTarget, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: target.host, port: target.port, signal });
    socket.setTimeout(target.connectSeconds * 1000, () => socket.destroy(connectTimeout(target)));
    socket.once("connect", () => {
      socket.removeListener("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

function firstByte(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once("data", (chunk: Buffer) => {
      socket.removeListener("error", reject);
      resolve(chunk[0]!);
    });
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("the server closed the connection")));
  });
}

function tlsHandshake(socket: Socket, options: ConnectionOptions): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ ...options, socket });
    secure.once("secureConnect", () => {
      secure.removeListener("error", reject);
      resolve(secure);
    });
    secure.once("error", reject);
  });
}

/**
 * Watches an unencrypted connection's authentication: a request for the password in clear text
 * ends the connection before the client can answer it.
 */
function refuseCleartextPassword(socket: Socket, onRequest: () => void): void {
  let pending = Buffer.alloc(0);
  const watch = (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (pending.length < length + 1) return;
      if (pending[0] === AUTHENTICATION && length >= 8) {
        const code = pending.readUInt32BE(5);
        if (code === CLEARTEXT_PASSWORD) {
          socket.removeListener("data", watch);
          onRequest();
          socket.destroy();
          return;
        }
        if (code === AUTHENTICATION_OK) {
          socket.removeListener("data", watch);
          return;
        }
      }
      pending = pending.subarray(length + 1);
    }
  };
  // Registered before the client's own listener, so it runs first on every chunk.
  socket.on("data", watch);
}

/**
 * One connection attempt's socket, TLS negotiated as the mode says: the raw socket's timeout (the
 * connect time) and the deadline's signal hold until the negotiation is done.
 */
async function negotiatedSocket(
  target: PostgresTarget,
  plan: ReturnType<typeof tlsPlan>,
  onCleartextRequest: () => void,
  signal: AbortSignal,
): Promise<Socket> {
  const raw = await connectTcp(target, signal);
  try {
    if (plan.ask) {
      raw.write(SSL_REQUEST);
      const answer = await firstByte(raw);
      if (answer === 0x53 /* S */) {
        const secure = await tlsHandshake(raw, plan.options);
        raw.setTimeout(0);
        return secure;
      }
      if (answer !== 0x4e /* N */)
        throw new Error("the server answered the TLS request with garbage");
      if (plan.required) {
        throw new BackendReadError(
          `the PostgreSQL server at ${where(target)} does not accept TLS, and sslmode=${target.sslmode}${target.sslmodeGiven ? "" : " (the default here when the URL names none)"} requires it. ` +
            "Turn TLS on at the server, or, only on a network you trust, add sslmode=disable to PULUMI_BACKEND_URL",
        );
      }
    }
    if (target.sslmode !== "disable") refuseCleartextPassword(raw, onCleartextRequest);
    // From here the client's own connect_timeout and the statement timeout apply.
    raw.setTimeout(0);
    return raw;
  } catch (error) {
    raw.destroy();
    throw error;
  }
}

interface LockRow {
  key: string;
  data: string | null;
}

/** The rows under the prefixes over one connection attempt with the given TLS plan. */
function readRows(
  target: PostgresTarget,
  table: string,
  prefixes: readonly string[],
  plan: ReturnType<typeof tlsPlan>,
  deadline: BackendDeadline,
): Promise<LockRow[]> {
  return onConnection(target, plan, deadline, false, (sql) => lockRowsUnder(sql, table, prefixes));
}

/**
 * `work` over one connection attempt with the given TLS plan, read-only unless `writable` (the
 * ledger's rows), within the deadline; a server asking for a clear-text password is refused.
 */
async function onConnection<T>(
  target: PostgresTarget,
  plan: ReturnType<typeof tlsPlan>,
  deadline: BackendDeadline,
  writable: boolean,
  work: (sql: Sql) => Promise<T>,
): Promise<T> {
  if (deadline.signal.aborted) throw deadlinePassed(target, deadline);
  let cleartextRequested = false;
  // Settles the read at once when the server asks for a clear-text password (the client would
  // otherwise wait on the connection it lost until the deadline).
  let refuse: (error: Error) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  refused.catch(() => {});
  const socketError: { error?: unknown } = {};
  const postgres = await loadPostgresClient();
  const options = clientOptions(target, plan, deadline, writable, {
    cleartextRequested: () => cleartextRequested,
    onCleartextRequest: () => {
      cleartextRequested = true;
      refuse(cleartextRefusal(target));
    },
    onSocketError: (error) => (socketError.error = error),
  });
  // `socket` (a connected socket of the caller's) is part of postgres.js but not of its types.
  const sql = postgres(options as Parameters<typeof postgres>[0] & typeof options);
  // postgres.js's own way to drop a connection at once: the query in flight fails with it.
  const endNow = () => void sql.end({ timeout: 0 });
  deadline.signal.addEventListener("abort", endNow, { once: true });
  try {
    return await Promise.race([work(sql), refused]);
  } catch (error) {
    if (cleartextRequested) throw cleartextRefusal(target);
    if (deadline.signal.aborted) throw deadlinePassed(target, deadline);
    // postgres.js's own: the server took the connection and never finished the startup.
    if ((error as { code?: string }).code === "CONNECT_TIMEOUT") throw connectTimeout(target);
    throw socketError.error ?? error;
  } finally {
    deadline.signal.removeEventListener("abort", endNow);
    await sql.end({ timeout: 0 });
  }
}

function deadlinePassed(target: PostgresTarget, deadline: BackendDeadline): BackendTimeoutError {
  return new BackendTimeoutError(
    `the PostgreSQL server at ${where(target)} did not answer within ${limitText(deadline)}`,
  );
}

interface ConnectionHooks {
  cleartextRequested(): boolean;
  onCleartextRequest(): void;
  onSocketError(error: unknown): void;
}

/** One connection on the socket negotiatedSocket made, within the target's limits. */
function clientOptions(
  target: PostgresTarget,
  plan: ReturnType<typeof tlsPlan>,
  deadline: BackendDeadline,
  writable: boolean,
  hooks: ConnectionHooks,
) {
  return {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    // Asked for only by the client's authentication; empty once the server asked for it in clear.
    password: () => (hooks.cleartextRequested() ? "" : target.password),
    // TLS is negotiated by negotiatedSocket, before the client sees the socket.
    ssl: false,
    socket: () =>
      negotiatedSocket(target, plan, hooks.onCleartextRequest, deadline.signal).catch(
        (error: unknown) => {
          hooks.onSocketError(error);
          throw error;
        },
      ),
    max: 1,
    connect_timeout: target.connectSeconds,
    fetch_types: false,
    prepare: false,
    onnotice: () => {},
    connection: {
      application_name: target.applicationName,
      // The server ends a statement that waits (on a lock, say) with an error naming the cause.
      statement_timeout: String(stepMilliseconds(LOCK_READ_STEPS.attemptSeconds, deadline)),
      default_transaction_read_only: writable ? "off" : "on",
    },
  };
}

async function lockRowsUnder(
  sql: Sql,
  table: string,
  prefixes: readonly string[],
): Promise<LockRow[]> {
  const rows: LockRow[] = [];
  for (const prefix of prefixes) {
    // left() rather than LIKE: stack names may hold `_`, a LIKE wildcard.
    rows.push(
      ...(await sql.unsafe<LockRow[]>(
        `SELECT key, data->>'data' AS data FROM ${table} WHERE left(key, length($1)) = $1`,
        [prefix],
      )),
    );
  }
  return rows;
}

function cleartextRefusal(target: PostgresTarget): BackendReadError {
  return new BackendReadError(
    `the PostgreSQL server at ${where(target)} asked for the password in clear text over an unencrypted connection, and it was not sent. ` +
      "Turn TLS on at the server (with sslmode=require or stricter in PULUMI_BACKEND_URL) or use scram-sha-256 authentication; only sslmode=disable allows a clear-text password",
  );
}

/**
 * The JSON of every lock row under the prefixes, read over one short connection. Credentials come
 * from the URL or the PG* environment, as for the CLI; they are never printed.
 */
export async function postgresLockRecords(
  url: string,
  prefixes: readonly string[],
  deadline: BackendDeadline = backendDeadline(),
): Promise<Record<string, unknown>[]> {
  const table = postgresStateTable(url);
  const target = postgresTarget(url);
  const plan = tlsPlan(target);
  let rows: LockRow[];
  try {
    try {
      rows = await readRows(target, table, prefixes, plan, deadline);
    } catch (error) {
      // allow: an unencrypted attempt first, then, as lib/pq, one with TLS.
      if (target.sslmode !== "allow" || isMissingTable(error) || deadline.signal.aborted)
        throw error;
      const tlsAttempt = { ...plan, ask: true, required: true };
      rows = await readRows(target, table, prefixes, tlsAttempt, deadline).catch(
        (withTls: Error) => {
          throw new Error(`${(error as Error).message}; and then with TLS: ${withTls.message}`);
        },
      );
    }
  } catch (error) {
    // The backend creates its table on first use: no table, no stack, no lock.
    if (isMissingTable(error)) return [];
    if (deadline.signal.aborted) {
      throw new BackendTimeoutError(
        `could not read the stack's locks from the PostgreSQL backend: ${(error as Error).message}; ` +
          `check that ${where(target)} runs and answers (not stopped, paused or overloaded) and that this machine reaches it with the URL and PG* variables \`pulumi\` uses; if it is only slow, raise ${BACKEND_TIMEOUT_VARIABLE}`,
      );
    }
    throw new BackendReadError(
      `could not read the stack's locks from the PostgreSQL backend (${(error as Error).message}); ` +
        `check that this machine reaches ${where(target)} with the URL and PG* variables \`pulumi\` uses (sslmode=${target.sslmode})`,
    );
  }
  return rows.filter((row) => isLockKey(row.key)).map((row) => lockRecordOf(base64Text(row.data)));
}

function isMissingTable(error: unknown): boolean {
  return (error as { code?: string }).code === "42P01";
}

/** A lock object's bytes, as the backend stores them: base64 inside a JSON column. */
function base64Text(base64: string | null): Buffer {
  return Buffer.from(base64 ?? "", "base64");
}

/**
 * `work` over one connection to the backend's server, with the URL's TLS mode as the lock reader
 * takes it (`allow`: without TLS first, then with it): for the ledger's rows in the state table.
 */
export async function onPostgresBackend<T>(
  url: string,
  writable: boolean,
  work: (sql: Sql, table: string) => Promise<T>,
  deadline: BackendDeadline = backendDeadline(),
): Promise<T> {
  const table = postgresStateTable(url);
  const target = postgresTarget(url);
  const plan = tlsPlan(target);
  try {
    return await onConnection(target, plan, deadline, writable, (sql) => work(sql, table));
  } catch (error) {
    if (target.sslmode !== "allow" || deadline.signal.aborted) throw error;
    const tlsAttempt = { ...plan, ask: true, required: true };
    return onConnection(target, tlsAttempt, deadline, writable, (sql) => work(sql, table));
  }
}
