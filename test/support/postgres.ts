/**
 * A throwaway PostgreSQL server for tests of Pulumi's PostgreSQL state backend: a cluster made by
 * `initdb` in a temporary folder, served by `pg_ctl` on a free loopback port with its own socket
 * folder, trust authentication for one user, stopped (`-m immediate`) and removed by `stop()`, or
 * at exit when a test failed before. initdb refuses to run as root: as root, the server's
 * processes run as the `nobody` user, which owns the folder. With `tls`, the server also speaks
 * TLS with a self-signed certificate for 127.0.0.1 (`certificateFile`), and `admin` runs SQL over
 * the server's Unix socket, which stays on trust whatever `setHba` writes for TCP.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { freePort } from "./free-port";

export const POSTGRES_USER = "pulumi";

/** Where the binaries are looked for after PATH: the Debian and Ubuntu packages' folder. */
const DEBIAN_ROOT = "/usr/lib/postgresql";

export const POSTGRES_MISSING =
  "PostgreSQL's server binaries (initdb, pg_ctl) were not found on PATH, in $POSTGRES_BIN_DIR or in " +
  `${DEBIAN_ROOT}/<version>/bin: install them (Debian/Ubuntu: \`apt-get install postgresql\`; ` +
  "macOS: `brew install postgresql@15`), or set POSTGRES_BIN_DIR to the folder holding them.";

export interface RunningPostgres {
  readonly port: number;
  /** With `tls`: the server's self-signed certificate, usable as a client's sslrootcert. */
  readonly certificateFile?: string;
  /** Runs SQL as the superuser over the Unix socket (trust, whatever pg_hba says for TCP). */
  admin(query: string): Promise<Record<string, unknown>[]>;
  /** Replaces the TCP lines of pg_hba.conf and reloads the server. */
  setHba(lines: readonly string[]): Promise<void>;
  /** A new, empty database: the URL a PULUMI_BACKEND_URL takes. */
  createDatabase(name: string): Promise<string>;
  /** The URL of an existing database (`postgres` is always there). */
  url(database: string): string;
  /** The server's main process (the postmaster), from its pid file. */
  pid(): number;
  /** Stops the server at once and removes its folder; safe to call twice. */
  stop(): void;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const debian = existsSync(DEBIAN_ROOT)
    ? readdirSync(DEBIAN_ROOT)
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => join(DEBIAN_ROOT, version, "bin"))
    : [];
  const candidates = [
    ...(process.env.POSTGRES_BIN_DIR ? [process.env.POSTGRES_BIN_DIR] : []),
    ...(process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== ""),
    ...debian,
  ];
  return candidates.find((dir) => ["initdb", "pg_ctl"].every((b) => isExecutable(join(dir, b))));
}

