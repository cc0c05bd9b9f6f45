/**
 * Whether a stack is locked, by whom, and whether that holder still runs. While a `pulumi up`
 * runs, its checkpoint already lists its in-flight creates as pending operations: only the lock
 * tells a live update from a dead one, and `pulumi cancel` on a file backend deletes the lock even
 * of a live update. Measured on CLI 3.248:
 *
 * - `pulumi stack export` succeeds on a locked stack and says nothing about the lock;
 * - `pulumi stack import` fails with "the stack is currently locked by N lock(s). ..." followed by
 *   one line per lock: "  <lock file URL>: created by <user>@<host> (pid <pid>) at <time>";
 * - the file backend keeps each lock as `.pulumi/locks/organization/<project>/<stack>/<uuid>.json`
 *   holding `{"pid", "username", "hostname", "timestamp"}` (a `.attrs` file sits beside it);
 * - `pulumi whoami --json` names the backend URL (`file:///...` for a file backend);
 * - the PostgreSQL backend (`postgres://...`) keeps the same objects as rows of a table, each lock
 *   under the same key as the file (postgres-locks.ts reads them); an S3-compatible bucket
 *   (`s3://...`, s3-locks.ts) and an Azure Blob container (`azblob://...`, azblob-locks.ts) keep
 *   them as objects under the URL's path;
 * - a Google Cloud Storage bucket (`gs://...`) keeps them the same way, but nothing here reads it
 *   (no client, nothing to test against): preflight says so and relies on the CLI's own refusal;
 * - Pulumi Cloud shows an update in progress (`pulumi stack ls --json`), not who runs it.
 */
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { backendDeadline, type BackendDeadline } from "./backend-deadline";
import { fileBackendDirectory } from "../../settings/backend-location";

export { fileBackendDirectory };
import type { ExportedStack } from "../state/exported-state";
import { azureBlobLockRecords, isAzureBlobBackend } from "./azblob-locks";
import { lockKeyPrefixes } from "./lock-objects";
import { isPostgresBackend, postgresLockRecords } from "./postgres-locks";
import { isS3Backend, s3LockRecords } from "./s3-locks";

/** The Pulumi calls preflight and recover make, so tests can stand in for the CLI. */
export interface StackAccess {
  exportStack(options?: { showSecrets?: boolean }): Promise<ExportedStack>;
  importStack(exported: ExportedStack): Promise<void>;
  cancelUpdate(): Promise<void>;
  /** The backend URL the CLI is logged into (`pulumi whoami --json`), when it says. */
  backendUrl(): Promise<string | undefined>;
  /** `updateInProgress` of the stack in `pulumi stack ls --json` (set by service backends only). */
  updateInProgress(): Promise<boolean>;
}

/** Who holds a lock, as far as the backend shows it. */
export interface LockHolder {
  readonly user?: string;
  readonly host?: string;
  readonly pid?: number;
  readonly since?: Date;
}

/**
 * alive: a process of this machine with the holder's pid runs; dead: none does; unknown: the
 * holder is on another machine, or the backend does not say.
 */
export type Liveness = "alive" | "dead" | "unknown";

export interface HeldLock {
  readonly holder: LockHolder;
  readonly liveness: Liveness;
}

/** Where the process runs: the host name and pid check a lock holder against. */
export interface LocalMachine {
  readonly hostname: string;
  isRunning(pid: number): boolean;
}

export const thisMachine: LocalMachine = {
  hostname: hostname(),
  isRunning(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: the process exists but belongs to another user.
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
};

/** The holders a "currently locked" error of `pulumi stack import` (or `up`) lists. */
export function holdersInLockedError(stderr: string): LockHolder[] {
  const holders: LockHolder[] = [];
  for (const match of stderr.matchAll(/created by (\S+)@(\S+) \(pid (\d+)\) at (\S+)/g)) {
    holders.push(
      holderOf({
        username: match[1],
        hostname: match[2],
        pid: Number(match[3]),
        timestamp: match[4],
      }),
    );
  }
  return holders;
}

export function holderOf(file: Record<string, unknown>): LockHolder {
  const since = typeof file.timestamp === "string" ? new Date(file.timestamp) : undefined;
  return {
    ...(typeof file.username === "string" ? { user: file.username } : {}),
    ...(typeof file.hostname === "string" ? { host: file.hostname } : {}),
    ...(typeof file.pid === "number" && Number.isInteger(file.pid) ? { pid: file.pid } : {}),
    ...(since !== undefined && !Number.isNaN(since.getTime()) ? { since } : {}),
  };
}

/**
 * The lock folders of a stack on a file backend: the project layout (3.248's default,
 * `locks/organization/<project>/<stack>`) and the older one without projects (`locks/<stack>`).
 */
export function lockDirectories(backendDir: string, project: string, stack: string): string[] {
  const locks = join(backendDir, ".pulumi", "locks");
  return [join(locks, "organization", project, stack), join(locks, stack)];
}

export async function lockFileHolders(directories: readonly string[]): Promise<LockHolder[]> {
  const holders: LockHolder[] = [];
  for (const dir of directories) {
    if (!existsSync(dir)) continue;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".json")) continue;
      const text = await readFile(join(dir, entry.name), "utf8").catch(() => undefined);
      // A lock released while listing, or a file that is not a lock: the CLI ignores it too.
      if (text === undefined) continue;
      try {
        holders.push(holderOf(JSON.parse(text) as Record<string, unknown>));
      } catch {
        holders.push({});
      }
    }
  }
  return holders;
}

