import type { BenchResult } from './report.js';
import { percentile } from './report.js';

/**
 * How fast the host is right now, for reading the absolute figures (the Overview's milliseconds,
 * the start time, clip analysis): this shared 2-core machine runs the same work 1.6× slower on
 * some minutes than on others. A fixed loop of integer work, timed five times; printed before
 * and after the benches (docs/benchmarks.md quotes what it showed on quick and slow minutes).
 */
export function hostSpeed(when: string): BenchResult {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let sum = 0;
    for (let i = 0; i < 200_000_000; i++) sum += i % 7;
    times.push(performance.now() - started);
    if (sum < 0) throw new Error('unreachable: keeps the loop from being optimised away');
  }
  return {
    name: `host speed, ${when}`,
    figures: {
      'loop median ms': Math.round(percentile(times, 50)),
      'loop min ms': Math.round(Math.min(...times)),
    },
    note: 'a fixed loop of 2·10⁸ integer steps, 5 times: lower is a quicker host',
  };
}
