/** A sliding one-minute window of requests, on the sandbox clock. */
export class MinuteWindow {
  readonly #hits: number[] = [];

  constructor(
    private readonly max: number,
    private readonly now: () => Date,
  ) {}

  /** Counts the request if there is room; `count` is the window's count including it. */
  hit(): { allowed: boolean; count: number; retryAfterS: number } {
    const now = this.now().getTime();
    while (this.#hits.length > 0 && (this.#hits[0] ?? 0) <= now - 60_000) this.#hits.shift();
    if (this.#hits.length >= this.max) {
      const oldest = this.#hits[0] ?? now;
      return {
        allowed: false,
        count: this.#hits.length,
        retryAfterS: Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000)),
      };
    }
    this.#hits.push(now);
    return { allowed: true, count: this.#hits.length, retryAfterS: 0 };
  }
}
