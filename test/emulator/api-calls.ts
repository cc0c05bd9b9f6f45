import { openAsBlob } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FormData, request } from "undici";
import type { ErrorBody } from "../../provider/emulator";

/** Test-side HTTP calls against a running emulator, through undici like the provider. */

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export interface CallOptions {
  apiKey?: string;
  headers?: Record<string, string>;
  body?: string | FormData;
  signal?: AbortSignal;
}

export async function call(method: string, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const response = await request(url, {
    method: method as "GET",
    headers,
    body: options.body,
    signal: options.signal,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json } as CallResult;
}

export function callJson(method: string, url: string, body: unknown, options: CallOptions = {}) {
  return call(method, url, {
    ...options,
    headers: { "content-type": "application/json", ...options.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Field values are strings on the wire; `files` are paths of sample files. */
export async function cloneForm(fields: Record<string, string>, files: string[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const path of files) form.append("files", await openAsBlob(path), path.split("/").pop());
  return form;
}

export function errorOf(result: CallResult): ErrorBody["error"] {
  const error = (result.json as Partial<ErrorBody> | undefined)?.error;
  if (error === undefined)
    throw new Error(`expected an error body, got ${result.status} ${result.text}`);
  return error;
}

export interface SampleFiles {
  directory: string;
  /** Writes a file of `size` bytes of a repeating pattern and returns its path. */
  create(name: string, size: number): Promise<string>;
  remove(): Promise<void>;
}

export async function sampleFiles(): Promise<SampleFiles> {
  const directory = await mkdtemp(join(tmpdir(), "emulator-samples-"));
  return {
    directory,
    create: async (name, size) => {
      const path = join(directory, name);
      await writeFile(path, Buffer.alloc(size, name));
      return path;
    },
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}