/** Only a process of this machine can be checked: its pid either runs or it does not. */
export function livenessOf(holder: LockHolder, machine: LocalMachine): Liveness {
  if (holder.pid === undefined || holder.host === undefined) return "unknown";
  if (holder.host !== machine.hostname) return "unknown";
  return machine.isRunning(holder.pid) ? "alive" : "dead";
}

export interface LockQuery {
  /** `--stack` as given (may be `org/project/stack`). */
  readonly stack?: string;
  /** Pulumi.yaml's folder, for the project name when the state holds no URN yet. */
  readonly projectDir: string;
}

/**
 * Backends whose lock objects live under keys a reader lists, with that reader; each read has a
 * deadline of its own.
 */
const BUCKET_LOCK_READERS: readonly {
  readonly matches: (url: string) => boolean;
  readonly read: (
    url: string,
    prefixes: readonly string[],
    deadline: BackendDeadline,
  ) => Promise<Record<string, unknown>[]>;
}[] = [
  { matches: isPostgresBackend, read: postgresLockRecords },
  { matches: isS3Backend, read: s3LockRecords },
  { matches: isAzureBlobBackend, read: azureBlobLockRecords },
];

/**
 * Backends where preflight cannot see a lock, and what it does there; undefined where it can
 * (file, PostgreSQL, S3-compatible, Azure Blob) or asks the service (Pulumi Cloud).
 */
export function unseenLocksNote(url: string | undefined): string | undefined {
  if (url === undefined || !/^gs:\/\//i.test(url)) return undefined;
  return "Locks on a Google Cloud Storage backend are not read here: a run that holds one is not seen, and recover relies on `pulumi stack import` refusing a locked stack. Keep the runs of one stack in one queue (one concurrency group).";
}

/** Every lock the backend shows on the stack; empty when it shows none. */
export async function findStackLocks(
  access: StackAccess,
  exported: ExportedStack,
  query: LockQuery,
  machine: LocalMachine = thisMachine,
): Promise<HeldLock[]> {
  const url = await access.backendUrl();
  const backendDir = url === undefined ? undefined : fileBackendDirectory(url);
  const reader =
    url === undefined ? undefined : BUCKET_LOCK_READERS.find((candidate) => candidate.matches(url));
  if (backendDir === undefined && reader === undefined) {
    if (unseenLocksNote(url) !== undefined) return [];
    // A service backend shows an update in progress, but not who runs it.
    return (await access.updateInProgress()) ? [{ holder: {}, liveness: "unknown" }] : [];
  }
  const names = stackAndProject(exported, query);
  if (names === undefined) return [];
  const holders =
    backendDir !== undefined
      ? await lockFileHolders(lockDirectories(backendDir, names.project, names.stack))
      : (
          await reader!.read(
            url!,
            lockKeyPrefixes(url!, names.project, names.stack),
            backendDeadline(),
          )
        ).map(holderOf);
  return holders.map((holder) => ({ holder, liveness: livenessOf(holder, machine) }));
}

function stackAndProject(
  exported: ExportedStack,
  query: LockQuery,
): { stack: string; project: string } | undefined {
  const urn = exported.deployment.resources?.[0]?.urn;
  const fromUrn = urn === undefined ? undefined : /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  const project = fromUrn?.[2] ?? projectNameIn(query.projectDir);
  const stack = query.stack?.split("/").at(-1) ?? fromUrn?.[1];
  return project === undefined || stack === undefined ? undefined : { stack, project };
}

function projectNameIn(dir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    return /^name:\s*["']?([^"'\s#]+)/m.exec(readFileSync(path, "utf8"))?.[1];
  }
  return undefined;
}

/** "root@ci-runner-7 (pid 4211), locked 12 min ago, still running" as far as known. */
export function describeLock(lock: HeldLock, now: Date): string {
  const { holder } = lock;
  const who =
    holder.user === undefined && holder.host === undefined
      ? "an update the backend reports as in progress"
      : `${holder.user ?? "?"}@${holder.host ?? "?"}`;
  const parts = [holder.pid === undefined ? who : `${who} (pid ${holder.pid})`];
  if (holder.since !== undefined) {
    parts.push(
      `locked ${ageText(now.getTime() - holder.since.getTime())} ago (${holder.since.toISOString()})`,
    );
  }
  parts.push(
    lock.liveness === "alive"
      ? "that process is still running on this machine"
      : lock.liveness === "dead"
        ? "no process with that pid runs on this machine any more"
        : "whether it still runs cannot be checked from here",
  );
  return parts.join(", ");
}

export function ageText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

/** A lock whose holder is not known to be dead: an update that may still be running. */
export function mayBeRunning(locks: readonly HeldLock[]): HeldLock[] {
  return locks.filter((lock) => lock.liveness !== "dead");
}
