import type { ServerResponse } from "node:http";
import type { ErrorAnswer } from "./errors";

export function sendError(res: ServerResponse, error: ErrorAnswer): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  sendJson(res, error.status, error.toBody());
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body));
}

/** Also used to send deliberately broken JSON, hence the JSON content type on raw text. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(text);
}
