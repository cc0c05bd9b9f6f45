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
  constructor(readonly baseUrl: string) {}

  state(): Promise<EmulatorState> {
    return this.call("GET", "state");
  }

  requests(): Promise<RequestLogEntry[]> {
    return this.call("GET", "requests");
  }

  async reset(): Promise<void> {
    await this.call("POST", "reset");
  }

  async addFault(rule: FaultRule): Promise<string> {
    const { id } = await this.call<{ id: string }>("POST", "faults", rule);
    return id;
  }

  faults(): Promise<ActiveFaultRule[]> {
    return this.call("GET", "faults");
  }

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
