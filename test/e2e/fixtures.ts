import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { providerThrottle } from '../support/faults.js';
import { startBridge } from './bridge-process.js';

export interface BridgeUnderTest {
  url: string;
  key: string;
  dataDir: string;
}

const screenshotDir = resolve(fileURLToPath(new URL('.', import.meta.url)), 'screenshots');

export const test = base.extend<{ dashboard: Page }, { bridge: BridgeUnderTest }>({
  /**
   * One real bridge (sandbox mode) per worker, shared by the specs that worker runs one after the
   * other; stopped, its data dir removed, when the worker ends.
   */
  bridge: [
    // Playwright needs the fixture argument destructured, even when no other fixture is used.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      // The premium plan's 100 posts a day: the specs together schedule more than the free plan's 10.
      const running = await startBridge(`e2e-${randomBytes(16).toString('hex')}`, {
        // The renders tier records takes with real files (the simulated OBS's, DESIGN §8).
        env: {
          POSTSVC_PLAN: 'premium',
          ...(process.env.E2E_RENDERS === '1' ? { SANDBOX_TAKE_FILES: '1' } : {}),
        },
        logName: `bridge-worker-${workerInfo.workerIndex}.log`,
      });
      try {
        await use({ url: running.url, key: running.apiKey, dataDir: running.dataDir });
      } finally {
        await running.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ bridge }, use) => {
    await use(bridge.url);
  },
  /** A page whose browser already holds the key (as after the key screen). */
  dashboard: async ({ page, bridge }, use) => {
    await page.addInitScript(([name, key]) => window.localStorage.setItem(name, key), [
      API_KEY_STORAGE_KEY,
      bridge.key,
    ] as const);
    await use(page);
  },
});

export { expect };

/**
 * Playwright's `maxRetries` for a request: a connection the bridge closed as idle (its keep-alive,
 * 65 s now, was Node's 5 s) just as the request reused it is an ECONNRESET before any answer,
 * which Playwright then sends again (it retries nothing else). Met on a loaded CI proof after a
 * 5 s wait.
 */
export const RESET_RETRIES = 2;

/**
 * The header the simulated peers' `/__sandbox/*` control routes require. The bridge gives their
 * key to holders of its own key, in GET /api/settings.
 */
export async function sandboxControlHeaders(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
): Promise<Record<string, string>> {
  const settings = await request.get(`${bridge.url}/api/settings`, {
    maxRetries: RESET_RETRIES,
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  const { sandboxControlKey } = (await settings.json()) as { sandboxControlKey: string | null };
  if (!sandboxControlKey) throw new Error('e2e: the bridge under test runs no sandbox peers');
  return { 'X-Sandbox-Key': sandboxControlKey };
}

/** Full-page screenshot to test/e2e/screenshots/<name>.png (git-ignored: every run rewrites them; `npm run docs:images` refreshes the README's). */
export async function screenshot(page: Page, name: string): Promise<void> {
  // Sticky header and sidebar are drawn where the viewport is: capture from the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: resolve(screenshotDir, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/**
 * The page does not scroll sideways at `width`. A failure names the innermost elements that stick
 * out past it, since fonts and timing differ between machines and a CI run must say what grew. A
 * width that settles within a few seconds (a list refreshed by a live event) passes, said on stdout.
 */
export async function expectFitsWidth(page: Page, width: number): Promise<void> {
  let first: Overflow | null = null;
  await expect
    .poll(
      async () => {
        const overflow = await overflowPast(page, width);
        if (overflow.width > width) first ??= overflow;
        return overflow.width <= width ? 'fits' : `wider than ${width} px: ${describe(overflow)}`;
      },
      { timeout: 5_000 },
    )
    .toBe('fits');
  if (first) console.log(`expectFitsWidth: it settled, but was at first ${describe(first)}`);
}

interface Overflow {
  width: number;
  culprits: string[];
}

const describe = (overflow: Overflow) => `${overflow.width} px; ${overflow.culprits.join('; ')}`;

function overflowPast(page: Page, width: number): Promise<Overflow> {
  return page.evaluate((limit) => {
    const rightOf = (el: Element) => el.getBoundingClientRect().right + window.scrollX;
    const culprits: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      if (rightOf(el) <= limit + 0.5) continue;
      if (Array.from(el.children).some((child) => rightOf(child) > limit + 0.5)) continue;
      const id = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : '';
      const classes =
        typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : '';
      const text = (el.textContent ?? '').slice(0, 60);
      culprits.push(`${el.tagName.toLowerCase()}${id}${classes} to ${Math.round(rightOf(el))} px “${text}”`);
    }
    return { width: document.documentElement.scrollWidth, culprits: culprits.slice(0, 8) };
  }, width);
}

/**
 * A sandbox rehearsal (POST /api/sandbox/rehearsal): `fault` on `peer` until put back with `none`
 * (`refuse-platform` names the `platform` refused). The bridge probes its peers right after, so
 * /health says it at once.
 */
export async function rehearse(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
  peer: string,
  fault: string,
  platform?: string,
): Promise<void> {
  const answer = await request.post(`${bridge.url}/api/sandbox/rehearsal`, {
    maxRetries: RESET_RETRIES,
    headers: { authorization: `Bearer ${bridge.key}` },
    data: { peer, fault, ...(platform ? { platform } : {}) },
  });
  expect(answer.status()).toBe(200);
}

/**
 * The simulated posting provider answers its own 429 (Retry-After `retryAfterS`) to the next
 * `times` requests matching `method` and `pathPrefix` (its address read from /health).
 */
export async function throttleProvider(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
  match: Parameters<typeof providerThrottle>[0],
): Promise<void> {
  const health = await request.get(`${bridge.url}/health`, {
    maxRetries: RESET_RETRIES,
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  const { peers } = (await health.json()) as { peers: { postsvc: { url: string } } };
  const fault = await request.post(`${peers.postsvc.url.replace(/\/+$/, '')}/__sandbox/faults`, {
    maxRetries: RESET_RETRIES,
    headers: await sandboxControlHeaders(request, bridge),
    data: providerThrottle(match),
  });
  expect(fault.ok()).toBe(true);
}

/** The screen around `what`, at 1280 and 390 px, to test/e2e/screenshots/<name>-<width>.png. */
export async function shootAround(page: Page, name: string, what: Locator): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await what.scrollIntoViewIfNeeded();
    await page.screenshot({ path: resolve(screenshotDir, `${name}-${width}.png`), animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
