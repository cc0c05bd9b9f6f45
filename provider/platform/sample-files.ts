import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { InputError, SampleChangedError } from "./errors";
import { sampleHashes, type SampleHashEntry } from "./sample-hash-cache";

/** A sample as it reaches the provider: a path string or a FileAsset's plain-object form. */
export type SampleInput = string | { readonly path: string };

export interface SampleFacts {
  /** The file's base name, as uploaded. */
  readonly name: string;
  readonly sha256: string;
  readonly size: number;
}

/** Relative paths resolve against the project directory, the provider's working directory. */
export function samplePath(input: SampleInput): string {
  return resolve(typeof input === "string" ? input : input.path);
}

const stampOf = (info: { size: number; mtimeMs: number; ino: number }) =>
  `${info.size}:${info.mtimeMs}:${info.ino}`;

/** The sha256 the engine computed for a FileAsset's content, when the input carries one. */
function engineHashOf(input: SampleInput): string | undefined {
  const hash = typeof input === "object" ? (input as { hash?: unknown }).hash : undefined;
  return typeof hash === "string" && /^[0-9a-f]{64}$/.test(hash) ? hash : undefined;
}

/**
 * Hashes a sample by streaming it. Results are cached per path, size and modification time, since
 * check, diff and create of one `pulumi up` run in the same process and look at the same files.
 * A FileAsset usually arrives with the sha256 the engine computed of its content; that one is
 * used instead of reading the file again.
 */
export async function describeSample(input: SampleInput): Promise<SampleFacts> {
  const path = samplePath(input);
  const info = await stat(path);
  const engineHash = engineHashOf(input);
  if (engineHash !== undefined)
    return { name: basename(path), sha256: engineHash, size: info.size };
  const stamp = stampOf(info);
  const hashCache = sampleHashes();
  const cached = hashCache.get(path);
  if (cached?.stamp === stamp) return cached.facts;
  const entry: SampleHashEntry = {
    stamp,
    facts: hashFile(path, info.size).then((sha256) => {
      entry.sha256 = sha256;
      return { name: basename(path), sha256, size: info.size };
    }),
  };
  hashCache.set(path, entry);
  entry.facts.catch(() => hashCache.delete(path));
  return entry.facts;
}

/**
 * A sample as the clone form sends it: a File-like part (the shape multipart encoders accept)
 * whose content is read from disk while it is sent and hashed from those very bytes. One read
 * instead of one to hash and one to send, so the upload runs at the speed of a plain one; memory
 * stays a few chunks whatever the size; and the sha256 kept in state is that of what was sent.
 */
export class SampleUpload {
  readonly type: string;
  readonly lastModified: number;
  private lastSent: SampleFacts | undefined;

  private constructor(
    readonly path: string,
    readonly name: string,
    readonly size: number,
    private readonly stamp: string,
    /** The content's sha256 when already known: from the engine, or hashed earlier. */
    private readonly knownHash: string | undefined,
    modifiedMs: number,
  ) {
    this.type = sampleContentType(path);
    this.lastModified = Math.trunc(modifiedMs);
  }

  /** One `stat` of the sample; fails (ENOENT, EACCES…) before anything is sent. */
  static async open(input: SampleInput): Promise<SampleUpload> {
    const path = samplePath(input);
    const info = await stat(path);
    const stamp = stampOf(info);
    const cached = sampleHashes().get(path);
    const knownHash = engineHashOf(input) ?? (cached?.stamp === stamp ? cached.sha256 : undefined);
    return new SampleUpload(path, basename(path), info.size, stamp, knownHash, info.mtimeMs);
  }

  get [Symbol.toStringTag](): string {
    return "File";
  }

