import type { Organization } from "./auth";
import type { EmulatorSettings } from "./control-types";
import { FaultRegistry } from "./faults";
import { TokenBucket, type RateDecision } from "./rate-limit";
import { RequestLog } from "./request-log";
import { StateStore } from "./state-store";

/** Everything one emulator instance holds, shared by both origins. */
export class EmulatorRuntime {
  readonly store: StateStore;
  readonly log = new RequestLog();
  readonly faults: FaultRegistry;
  private currentSettings: EmulatorSettings;
  private bucket: TokenBucket | undefined;
  private readonly closing = new AbortController();

  constructor(
    readonly organizations: readonly Organization[],
    private readonly initialSettings: EmulatorSettings,
    stateFile?: string,
  ) {
    this.store = new StateStore(
      organizations.map((organization) => organization.id),
      stateFile,
    );
    this.faults = new FaultRegistry(initialSettings.seed);
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

  /** Back to the state at start: no objects, log or faults, initial settings and seed. */
  reset(): void {
    this.store.clear();
    this.log.clear();
    this.faults.clear();
    this.currentSettings = { ...this.initialSettings };
    this.bucket = bucketFor(this.initialSettings.rateLimit);
    this.faults.reseed(this.initialSettings.seed);
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
