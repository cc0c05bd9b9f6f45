/**
 * What every bucket-like state backend (PostgreSQL's table, S3, Azure Blob) shares: Pulumi's diy
 * backend puts the URL's path before every key (`<path>/.pulumi/...`, pkg/backend/diy/backend.go
 * at v3.248.0, `blob.PrefixedBucket`), and a stack's lock is the JSON object
 * `.pulumi/locks/organization/<project>/<stack>/<uuid>.json` holding its holder.
 */

/** How long a lock reader may take: one stalled backend must not hold a pipeline. */
export const LOCK_READ_TIMEOUTS = {
  /** Reaching the backend (TCP, TLS, authentication). */
  connectSeconds: 10,
  /** One statement or request once connected. */
  requestSeconds: 10,
} as const;

/** What a bucket's lock reader may take: connecting, and a listing and reads after it. */
const BUCKET_READ_SECONDS =
  LOCK_READ_TIMEOUTS.connectSeconds + LOCK_READ_TIMEOUTS.requestSeconds * 3;

/**
 * Reads a bucket's locks with an abort signal for every request: past the deadline the read
 * fails, saying so, and what it still has in flight is aborted.
 */
export function readWithinDeadline<T>(read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  return withinSeconds(BUCKET_READ_SECONDS, read(abort.signal), () => {
    abort.abort();
    return new Error(`no answer within ${BUCKET_READ_SECONDS} s`);
  });
}

/**
 * Where a stack's locks live: the project layout (3.248's default) and the older flat one, under
 * the URL's path as the backend puts it before every key.
 */
export function lockKeyPrefixes(url: string, project: string, stack: string): string[] {
  const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, "");
  const root = path === "" || path.endsWith("/") ? path : `${path}/`;
  return [
    `${root}.pulumi/locks/organization/${project}/${stack}/`,
    `${root}.pulumi/locks/${stack}/`,
  ];
}

/** A lock object's key: the `.attrs` files some stores keep beside each object are not locks. */
export function isLockKey(key: string): boolean {
  return key.endsWith(".json");
}

/** A lock object's holder as the CLI wrote it; an unreadable one still counts, of an unknown holder. */
export function lockRecordOf(bytes: Buffer | string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(bytes.toString());
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Rejects with `onTimeout()` when `work` has not settled within `seconds`. */
export async function withinSeconds<T>(
  seconds: number,
  work: Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), seconds * 1000);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
