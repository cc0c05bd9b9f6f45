/**
 * Lock holders on an S3-compatible state backend, read (read-only) with the official AWS SDK.
 * Measured behaviour: docs/operations.md#how-preflight-reads-the-locks
 */
import type {
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ClientConfig,
} from "@aws-sdk/client-s3";
import {
  backendDeadline,
  BACKEND_TIMEOUT_VARIABLE,
  limitText,
  stepMilliseconds,
  type BackendDeadline,
} from "./backend-deadline";
import { BackendReadError, BackendTimeoutError } from "../errors";
import { loadS3Client } from "./backend-clients";
import { isLockKey, LOCK_READ_STEPS, lockRecordOf } from "./lock-objects";

export function isS3Backend(url: string): boolean {
  return /^s3:\/\//i.test(url);
}

/** URL parameters that change how objects are written, not how they are read. */
const WRITE_ONLY_PARAMETERS = new Set([
  "awssdk",
  "rate_limiter_capacity",
  "ssetype",
  "kmskeyid",
  "request_checksum_calculation",
  "response_checksum_validation",
  "hostname_immutable",
]);

function flag(value: string | null): boolean {
  return value !== null && /^(1|t|true)$/i.test(value);
}

/**
 * The bucket and the client configuration the backend URL describes; each attempt of a request
 * within the steps' limits, none past the read's deadline.
 */
export function s3ClientSettings(
  url: string,
  deadline: BackendDeadline = backendDeadline(),
): { bucket: string; config: S3ClientConfig } {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  const bucket = decodeURIComponent(parsed.hostname);
  for (const name of query.keys()) {
    if (name === "role") {
      throw new BackendReadError(
        "the backend URL's `role` parameter is not read by preflight and recover: assume the role before running them (for example AWS_ROLE_ARN with AWS_WEB_IDENTITY_TOKEN_FILE, or a profile with role_arn)",
      );
    }
  }
  const insecure = flag(query.get("disable_https")) || flag(query.get("disableSSL"));
  let endpoint = query.get("endpoint") ?? undefined;
  // As the CLI does with a bare host name: https unless the URL turns it off.
  if (endpoint !== undefined && !endpoint.includes("://")) {
    endpoint = `${insecure ? "http" : "https"}://${endpoint}`;
  }
  const region = query.get("region") ?? undefined;
  const profile = query.get("profile") ?? undefined;
  const config: S3ClientConfig = {
    ...(region === undefined ? {} : { region }),
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(profile === undefined ? {} : { profile }),
    forcePathStyle: flag(query.get("use_path_style")) || flag(query.get("s3ForcePathStyle")),
    useDualstackEndpoint: flag(query.get("dualstack")),
    useFipsEndpoint: flag(query.get("fips")),
    useAccelerateEndpoint: flag(query.get("accelerate")),
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: stepMilliseconds(LOCK_READ_STEPS.connectSeconds, deadline),
      requestTimeout: stepMilliseconds(LOCK_READ_STEPS.attemptSeconds, deadline),
      // Without it the SDK only prints a warning when an attempt passes requestTimeout, and
      // goes on waiting for a server that never answers.
      throwOnRequestTimeout: true,
    },
  };
  return { bucket, config };
}

/** Query parameters the reader does not know; they are named in a failure's message. */
export function unknownS3Parameters(url: string): string[] {
  const known = new Set([
    "region",
    "endpoint",
    "profile",
    "use_path_style",
    "s3ForcePathStyle",
    "disable_https",
    "disableSSL",
    "dualstack",
    "fips",
    "accelerate",
  ]);
  return [...new URL(url).searchParams.keys()].filter(
    (name) => !known.has(name) && !WRITE_ONLY_PARAMETERS.has(name),
  );
}

/**
 * The JSON of every lock object under the prefixes. Every request carries the deadline's signal:
 * when it passes, the SDK aborts what is in flight and the read fails, naming the bucket.
 */
export async function s3LockRecords(
  url: string,
  prefixes: readonly string[],
  deadline: BackendDeadline = backendDeadline(),
): Promise<Record<string, unknown>[]> {
  const { bucket, config } = s3ClientSettings(url, deadline);
  const sdk = await loadS3Client();
  const client = new sdk.S3Client(config);
  const where = `the S3 bucket "${bucket}"${config.endpoint === undefined ? "" : ` at ${String(config.endpoint)}`}`;
  const check =
    "check that this machine reaches the bucket with the AWS credentials and region `pulumi` uses (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, AWS_REGION, the URL's region, endpoint and profile)";
  try {
    return await lockObjects(client, sdk, bucket, prefixes, deadline.signal);
  } catch (error) {
    if (deadline.signal.aborted) {
      throw new BackendTimeoutError(
        `could not read the stack's locks from ${where}: no answer within ${limitText(deadline)}; ${check}, and that the server answers (not stopped, paused or overloaded); if it is only slow, raise ${BACKEND_TIMEOUT_VARIABLE}`,
      );
    }
    const { name, message } = error as Error;
    const unknown = unknownS3Parameters(url);
    throw new BackendReadError(
      `could not read the stack's locks from ${where} (${name}: ${message}); ${check}` +
        (unknown.length === 0 ? "" : `; the URL's ${unknown.join(", ")} are not read here`),
    );
  } finally {
    client.destroy();
  }
}

async function lockObjects(
  client: S3Client,
  commands: {
    ListObjectsV2Command: typeof ListObjectsV2Command;
    GetObjectCommand: typeof GetObjectCommand;
  },
  bucket: string,
  prefixes: readonly string[],
  abortSignal: AbortSignal,
): Promise<Record<string, unknown>[]> {
  const { ListObjectsV2Command, GetObjectCommand } = commands;
  const records: Record<string, unknown>[] = [];
  for (const prefix of prefixes) {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        { abortSignal },
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined || !isLockKey(object.Key)) continue;
        const got = await client
          .send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }), { abortSignal })
          .catch((error: { name?: string }) => {
            // A lock released while listing: the CLI ignores it too.
            if (error.name === "NoSuchKey") return undefined;
            throw error;
          });
        if (got?.Body === undefined) continue;
        records.push(lockRecordOf(await got.Body.transformToString()));
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }
  return records;
}
