import { request } from "undici";
import type {
  ActiveFaultRule,
  EmulatorSettings,
  EmulatorState,
  ErrorBody,
  FaultRule,
  RequestLogEntry,
} from "./control-types";

/** Typed access to the emulator's `/__emulator/` control surface. */
export class EmulatorClient {
  /** How much of the request log `newRequests` has handed out. */
  private handedOut = 0;

  constructor(readonly baseUrl: string) {}

  state(): Promise<EmulatorState> {
    return this.call("GET", "state");
  }

  requests(): Promise<RequestLogEntry[]> {
    return this.call("GET", "requests");
  }

  /** The requests received since the last call (the first call: since the start or a reset). */
  async newRequests(): Promise<RequestLogEntry[]> {
    const all = await this.requests();
    const fresh = all.slice(this.handedOut);
    this.handedOut = all.length;
    return fresh;
  }

  async reset(): Promise<void> {
    await this.call("POST", "reset");
    this.handedOut = 0;
  }

  async addFault(rule: FaultRule): Promise<string> {
    const { id } = await this.call<{ id: string }>("POST", "faults", rule);
    return id;
  }

  faults(): Promise<ActiveFaultRule[]> {
    return this.call("GET", "faults");
  }

  /** Removes every rule, and ends the latencies rules hold requests in (they then go on). */
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "faults");
  }

  settings(settings: Partial<EmulatorSettings>): Promise<EmulatorSettings> {
    return this.call("PUT", "settings", settings);
  }

  private async call<T>(method: "GET" | "POST" | "PUT" | "DELETE", name: string, body?: unknown) {
    const response = await request(`${this.baseUrl}/__emulator/${name}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await response.body.json()) as unknown;
    if (response.statusCode >= 400) {
      const message = (payload as Partial<ErrorBody>).error?.message ?? JSON.stringify(payload);
      throw new Error(`emulator control ${method} ${name}: ${response.statusCode} ${message}`);
    }
    return payload as T;
  }
}
