import type { Organization } from "./auth";
import type { EmulatorSettings, FaultRule } from "./control-types";
import { FaultRegistry } from "./faults";
import { TokenBucket, type RateDecision } from "./rate-limit";
import { RequestLog } from "./request-log";
import { kindRoutes } from "./routes";
import { StateStore } from "./state-store";

/** Everything one emulator instance holds, shared by both origins. */
export class EmulatorRuntime {
  readonly store: StateStore;
  readonly log = new RequestLog();
  readonly faults: FaultRegistry;
  private currentSettings: EmulatorSettings;
  private bucket: TokenBucket | undefined;
  private readonly closing = new AbortController();
  private readonly initialFaults: readonly FaultRule[];

  constructor(
    readonly organizations: readonly Organization[],
    private readonly initialSettings: EmulatorSettings,
    options: { stateFile?: string; faults?: readonly FaultRule[] } = {},
  ) {
    this.store = new StateStore(
      organizations.map((organization) => organization.id),
      options.stateFile,
      kindRoutes,
    );
    this.initialFaults = options.faults ?? [];
    this.faults = new FaultRegistry(initialSettings.seed);
    this.addInitialFaults();
    this.currentSettings = { ...initialSettings };
    this.bucket = bucketFor(initialSettings.rateLimit);
  }

  get settings(): EmulatorSettings {
    return { ...this.currentSettings };
  }

  updateSettings(patch: Partial<EmulatorSettings>): EmulatorSettings {
    this.currentSettings = { ...this.currentSettings, ...patch };
    if (patch.rateLimit !== undefined) this.bucket = bucketFor(patch.rateLimit);
    if (patch.seed !== undefined) this.faults.reseed(patch.seed);
    return this.settings;
  }

  takeRateToken(): RateDecision {
    return this.bucket?.take() ?? { allowed: true };
  }

  /**
   * Back to the state at start: no objects and no log, the faults given at start (their counts
   * afresh) and no others, the initial settings and seed.
   */
  reset(): void {
    this.store.clear();
    this.log.clear();
    this.faults.clear();
    this.addInitialFaults();
    this.currentSettings = { ...this.initialSettings };
    this.bucket = bucketFor(this.initialSettings.rateLimit);
    this.faults.reseed(this.initialSettings.seed);
  }

  private addInitialFaults(): void {
    for (const rule of this.initialFaults) this.faults.add(rule);
  }

  /** Aborts every pending delay, so closing never waits for a latency or a hang to run out. */
  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  shutdown(): void {
    this.closing.abort();
  }
}

function bucketFor(rateLimit: number | null): TokenBucket | undefined {
  return rateLimit === null ? undefined : new TokenBucket(rateLimit);
}
