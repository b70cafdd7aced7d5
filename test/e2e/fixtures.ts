import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';

export interface BridgeUnderTest {
  url: string;
  key: string;
  dataDir: string;
}

const screenshotDir = resolve(fileURLToPath(new URL('.', import.meta.url)), 'screenshots');

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through test/e2e/playwright.config.ts`);
  return value;
}

export const test = base.extend<{ bridge: BridgeUnderTest; dashboard: Page }>({
  // Playwright needs the fixture argument destructured, even when no other fixture is used.
  // eslint-disable-next-line no-empty-pattern
  bridge: async ({}, use) => {
    await use({
      url: requiredEnv('E2E_BRIDGE_URL'),
      key: requiredEnv('E2E_BRIDGE_KEY'),
      dataDir: requiredEnv('E2E_BRIDGE_DATA_DIR'),
    });
  },
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
 * The header the simulated peers' `/__sandbox/*` control routes require. The bridge gives their
 * key to holders of its own key, in GET /api/settings.
 */
export async function sandboxControlHeaders(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
): Promise<Record<string, string>> {
  const settings = await request.get(`${bridge.url}/api/settings`, {
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
