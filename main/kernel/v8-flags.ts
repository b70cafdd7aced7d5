/**
 * V8 settings the bridge process runs with (`npm start`, `npm run serve`, the desktop window's main
 * process, `npm run bench`): a young generation of 2 MB semi-spaces instead of up to 16 MB, and an
 * old generation that grows by half, not by V8's default factor, when it fills up.
 *
 * Why: after a burst of 20,000 webhooks at 100 connections the bridge held 167 MB and kept it (V8
 * keeps a heap it grew); with these it peaks at ~118 MB and is back at ~99 MB within 10 s (idle
 * ~80 MB). The cost, measured in the same runs: ~20 % of that burst's throughput (3,400 → 2,730
 * req/s); a studio's CRM sends a few webhooks a second. docs/benchmarks.md has the figures.
 *
 * They are command-line flags (V8 sizes its heap at start-up): package.json's scripts repeat them,
 * and test/unit/v8-flags.test.ts keeps the copies equal.
 */
export const BRIDGE_V8_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=50'] as const;
