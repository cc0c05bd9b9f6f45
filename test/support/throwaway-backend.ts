/**
 * A state backend for Pulumi that a test starts and throws away: an S3-compatible server (moto),
 * an Azure Blob emulator (Azurite) or PostgreSQL, each on a free loopback port, with the
 * credentials Pulumi's diy backend and the lock readers take from the environment.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForPort } from "./free-port";
import { postgresBinDir, POSTGRES_MISSING, startPostgres } from "./postgres";
import { locateTool, toolMissing } from "./test-tools";

export type BackendKind = "s3" | "azblob" | "postgres";

export interface ThrowawayBackend {
  readonly kind: BackendKind;
  /** A new, empty store (bucket, container, database) and the PULUMI_BACKEND_URL naming it. */
  createStore(name: string): Promise<string>;
  /** What `pulumi` and the lock readers need besides the URL: credentials, region. */
  readonly env: Record<string, string>;
  /**
   * Freezes the server (SIGSTOP): the kernel still accepts its connections, and nothing answers
   * them. Returns what thaws it (SIGCONT).
   */
  pause(): () => void;
  /** Stops the server and removes its files; safe to call twice. */
  stop(): Promise<void>;
}

/** SIGSTOP to a process, and the SIGCONT that undoes it. */
function pauser(pid: () => number | undefined): () => () => void {
  return () => {
    const target = pid();
    if (target === undefined) throw new Error("the server is not running");
    process.kill(target, "SIGSTOP");
    return () => process.kill(target, "SIGCONT");
  };
}

/** Dummy credentials: moto accepts any. */
const S3_ENV = {
  AWS_ACCESS_KEY_ID: "throwaway-access-key",
  AWS_SECRET_ACCESS_KEY: "throwaway-secret-key",
  AWS_REGION: "us-east-1",
};

/** Azurite's one account and its published well-known key (never a real secret). */
const AZURITE_ENV = {
  AZURE_STORAGE_ACCOUNT: "devstoreaccount1",
  AZURE_STORAGE_KEY:
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
};

function started(child: ChildProcess, what: string): { output: () => string } {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.once("exit", (code, signal) => {
    output += `\n[${what} exited: ${signal ?? code}]`;
  });
  return { output: () => output };
}

function stopper(child: ChildProcess, folder?: string): () => Promise<void> {
  let done: Promise<void> | undefined;
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  };
  process.once("exit", kill);
  return () =>
    (done ??= new Promise<void>((resolve) => {
      process.removeListener("exit", kill);
      if (child.exitCode !== null || child.signalCode !== null) {
        kill();
        resolve();
        return;
      }
      child.once("exit", () => {
        kill();
        resolve();
      });
      child.kill("SIGTERM");
      setTimeout(kill, 5000).unref();
    }));
}

/** moto's S3 server; each store is a bucket made with a plain PUT. */
export async function startMoto(): Promise<ThrowawayBackend> {
  const moto = locateTool("moto");
  if (moto === undefined) throw new Error("moto_server is not installed");
  const port = await freePort();
  const child = spawn(moto, ["-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = started(child, "moto_server");
  const stop = stopper(child);
  try {
    await waitForPort(port, 60_000, "moto_server");
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${log.output()}`);
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    kind: "s3",
    env: S3_ENV,
    async createStore(name) {
      const response = await fetch(`${endpoint}/${name}`, { method: "PUT" });
      if (!response.ok) throw new Error(`creating bucket ${name}: HTTP ${response.status}`);
      return `s3://${name}?endpoint=${encodeURIComponent(endpoint)}&s3ForcePathStyle=true&region=us-east-1`;
    },
    pause: pauser(() => child.pid),
    stop,
  };
}

/** Azurite's Blob service; each store is a container made with @azure/storage-blob. */
export async function startAzurite(): Promise<ThrowawayBackend> {
  const azurite = locateTool("azurite");
  if (azurite === undefined) throw new Error("azurite-blob is not installed");
  const port = await freePort();
  const folder = mkdtempSync(join(tmpdir(), "voice-platform-azurite-"));
  const child = spawn(
    azurite,
    [
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      String(port),
      "--location",
      folder,
      "--skipApiVersionCheck",
      "--loose",
      // Without it Azurite tries to reach a telemetry host on the internet.
      "--disableTelemetry",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = started(child, "azurite-blob");
  const stop = stopper(child, folder);
  try {
    await waitForPort(port, 60_000, "azurite-blob");
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${log.output()}`);
  }
  const domain = `127.0.0.1:${port}`;
  return {
    kind: "azblob",
    env: AZURITE_ENV,
    async createStore(name) {
      const { BlobServiceClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
      const service = new BlobServiceClient(
        `http://${domain}/${AZURITE_ENV.AZURE_STORAGE_ACCOUNT}`,
        new StorageSharedKeyCredential(
          AZURITE_ENV.AZURE_STORAGE_ACCOUNT,
          AZURITE_ENV.AZURE_STORAGE_KEY,
        ),
      );
      await service.getContainerClient(name).create();
      return `azblob://${name}?localemu=true&domain=${domain}&protocol=http`;
    },
    pause: pauser(() => child.pid),
    stop,
  };
}

/** PostgreSQL (test/support/postgres.ts) behind the same interface; each store is a database. */
export async function startPostgresBackend(): Promise<ThrowawayBackend> {
  const postgres = await startPostgres();
  return {
    kind: "postgres",
    env: {},
    createStore: (name) => postgres.createDatabase(name.replace(/-/g, "_")),
    // The postmaster: it accepts every new connection, so frozen, none is served.
    pause: pauser(() => postgres.pid()),
    stop: async () => postgres.stop(),
  };
}

/** Whether the server of a kind can start here, and if not, how to install it. */
export function backendRequirement(kind: BackendKind): { available: boolean; missing: string } {
  if (kind === "postgres") {
    return { available: postgresBinDir() !== undefined, missing: POSTGRES_MISSING };
  }
  const tool = kind === "s3" ? "moto" : "azurite";
  return { available: locateTool(tool) !== undefined, missing: toolMissing(tool) };
}

export function startBackend(kind: BackendKind): Promise<ThrowawayBackend> {
  return kind === "s3" ? startMoto() : kind === "azblob" ? startAzurite() : startPostgresBackend();
}
