import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Token bucket: at most `perSecond` requests a second on average, bursts up to `burst`.
 * `pauseFor` holds every caller back after a 429 so the bridge throttles itself instead of
 * collecting more 429s (a posting profile with 1,000 of them a day is suspended).
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private pausedUntil = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number = Math.max(1, perSecond),
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  /** How much longer a peer's Retry-After holds every caller back (0: not paused). */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** Milliseconds to wait before a request may go, taking its token if it may go now. */
  tryTake(): number {
    const now = this.now();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.tryTake();
      if (wait === 0) return;
      signal?.throwIfAborted();
      await sleep(wait, undefined, { signal });
    }
  }
}
