import type { IncomingMessage } from "node:http";
import type { Caller } from "./auth";
import type { AnswerShape, RequestLogEntry } from "./control-types";
import { readJsonBody, requireMediaType } from "./json-body";
import type { StateStore } from "./state-store";

export interface OperationRequest {
  req: IncomingMessage;
  caller: Caller;
  params: Readonly<Record<string, string>>;
  store: StateStore;
  logEntry: RequestLogEntry;
  /** How much the answer holds: what the spec shows, or more. */
  answers: AnswerShape;
}

/**
 * A validated operation that has not touched state yet. Splitting validation from `commit`
 * lets faults decide after validation whether the object gets stored (reset-after) or not
 * (empty-clone, data-false).
 */
export interface PreparedOperation {
  successStatus: 200 | 201;
  /** Stores the object and returns the response body. */
  commit(): unknown;
}

export type OperationHandler = (request: OperationRequest) => Promise<PreparedOperation>;

export async function readLoggedJsonBody(request: OperationRequest): Promise<unknown> {
  requireMediaType(request.req, "application/json");
  const body = await readJsonBody(request.req);
  request.logEntry.body = request.store.redacted(body);
  return body;
}
