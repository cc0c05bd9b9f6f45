import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface FileLockOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /** A lock held longer than this is taken as abandoned (an owner killed mid-install). */
  staleMs?: number;
}

/**
 * Runs `work` while holding a lock shared by every process on the machine: jest workers and
 * parallel test runs build, pack and install into the same cache directories. `mkdir` is atomic,
 * so the lock is a directory; it holds the owner's pid so a lock left by a dead process is taken.
 */
export async function withFileLock<T>(
  lockDir: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const staleMs = options.staleMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(lockDir), { recursive: true });
  for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
    if (await tryAcquire(lockDir)) break;
    if (await isAbandoned(lockDir, staleMs)) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${lockDir}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function tryAcquire(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  await writeFile(join(lockDir, "owner"), String(process.pid));
  return true;
}

async function isAbandoned(lockDir: string, staleMs: number): Promise<boolean> {
  try {
    const info = await stat(lockDir);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const owner = Number(await readFile(join(lockDir, "owner"), "utf8"));
    return Number.isInteger(owner) && owner > 0 && !isAlive(owner);
  } catch {
    // The owner file is written just after the directory: a missing one is a lock being taken.
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
