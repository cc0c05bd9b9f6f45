import {
  FormDataEncoder,
  type FileLike,
  type FormDataEntryValue,
  type FormDataLike,
} from "form-data-encoder";

/**
 * The parts of a multipart body, in order, for form-data-encoder to write. Unlike a WHATWG
 * FormData it keeps a file part as it is given, so a sample reads from disk (and hashes) only
 * while the body is sent, with no web stream in between.
 */
export class MultipartForm implements FormDataLike {
  private readonly parts: [string, FormDataEntryValue][] = [];

  append(name: string, value: string | FileLike): void {
    this.parts.push([name, value]);
  }

  getAll(name: string): FormDataEntryValue[] {
    return this.parts.filter(([partName]) => partName === name).map(([, value]) => value);
  }

  entries(): IterableIterator<[string, FormDataEntryValue]> {
    return this.parts[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, FormDataEntryValue]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "FormData";
  }
}

/**
 * The body of a form and the headers announcing it. It is streamed part by part with its length
 * given up front, so undici fails the request if a file ends up longer or shorter than declared.
 * Once `stop` aborts, not another piece is read or sent.
 */
export function encodeMultipart(
  form: MultipartForm,
  stop?: AbortSignal,
): {
  headers: { "content-type": string; "content-length": string };
  body: AsyncIterable<Uint8Array>;
} {
  const encoder = new FormDataEncoder(form);
  return {
    headers: {
      "content-type": encoder.contentType,
      "content-length": String(encoder.contentLength),
    },
    body: coalesced(encoder.encode(), stop),
  };
}

/** Below this, parts are gathered before they are written: one write instead of dozens. */
const COALESCE_BYTES = 64 * 1024;

/**
 * The encoder yields every boundary, header line and field value as its own small piece, and
 * undici writes each piece to the socket on its own, a system call apiece. Small pieces are
 * joined until a sample chunk (already 64 KiB) or the end comes.
 */
export async function* coalesced(
  pieces: AsyncIterable<Uint8Array>,
  stop?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = () => {
    const joined = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    return joined;
  };
  for await (const piece of pieces) {
    stop?.throwIfAborted();
    if (piece.byteLength >= COALESCE_BYTES) {
      if (pendingBytes > 0) yield flush();
      yield piece;
      continue;
    }
    pending.push(piece);
    pendingBytes += piece.byteLength;
    if (pendingBytes >= COALESCE_BYTES) yield flush();
  }
  if (pendingBytes > 0) yield flush();
}
