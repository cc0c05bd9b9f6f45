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

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.currentLimit) {
      this.active++;
    } else {
      // The slot is handed over by `release`, already counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.active <= this.currentLimit ? this.waiting.shift() : undefined;
    if (next) next();
    else this.active--;
  }
}
