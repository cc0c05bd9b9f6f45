/**
 * A process-wide cap on calls in flight. The engine runs many resource operations at once in one
 * provider process, so without it a stack of hundreds of resources would open hundreds of
 * requests against the platform at once.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private currentLimit: number) {}

  get limit(): number {
    return this.currentLimit;
  }

  get inFlight(): number {
    return this.active;
  }

  setLimit(limit: number): void {
    this.currentLimit = limit;
    while (this.active < this.currentLimit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()!();
    }
  }

  /**
   * Runs `task` once a slot is free. When `stopped` aborts while it waits, it gives up its place
   * and resolves undefined without running `task`.
   */
  async run<T>(task: () => Promise<T>, stopped?: AbortSignal): Promise<T | undefined> {
    if (this.active < this.currentLimit) {
      this.active++;
    } else if (!(await this.turn(stopped))) {
      return undefined;
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Resolves true when a slot is handed over (already counted), false if stopped first. */
  private turn(stopped: AbortSignal | undefined): Promise<boolean> {
    if (stopped?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const handOver = () => {
        stopped?.removeEventListener("abort", giveUp);
        resolve(true);
      };
      const giveUp = () => {
        const place = this.waiting.indexOf(handOver);
        if (place >= 0) this.waiting.splice(place, 1);
        resolve(false);
      };
      this.waiting.push(handOver);
      stopped?.addEventListener("abort", giveUp, { once: true });
    });
  }

  private release(): void {
    const next = this.active <= this.currentLimit ? this.waiting.shift() : undefined;
    if (next) next();
    else this.active--;
  }
}
