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

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../../test-results/e2e',
  // One bridge process serves every test: run them one at a time.
  workers: 1,
  fullyParallel: false,
  reporter: 'list',
  timeout: 45_000,
  expect: { timeout: 15_000 },
  globalSetup: './global-setup.ts',
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
      ],
    },
  },
});
