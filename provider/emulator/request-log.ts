import type { IncomingMessage } from "node:http";
import type { EmulatorOrigin, RequestLogEntry } from "./control-types";
import { redactHeaders } from "./redact-secrets";

/** Bounds memory in long interactive sessions; tests look at far fewer requests. */
const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  /** The entry stays live: the pipeline fills in body, fault and status as the request proceeds. */
  start(
    req: IncomingMessage,
    { path, origin, requestId }: { path: string; origin: EmulatorOrigin; requestId: string },
    caller: Pick<RequestLogEntry, "organizationId" | "subOrganizationId">,
  ) {
    const entry: RequestLogEntry = {
      requestId,
      receivedAt: new Date().toISOString(),
      method: req.method ?? "",
      path,
      origin,
      ...caller,
      status: null,
      headers: redactHeaders(req.headers),
      fault: null,
    };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.shift();
    return entry;
  }

  list(): readonly RequestLogEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
