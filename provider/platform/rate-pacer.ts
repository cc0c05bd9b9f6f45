/** The span over which the accepted rate is measured: rate limits are mostly per second. */
const RATE_WINDOW_MS = 1000;
/** The slowest pace learned; slower limits are left to Retry-After. */
const MIN_RATE_PER_SECOND = 1;

/**
 * Client-side pacing learned from 429s. Until the platform first refuses a call for its rate
 * while other calls compete, attempts start freely. After such a 429 the number of attempts the
 * platform accepted over the last second becomes the pace: attempts then start one per 1/rate
 * seconds, first come first served, after any Retry-After. Without it, every call refused in a
 * burst waited the same Retry-After, the calls raced again, most were refused again, and a
 * create that lost the race six times failed with 429 although the platform was merely busy.
 *
 * A later 429 for an attempt sent at the learned pace lowers it, at most once a second (to what
 * was accepted over the last second, and by at least 10%); every second that calls wait for the
 * pace without a 429 raises it by 5% (at least one request per second), so a limit that was
 * under-measured, or raised, is found again. A lone call learns nothing, since its own waits
 * already pace it, and the pace is forgotten once no call has been running for a second.
 */
export class Pacer {
  /** When the platform said to slow down (Retry-After), no attempt starts before this time. */
  private notBefore = 0;

  /** Milliseconds between attempt starts; 0 while the platform has not pushed back. */
  private intervalMs = 0;
  private nextStartAt = 0;
  private readonly waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  /** callApi calls under way, retry waits included. */
  private calls = 0;
  private idleSince = 0;
  /** End times of the attempts the platform answered with anything but 429, oldest first. */
  private readonly acceptedAt: number[] = [];
  /** Entries before this index are older than the window. */
  private acceptedHead = 0;
  /** When the pace was last lowered: refusals of attempts sent before then teach nothing. */
  private loweredAt = Number.NEGATIVE_INFINITY;
  private raisedAt = 0;

  enter(now: number): void {
    if (this.calls === 0 && now - this.idleSince >= RATE_WINDOW_MS) this.intervalMs = 0;
    this.calls++;
  }

  leave(now: number): void {
    this.calls--;
    if (this.calls === 0) this.idleSince = now;
  }

  /** Holds every attempt of the process until `time`, as the platform's Retry-After asked. */
  holdUntil(time: number): void {
    this.notBefore = Math.max(this.notBefore, time);
  }

  /**
   * Resolves true when an attempt may start: after `notBefore`, at the learned pace, in turn; false
   * when `stopped` aborts first (its turn goes to the next). Undefined when it may start at once.
   */
  admit(now: number, stopped?: AbortSignal): Promise<boolean> | undefined {
    if (this.intervalMs === 0 && this.waiting.length === 0 && this.notBefore <= now)
      return undefined;
    if (stopped?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const go = () => {
        stopped?.removeEventListener("abort", giveUp);
        resolve(true);
      };
      const giveUp = () => {
        const place = this.waiting.indexOf(go);
        if (place >= 0) this.waiting.splice(place, 1);
        if (this.waiting.length === 0) this.stopTimer();
        resolve(false);
      };
      this.waiting.push(go);
      stopped?.addEventListener("abort", giveUp, { once: true });
      if (this.timer === undefined) this.release();
    });
  }

  /** Records how the platform answered an attempt admitted at `startedAt`. */
  answered(startedAt: number, rateLimited: boolean, now: number): void {
    if (!rateLimited) {
      this.acceptedAt.push(now);
      this.acceptedSince(now - RATE_WINDOW_MS);
      if (
        this.intervalMs > 0 &&
        this.waiting.length > 0 &&
        now - Math.max(this.loweredAt, this.raisedAt) >= RATE_WINDOW_MS
      ) {
        const rate = 1000 / this.intervalMs;
        this.intervalMs = 1000 / (rate + Math.max(1, rate * 0.05));
        this.raisedAt = now;
      }
      return;
    }
    // One lowering per window, from attempts sent at the current pace: the refusals of one
    // emptied bucket arrive together and say the same thing once.
    if (this.calls <= 1 || startedAt < this.loweredAt) return;
    if (now - this.loweredAt < RATE_WINDOW_MS) return;
    const accepted = this.acceptedSince(now - RATE_WINDOW_MS);
    const current = this.intervalMs > 0 ? 1000 / this.intervalMs : Number.POSITIVE_INFINITY;
    const rate = Math.max(MIN_RATE_PER_SECOND, Math.min(accepted, current * 0.9));
    this.intervalMs = 1000 / rate;
    this.loweredAt = now;
  }

  /** How many attempts were accepted since `since`; forgets older ones. */
  private acceptedSince(since: number): number {
    const times = this.acceptedAt;
    while (this.acceptedHead < times.length && times[this.acceptedHead]! < since) {
      this.acceptedHead++;
    }
    if (this.acceptedHead > 1024 && this.acceptedHead * 2 > times.length) {
      times.splice(0, this.acceptedHead);
      this.acceptedHead = 0;
    }
    return times.length - this.acceptedHead;
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Lets waiting attempts start, one per interval on a steady schedule, never before notBefore. */
  private release(): void {
    this.timer = undefined;
    while (this.waiting.length > 0) {
      const now = Date.now();
      const at = Math.max(this.nextStartAt, this.notBefore);
      if (at > now) {
        this.timer = setTimeout(() => this.release(), at - now);
        return;
      }
      // Late timers are caught up with; an idle gap is not banked as a burst.
      const base = this.nextStartAt >= now - this.intervalMs ? this.nextStartAt : now;
      this.nextStartAt = Math.max(base, this.notBefore) + this.intervalMs;
      this.waiting.shift()!();
    }
  }
}