/** The uid and gid the server runs as: this process's own, or `nobody`'s when it is root. */
function serverIdentity(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

/** Every folder from `dir` up to the root lets other users through (o+x). */
function othersCanReach(dir: string): boolean {
  for (let current = dir; ; current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (dirname(current) === current) return true;
  }
}

/**
 * Where the server's folder goes: the temp folder, unless the server runs as another user who
 * cannot reach it (a TMPDIR made by `mktemp -d` is 0700), then the system's shared /tmp.
 */
function serverParent(identity: { uid: number; gid: number } | undefined): string {
  if (identity === undefined || othersCanReach(tmpdir())) return tmpdir();
  if (existsSync("/tmp") && othersCanReach("/tmp")) return "/tmp";
  throw new Error(
    `running as root, the PostgreSQL server runs as nobody, who cannot reach ${tmpdir()}: set TMPDIR to a folder other users can traverse`,
  );
}

function runAs(
  identity: { uid: number; gid: number } | undefined,
  file: string,
  args: string[],
  cwd: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      ...(identity ?? {}),
      env: { ...process.env, LC_ALL: "C" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args[0]} failed (${code}):\n${output}`)),
    );
  });
}

export interface PostgresOptions {
  /** Serve TLS too, with a self-signed certificate for 127.0.0.1 made by openssl. */
  readonly tls?: boolean;
}

/** A self-signed certificate and key for 127.0.0.1, owned by the server's user. */
function selfSignedCertificate(
  root: string,
  identity: { uid: number; gid: number } | undefined,
): { cert: string; key: string } {
  const cert = join(root, "server.crt");
  const key = join(root, "server.key");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  chmodSync(key, 0o600);
  if (identity !== undefined) {
    chownSync(cert, identity.uid, identity.gid);
    chownSync(key, identity.uid, identity.gid);
  }
  return { cert, key };
}

/** Starts a server; throws POSTGRES_MISSING when the binaries are not installed. */
export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const binDir = postgresBinDir();
  if (binDir === undefined) throw new Error(POSTGRES_MISSING);
  const identity = serverIdentity();
  const root = await mkdtemp(join(serverParent(identity), "voice-platform-postgres-"));
  const data = join(root, "data");
  if (identity !== undefined) chownSync(root, identity.uid, identity.gid);
  const pgCtl = join(binDir, "pg_ctl");

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", stop);
    try {
      execFileSync(pgCtl, ["stop", "-D", data, "-m", "immediate", "-w"], {
        cwd: root,
        stdio: "ignore",
        ...(identity ?? {}),
      });
    } catch {
      // Not running (it never started, or already stopped).
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.on("exit", stop);

  try {
    await runAs(
      identity,
      join(binDir, "initdb"),
      ["-D", data, "-A", "trust", "-U", POSTGRES_USER, "-E", "UTF8", "--no-sync"],
      root,
    );
    const tls = options.tls === true ? selfSignedCertificate(root, identity) : undefined;
    const port = await startServer(identity, pgCtl, root, data);
    const admin = (query: string) => adminQuery(root, port, query);
    if (tls !== undefined) {
      // Through ALTER SYSTEM, not the command line, so a test can turn TLS off and on again.
      await admin(`ALTER SYSTEM SET ssl_cert_file = '${tls.cert}'`);
      await admin(`ALTER SYSTEM SET ssl_key_file = '${tls.key}'`);
      await admin("ALTER SYSTEM SET ssl = on");
      await admin("SELECT pg_reload_conf()");
    }
    return {
      port,
      ...(tls === undefined ? {} : { certificateFile: tls.cert }),
      admin,
      setHba: async (lines) => {
        const hba = join(data, "pg_hba.conf");
        writeFileSync(hba, `${["local all all trust", ...lines].join("\n")}\n`, { mode: 0o600 });
        if (identity !== undefined) chownSync(hba, identity.uid, identity.gid);
        await admin("SELECT pg_reload_conf()");
      },
      createDatabase: (name) => createDatabase(port, name),
      url: (database) => backendUrl(port, database),
      pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/** pg_ctl start on a free port, again on another one if that port was taken meanwhile. */
async function startServer(
  identity: { uid: number; gid: number } | undefined,
  pgCtl: string,
  root: string,
  data: string,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // -F: no fsync, the data is thrown away; 200 connections for many CLIs at once.
    const options = `-p ${port} -k ${root} -h 127.0.0.1 -F -c max_connections=200`;
    try {
      await runAs(
        identity,
        pgCtl,
        ["start", "-D", data, "-w", "-t", "60", "-l", join(root, "server.log"), "-o", options],
        root,
      );
      return port;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** SQL as the superuser over the server's Unix socket in `root`. */
async function adminQuery(
  root: string,
  port: number,
  query: string,
): Promise<Record<string, unknown>[]> {
  const postgres = (await import("postgres")).default;
  const sql = postgres({
    host: root,
    port,
    user: POSTGRES_USER,
    database: "postgres",
    max: 1,
    onnotice: () => {},
  });
  try {
    return [...(await sql.unsafe(query))];
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function backendUrl(port: number, database: string): string {
  return `postgres://${POSTGRES_USER}@127.0.0.1:${port}/${database}?sslmode=disable`;
}

async function createDatabase(port: number, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const postgres = (await import("postgres")).default;
  const sql = postgres(backendUrl(port, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  return backendUrl(port, name);
}
