import { execSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

/** The system Chromium: CHROMIUM_PATH, else `chromium` on PATH (Playwright's own download is not used). */
function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  if (fromEnv) return fromEnv;
  let found = '';
  try {
    found = execSync('command -v chromium', {
      encoding: 'utf8',
      shell: '/bin/sh',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // not on PATH: reported below
  }
  if (!found) {
    throw new Error(
      'e2e: Chromium not found. Install it (e.g. `apt-get install chromium`) or set CHROMIUM_PATH to its executable.',
    );
  }
  return found;
}

/**
 * The renders and clip-ready specs encode 1080p video: they are a tier of their own, run alone after the
 * others (scripts/test.mjs, `npm run test:e2e:renders`), so that its FFmpeg does not starve them.
 */
const rendersOnly = process.env.E2E_RENDERS === '1';

export default defineConfig({
  testDir: '.',
  testMatch: rendersOnly ? ['**/renders.spec.ts', '**/clip-ready.spec.ts'] : '**/*.spec.ts',
  testIgnore: rendersOnly ? [] : ['**/renders.spec.ts', '**/clip-ready.spec.ts'],
  outputDir: '../../test-results/e2e',
  // Each worker starts its own bridge (fixtures.ts) and runs its spec files one at a time.
  workers: 1,
  fullyParallel: false,
  reporter: [['list'], ['./timings-reporter.ts']],
  timeout: 45_000,
  expect: { timeout: 15_000 },
  use: {
    headless: true,
    viewport: { width: 1360, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        ...(process.env.EXP_FLAGS ? process.env.EXP_FLAGS.split(' ') : []),
      ],
    },
  },
});
