import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Writes the run's per-spec times to test-results/timings/e2e.json (e2e-renders.json for the renders tier), in the shape of the vitest
 * tiers' (test/support/timings-reporter.ts), for `npm run test:timings`. A spec's time is the sum
 * of its tests' (their hooks and per-test fixtures included; a worker's bridge start is not).
 */
export default class TimingsReporter implements Reporter {
  private readonly files = new Map<string, { ms: number; tests: number; failed: boolean }>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(repoRoot, test.location.file);
    const entry = this.files.get(file) ?? { ms: 0, tests: 0, failed: false };
    entry.ms += result.duration;
    entry.tests += result.retry === 0 ? 1 : 0;
    entry.failed ||= test.outcome() === 'unexpected';
    this.files.set(file, entry);
  }

  onEnd(_result: FullResult): void {
    const files = [...this.files].map(([file, { ms, tests, failed }]) => ({
      file,
      ms,
      tests,
      state: failed ? 'failed' : 'passed',
    }));
    const dir = path.join(repoRoot, 'test-results/timings');
    mkdirSync(dir, { recursive: true });
    const project = process.env.E2E_RENDERS === '1' ? 'e2e-renders' : 'e2e';
    writeFileSync(path.join(dir, `${project}.json`), `${JSON.stringify({ project, files }, null, 1)}\n`);
  }
}
