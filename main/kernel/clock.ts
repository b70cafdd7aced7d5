/** The bridge's one notion of "now": injected everywhere so tests and the sandbox can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * Milliseconds for measuring intervals: monotonic (performance.now) on the system clock, so a wall
 * clock set back or forward meanwhile (NTP) does not change a length; a clock a test or the sandbox
 * moves is followed as it is.
 */
export function intervalClock(now: Clock): () => number {
  return now === systemClock ? () => performance.now() : () => now().getTime();
}
