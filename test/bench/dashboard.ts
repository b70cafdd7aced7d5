import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startBridge } from '../e2e/bridge-process.js';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import type { Bench, BenchResult } from './report.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const RUNS = 5;

/** The scripts the dashboard's index.html loads before the first paint (entry and preloads), gzipped. */
function initialJsGzipKb(): { kb: number; files: number } {
  const dist = join(repoRoot, 'dist/renderer');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = scripts.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
    0,
  );
  return { kb: Math.round(bytes / 1024), files: scripts.length };
}

function chromiumPath(): string {
  return process.env.CHROMIUM_PATH?.trim() || execSync('command -v chromium', { encoding: 'utf8' }).trim();
}

/**
 * The dashboard served by a built sandbox bridge, in Debian's Chromium: the initial JS, and how
 * long after navigation the Overview shows its data (the bridge panel's version), median of runs.
 */
export const dashboardBench: Bench = {
  name: 'dashboard',
  async run(): Promise<BenchResult[]> {
    const initial = initialJsGzipKb();
    const key = 'bench-dashboard-key-0123456789';
    const bridge = await startBridge(key, { logName: 'bench-dashboard.log' });
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
    try {
      const times: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const context = await browser.newContext();
        await context.addInitScript({
          content: `localStorage.setItem(${JSON.stringify(API_KEY_STORAGE_KEY)}, ${JSON.stringify(key)})`,
        });
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(bridge.url);
        await page.getByText('Version').first().waitFor();
        await page
          .getByText(/\d+\.\d+\.\d+/)
          .first()
          .waitFor();
        if (i > 0) times.push(performance.now() - started); // the first run warms the bridge
        await context.close();
      }
      times.sort((a, b) => a - b);
      return [
        { name: 'dashboard initial JS (gzip)', figures: { KB: initial.kb, scripts: initial.files } },
        {
          name: 'Overview shows its data after navigation',
          figures: {
            'median ms': Math.round(times[Math.floor(times.length / 2)]!),
            'max ms': Math.round(times.at(-1)!),
          },
          note: `${RUNS} runs, loopback, fresh browser context each`,
        },
      ];
    } finally {
      await browser.close();
      await bridge.stop();
    }
  },
};
