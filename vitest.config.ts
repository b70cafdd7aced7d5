import { defineConfig } from 'vitest/config';
import { TimingsReporter } from './test/support/timings-reporter.js';

/**
 * Integration files that run one at a time, after the others: they start and kill bridge
 * processes (signals, data-dir locks, ports), fill disks, install packages on another Node, or
 * hold a server to a pace or a deadline.
 */
const serialIntegration = [
  'test/integration/startup/**/*.test.ts',
  'test/integration/storage/full-disk*.test.ts',
  'test/integration/storage/data-dir-links.test.ts',
  'test/integration/desktop/offline-install.test.ts',
  'test/integration/companion/package.test.ts',
  'test/integration/analytics/collection.test.ts',
  'test/integration/settings/collect-interval.test.ts',
  'test/integration/posting/race.test.ts',
  'test/integration/http/slow-bodies.test.ts',
];

const integration = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
} as const;

export default defineConfig({
  test: {
    reporters: ['default', new TimingsReporter()],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // A guard against a hang, not a speed limit: the property tests (caption rules, portable
          // patterns: ~0.4 s alone) run beside the browser tier, and a loaded host took 5.5 s once.
          testTimeout: 15_000,
          // One module graph per worker, not per file: importing costs these files more than their tests.
          isolate: false,
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: serialIntegration,
          // Each file starts its own servers on free ports and its own data dirs: files run side by
          // side, mostly waiting on those servers. One module graph per worker (not per file): the
          // app's import costs a file more than most of its tests.
          maxWorkers: 2,
          isolate: false,
          // Projects of one group share a worker count: the unit project's group goes first.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration-serial',
          include: serialIntegration,
          // Vitest runs a project without file parallelism after the parallel ones.
          fileParallelism: false,
        },
      },
      {
        // A real OBS (issue #38.1): one driver run in its own network namespace, within 3 min.
        test: {
          name: 'obs',
          include: ['test/obs/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
