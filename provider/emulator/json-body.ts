import type { IncomingMessage } from "node:http";
import { ErrorAnswer } from "./errors";

const MAX_JSON_BODY_BYTES = 1024 * 1024;

export function mediaTypeOf(req: IncomingMessage): string | undefined {
  const header = req.headers["content-type"];
  if (header === undefined) return undefined;
  return header.split(";")[0]?.trim().toLowerCase();
}

export function requireMediaType(req: IncomingMessage, expected: string): void {
  const actual = mediaTypeOf(req);
  if (actual === expected) return;
  const got = actual === undefined ? "no Content-Type header" : `"${actual}"`;
  throw new ErrorAnswer(
    415,
    "unsupported_media_type",
    `Content-Type must be ${expected}; got ${got}.`,
  );
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBodyText(req);
  if (text.trim() === "") {
    throw new ErrorAnswer(
      400,
      "malformed_json",
      "The request body is empty; expected a JSON object.",
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ErrorAnswer(400, "malformed_json", `The request body is not valid JSON: ${reason}`);
  }
}

/**
 * Event based rather than `for await`: leaving an async iterator early destroys the request and
 * with it the socket, and the 413 answer would never reach the client.
 */
export function readBodyText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) return;
      if (size > MAX_JSON_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        reject(
          new ErrorAnswer(
            413,
            "body_too_large",
            `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes.`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("client closed the connection during the body"));
    });
  });
}