  /** The content in 64 KiB chunks, hashed on the way out unless the hash is known. */
  async *stream(): AsyncGenerator<Buffer> {
    const hash = this.knownHash === undefined ? createHash("sha256") : undefined;
    let read = 0;
    // 64 KiB: form-data-encoder passes chunks up to this size through as they are; it copies
    // larger ones into pieces.
    for await (const chunk of createReadStream(this.path, { highWaterMark: 64 * 1024 })) {
      const bytes = chunk as Buffer;
      read += bytes.length;
      // Checked before the chunk leaves: the platform never receives more than was announced.
      if (read > this.size) break;
      yield bytes;
      // Hashed once the chunk is on its way: the platform reads it while this thread hashes.
      hash?.update(bytes);
    }
    if (read !== this.size) {
      throw new SampleChangedError(
        `sample "${this.path}" changed while it was being uploaded (${this.size} bytes when the upload began, ` +
          `${read > this.size ? "more" : read} read), so the upload was cut short and nothing was created. ` +
          "Run `pulumi up` again once the file is final",
      );
    }
    const sha256 = hash?.digest("hex") ?? this.knownHash!;
    this.lastSent = { name: this.name, sha256, size: this.size };
    const facts = Promise.resolve(this.lastSent);
    sampleHashes().set(this.path, { stamp: this.stamp, facts, sha256 });
  }

  /** Name, sha256 and size of what the last complete upload sent (read from disk if none did). */
  facts(): Promise<SampleFacts> {
    if (this.lastSent !== undefined) return Promise.resolve(this.lastSent);
    if (this.knownHash !== undefined)
      return Promise.resolve({ name: this.name, sha256: this.knownHash, size: this.size });
    return describeSample(this.path);
  }
}

/** Above this size a sample is hashed on a worker thread, off the event loop that uploads it. */
const WORKER_HASH_MIN_BYTES = 8 * 1024 * 1024;

async function hashFile(path: string, size: number): Promise<string> {
  if (size >= WORKER_HASH_MIN_BYTES) return hashFileOnWorker(path);
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return hash.digest("hex");
}

// Kept as text so the worker needs no file of its own next to the compiled package. It reads into
// one reused buffer, so hashing a sample of any size allocates nothing per chunk.
const hashWorkerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
try {
  const hash = require("node:crypto").createHash("sha256");
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(workerData.path, "r");
  try {
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  parentPort.postMessage({ sha256: hash.digest("hex") });
} catch (error) {
  parentPort.postMessage({ error: error.message });
}
`;

function hashFileOnWorker(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Loaded here: the single executable's startup snapshot holds this module, and
    // node:worker_threads is not verified to work from a snapshot.
    const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
    const worker = new Worker(hashWorkerSource, {
      eval: true,
      workerData: { path },
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    worker.once("message", (answer: { sha256?: string; error?: string }) => {
      void worker.terminate();
      if (answer.sha256 !== undefined) resolve(answer.sha256);
      else
        reject(
          new InputError(`could not read sample "${path}": ${answer.error ?? "unknown error"}`),
        );
    });
    worker.once("error", reject);
  });
}

/**
 * The sha256 of a sample's content. For diff the engine sends a FileAsset without its path, with
 * the hash it computed itself (also a sha256 of the content), so that one is used as it is.
 */
export async function sampleHash(input: SampleInput | { readonly hash: string }): Promise<string> {
  if (typeof input === "object" && !("path" in input) && typeof input.hash === "string") {
    return input.hash;
  }
  return (await describeSample(input as SampleInput)).sha256;
}

/** Whether a sample can be read, and if not, why, for check to report before anything is sent. */
/**
 * What check says of a sample it cannot upload, `{path}` its absolute path: data, so the Python
 * SDK's mocks say the same (codegen/python-input-check.ts).
 */
export const SAMPLE_PROBLEMS = {
  notAFile: '"{path}" is not a regular file: give the path of an audio sample',
  empty: '"{path}" is empty: give a non-empty audio sample',
  unreadable:
    '"{path}" does not exist or cannot be read: fix the path (relative paths start at the project directory)',
} as const;

export async function sampleProblem(input: SampleInput): Promise<string | undefined> {
  const path = samplePath(input);
  const said = (problem: keyof typeof SAMPLE_PROBLEMS) =>
    SAMPLE_PROBLEMS[problem].replace("{path}", path);
  try {
    const info = await stat(path);
    if (!info.isFile()) return said("notAFile");
    if (info.size === 0) return said("empty");
    return undefined;
  } catch {
    return said("unreadable");
  }
}

const audioTypes: Record<string, string> = {
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
  ".webm": "audio/webm",
};

export function sampleContentType(path: string): string {
  return audioTypes[extname(path).toLowerCase()] ?? "application/octet-stream";
}
