import { request } from "undici";
import type {
  ActiveFaultRule,
  EmulatorSettings,
  EmulatorState,
  ErrorBody,
  FaultRule,
  RequestLogEntry,
} from "./control-types";
import { EmulatorError } from "./errors";
import type { FaultsSpec } from "./fault-profiles";
import { matchesRequest, type RequestFilter } from "./request-filter";

/**
 * What a test asks an emulator, through its `/__emulator/` control surface: the same for one
 * started in the test's process (`startEmulator`) and one started by the command, in another
 * process (`connectEmulator(baseUrl)`).
 */
export interface EmulatorControl {
  /** Every organization's objects; secrets as "[redacted]". */
  state(): Promise<EmulatorState>;
  /** The request log, oldest first; with a filter, only the entries it matches. */
  requests(filter?: RequestFilter): Promise<RequestLogEntry[]>;
  /**
   * The requests received since the last call of newRequests (the first call: since the start
   * or the last reset), those the filter matches. A test's "what did this step send".
   */
  newRequests(filter?: RequestFilter): Promise<RequestLogEntry[]>;
  /** Back to the state at start: no objects, no log, the start's faults and settings. */
  reset(): Promise<void>;
  /**
   * Replaces every fault rule with these: a profile's name ("rate-limited"), or a list of
   * profile names and rules of your own, applied in that order.
   */
  setFaults(faults: FaultsSpec): Promise<ActiveFaultRule[]>;
  /** Adds one rule after the others; returns its id. */
  addFault(rule: FaultRule): Promise<string>;
  /** The rules in force, each with how often it has acted. */
  faults(): Promise<ActiveFaultRule[]>;
  /** Removes every rule, and ends the latencies rules hold requests in (they then go on). */
  clearFaults(): Promise<void>;
  /** Changes some settings; returns them all. */
  settings(settings: Partial<EmulatorSettings>): Promise<EmulatorSettings>;
}

/** Typed access to the control surface of the emulator at `baseUrl`. */
export class EmulatorClient implements EmulatorControl {
  /** The last entry `newRequests` handed out. */
  private lastHandedOut: string | undefined;

  constructor(readonly baseUrl: string) {}

  state(): Promise<EmulatorState> {
    return this.call("GET", "state");
  }

  async requests(filter?: RequestFilter): Promise<RequestLogEntry[]> {
    const all = await this.call<RequestLogEntry[]>("GET", "requests");
    return all.filter((entry) => matchesRequest(entry, filter));
  }

  async newRequests(filter?: RequestFilter): Promise<RequestLogEntry[]> {
    const all = await this.call<RequestLogEntry[]>("GET", "requests");
    // By id rather than by count: the log drops its oldest entries past its bound.
    const last = all.findIndex((entry) => entry.requestId === this.lastHandedOut);
    const fresh = all.slice(last + 1);
    if (fresh.length > 0) this.lastHandedOut = fresh[fresh.length - 1]!.requestId;
    return fresh.filter((entry) => matchesRequest(entry, filter));
  }

  async reset(): Promise<void> {
    await this.call("POST", "reset");
    this.lastHandedOut = undefined;
  }

  setFaults(faults: FaultsSpec): Promise<ActiveFaultRule[]> {
    return this.call("PUT", "faults", typeof faults === "string" ? [faults] : faults);
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
      throw new EmulatorError(
        `emulator control ${method} ${name}: ${response.statusCode} ${message}`,
      );
    }
    return payload as T;
  }
}
