/**
 * Issue 29: the PostgreSQL lock reader (preflight, recover) connects as the backend URL says, the
 * way lib/pq reads it, and never worse: TLS unless the URL says `sslmode=disable`, certificates
 * checked by verify-ca and verify-full, no password in clear text over an unencrypted connection,
 * and a time limit on every step. Against real servers (a throwaway PostgreSQL with and without
 * TLS, asking for the password in clear text) behind a proxy that records what the client sends,
 * and a listener that accepts and never answers.
 */
import { execFile } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { postgresLockRecords } from "../../provider/cli/backends/postgres-locks";
import { lockKeyPrefixes } from "../../provider/cli/backends/lock-objects";
import { freePort, silentListener } from "../support/free-port";
import { startPostgres, type RunningPostgres } from "../support/postgres";
import { describeOnPostgres } from "./postgres";
import { REPO_ROOT } from "../pulumi-cli/locate";

const run = promisify(execFile);

const PASSWORD = "lock-reader-Pw-9c1e";
const PROJECT = "voice";
const STACK = "prod";
const LOCK = { pid: 4242, username: "ci", hostname: "runner-9", timestamp: "2026-11-25T10:00:00Z" };

/** A TCP proxy to `port` that keeps every byte the client sent. */
async function recordingProxy(
  port: number,
): Promise<{ port: number; sent: () => Buffer; close: () => Promise<void> }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port });
    sockets.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => chunks.push(chunk));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  const proxyPort = await freePort();
  await new Promise<void>((resolve) => server.listen(proxyPort, "127.0.0.1", resolve));
  return {
    port: proxyPort,
    sent: () => Buffer.concat(chunks),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describeOnPostgres("the PostgreSQL lock reader's connection (issue 29)", () => {
  let server: RunningPostgres;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    server = await startPostgres({ tls: true });
    await server.admin(`ALTER USER pulumi PASSWORD '${PASSWORD}'`);
    await server.admin("CREATE DATABASE state");
    await server.admin("SELECT 1");
    proxy = await recordingProxy(server.port);
  });

  afterAll(async () => {
    await proxy?.close();
    server?.stop();
  });

  /** The backend URL through the proxy, with the password in it. */
  const url = (query: string) =>
    `postgres://pulumi:${PASSWORD}@127.0.0.1:${proxy.port}/state${query === "" ? "" : `?${query}`}`;
  const read = (query: string) =>
    postgresLockRecords(url(query), lockKeyPrefixes(url(query), PROJECT, STACK));
  /** The password's bytes in what the client sent through the proxy since `from`. */
  const passwordSentSince = (from: number) =>
    proxy.sent().subarray(from).includes(Buffer.from(PASSWORD));

  async function withLockRow(): Promise<void> {
    const { Buffer } = await import("node:buffer");
    const data = Buffer.from(JSON.stringify(LOCK)).toString("base64");
    const key = `${lockKeyPrefixes(url(""), PROJECT, STACK)[0]}3f6e.json`;
    const postgres = (await import("postgres")).default;
    const sql = postgres({
      host: "127.0.0.1",
      port: server.port,
      user: "pulumi",
      database: "state",
      password: PASSWORD,
      max: 1,
      onnotice: () => {},
    });
    try {
      await sql.unsafe(
        "CREATE TABLE IF NOT EXISTS pulumi_state (key TEXT PRIMARY KEY, data JSONB NOT NULL)",
      );
      await sql.unsafe(
        "INSERT INTO pulumi_state VALUES ($1, jsonb_build_object('data', $2::text)) ON CONFLICT DO NOTHING",
        [key, data],
      );
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  describe("a server that asks for the password in clear text (pg_hba `password`), TLS off", () => {
    beforeAll(async () => {
      await server.setHba(["host all all 127.0.0.1/32 password"]);
      await server.admin("ALTER SYSTEM SET ssl = off");
      await server.admin("SELECT pg_reload_conf()");
      await withLockRow();
    });

    test("with no sslmode the reader asks for TLS and stops when the server has none", async () => {
      const from = proxy.sent().length;
      await expect(read("")).rejects.toThrow(
        /does not accept TLS, and sslmode=require \(the default here when the URL names none\) requires it/,
      );
      expect(passwordSentSince(from)).toBe(false);
    });

    test.each(["prefer", "allow"])(
      "sslmode=%s: the clear-text request is refused and the password never leaves",
      async (mode) => {
        const from = proxy.sent().length;
        const error = await read(`sslmode=${mode}`).catch((e: Error) => e);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toMatch("the password in clear text");
        expect((error as Error).message).toMatch("unencrypted connection");
        expect((error as Error).message).toMatch("it was not sent");
        expect((error as Error).message).not.toMatch(PASSWORD);
        expect(passwordSentSince(from)).toBe(false);
      },
    );

    test("only sslmode=disable sends it, as the URL asks (the server did ask for it)", async () => {
      const from = proxy.sent().length;
      expect(await read("sslmode=disable")).toEqual([LOCK]);
      expect(passwordSentSince(from)).toBe(true);
    });
  });

  describe("a server with TLS (self-signed certificate for 127.0.0.1)", () => {
    beforeAll(async () => {
      await server.setHba(["hostssl all all 127.0.0.1/32 password"]);
      await server.admin("ALTER SYSTEM SET ssl = on");
      await server.admin("SELECT pg_reload_conf()");
    });

    test("with no sslmode (require) the reader talks TLS: the password crosses encrypted", async () => {
      const from = proxy.sent().length;
      expect(await read("")).toEqual([LOCK]);
      expect(passwordSentSince(from)).toBe(false);
    });

    test("verify-full refuses a certificate no root vouches for, and takes it with sslrootcert", async () => {
      await expect(read("sslmode=verify-full")).rejects.toThrow(/self-signed certificate/);
      const root = encodeURIComponent(server.certificateFile!);
      expect(await read(`sslmode=verify-full&sslrootcert=${root}`)).toEqual([LOCK]);
      expect(await read(`sslmode=verify-ca&sslrootcert=${root}`)).toEqual([LOCK]);
    });

    test("a statement that cannot finish ends at the statement timeout, naming what to check", async () => {
      const postgres = (await import("postgres")).default;
      const holder = postgres({
        host: "127.0.0.1",
        port: server.port,
        user: "pulumi",
        database: "state",
        password: PASSWORD,
        max: 1,
        ssl: "require",
        onnotice: () => {},
      });
      try {
        // A session that holds the table: the reader's SELECT waits on it.
        const locked = holder.begin(async (sql) => {
          await sql.unsafe("LOCK TABLE pulumi_state IN ACCESS EXCLUSIVE MODE");
          await sql.unsafe("SELECT pg_sleep(12)");
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        const started = Date.now();
        const error = await read("").catch((e: Error) => e);
        const seconds = (Date.now() - started) / 1000;
        expect((error as Error).message).toMatch(/statement timeout/);
        expect((error as Error).message).toMatch(
          `check that this machine reaches 127.0.0.1:${proxy.port}`,
        );
        expect((error as Error).message).toMatch("URL and PG* variables");
        console.log(
          `a held table: the reader gave up after ${seconds.toFixed(1)} s (statement timeout 10 s)`,
        );
        await holder`SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'`.catch(
          () => {},
        );
        await locked.catch(() => {});
      } finally {
        await holder.end({ timeout: 5 });
      }
    });
  });

  test("a server that accepts and never answers is an error within the connect timeout", async () => {
    const stalled = await silentListener();
    try {
      for (const mode of ["require", "disable"]) {
        const stalledUrl = `postgres://pulumi:${PASSWORD}@127.0.0.1:${stalled.port}/state?sslmode=${mode}&connect_timeout=2`;
        const started = Date.now();
        const error = await postgresLockRecords(
          stalledUrl,
          lockKeyPrefixes(stalledUrl, PROJECT, STACK),
        ).catch((e: Error) => e);
        const seconds = (Date.now() - started) / 1000;
        expect((error as Error).message).toMatch("could not read the stack's locks");
        expect((error as Error).message).toMatch("PostgreSQL backend");
        expect((error as Error).message).toMatch("did not complete the connection");
        expect((error as Error).message).toMatch("within 2 s (connect_timeout)");
        expect((error as Error).message).toMatch(
          `check that this machine reaches 127.0.0.1:${stalled.port}`,
        );
        expect((error as Error).message).not.toMatch(PASSWORD);
        console.log(
          `stalled server, sslmode=${mode}, connect_timeout=2: error after ${seconds.toFixed(1)} s`,
        );
      }
      // What preflight runs in: a process of its own, which must end with the error, not hang
      // on a connection left open (before, it stayed until the server let go).
      for (const mode of ["require", "disable"]) {
        const stalledUrl = `postgres://pulumi:${PASSWORD}@127.0.0.1:${stalled.port}/state?sslmode=${mode}&connect_timeout=2`;
        const script = `require(${JSON.stringify(join(REPO_ROOT, "provider/cli/backends/postgres-locks"))})
          .postgresLockRecords(${JSON.stringify(stalledUrl)}, ["x/"])
          .catch((e) => console.log(e.message));`;
        const child = await run(
          process.execPath,
          [join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs"), "-e", script],
          { timeout: 20_000 },
        );
        expect(child.stdout).toMatch("did not complete the connection");
        expect(child.stdout).toMatch("within 2 s");
      }
    } finally {
      await stalled.close();
    }
  });
});
