export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Token bucket: refills `ratePerSecond` tokens a second up to a burst of the same size. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = ratePerSecond;
    this.updatedAt = now();
  }

  take(): RateDecision {
    const now = this.now();
    const elapsedSeconds = (now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.ratePerSecond, this.tokens + elapsedSeconds * this.ratePerSecond);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    const secondsUntilToken = (1 - this.tokens) / this.ratePerSecond;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsUntilToken)) };
  }
}
