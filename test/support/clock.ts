/** A test's own clock, starting at `iso`: what it hands the bridge and the sandbox peers as `now`. */
export interface TestClock {
  now(): Date;
  /** Moves the clock on by `seconds`. */
  advance(seconds: number): void;
}

export function testClock(iso: string): TestClock {
  let ms = Date.parse(iso);
  return {
    now: () => new Date(ms),
    advance: (seconds) => void (ms += seconds * 1000),
  };
}
