/**
 * What every bucket-like state backend (PostgreSQL's table, S3, Azure Blob) shares: Pulumi's diy
 * backend puts the URL's path before every key (`<path>/.pulumi/...`, pkg/backend/diy/backend.go
 * at v3.248.0, `blob.PrefixedBucket`), and a stack's lock is the JSON object
 * `.pulumi/locks/organization/<project>/<stack>/<uuid>.json` holding its holder.
 */

/**
 * The steps of a lock read, each within the read's own deadline (backend-deadline.ts): a step
 * that stalls is tried again while the deadline leaves time.
 */
export const LOCK_READ_STEPS = {
  /** Reaching the backend (TCP, TLS, authentication). */
  connectSeconds: 10,
  /** One attempt of a request once connected. */
  attemptSeconds: 10,
} as const;

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
