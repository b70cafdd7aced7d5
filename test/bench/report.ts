/** One measured line of `npm run bench`. */
export interface BenchResult {
  name: string;
  /** e.g. { 'req/s': 5321, 'p99 ms': 4.1 } */
  figures: Record<string, number>;
  note?: string;
}

export interface Bench {
  name: string;
  run(): Promise<BenchResult[]>;
}

export function formatResults(results: readonly BenchResult[]): string {
  return results
    .map((r) => {
      const figures = Object.entries(r.figures)
        .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(3)}`)
        .join('  ');
      return `${r.name.padEnd(48)} ${figures}${r.note ? `   (${r.note})` : ''}`;
    })
    .join('\n');
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
