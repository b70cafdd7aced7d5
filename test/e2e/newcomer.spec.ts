import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { expect, test } from './fixtures.js';

/** The newcomer path (issue #14.10): the start-up link signs the browser in; the tab has an icon. */

test('the start-up link signs this browser in with the key in the fragment, then clears it', async ({
  page,
  bridge,
}) => {
  await page.goto(`/#key=${encodeURIComponent(bridge.key)}`);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page).not.toHaveURL(/key=/);
  expect(await page.evaluate((name) => window.localStorage.getItem(name), API_KEY_STORAGE_KEY)).toBe(
    bridge.key,
  );
  // Back does not bring the key back into the address bar either.
  expect(await page.evaluate(() => window.location.href)).not.toContain(bridge.key);

  // Fragments never reach the server: the bridge's log has no trace of the key.
  const log = readFileSync(join(bridge.dataDir, 'logs', 'bridge.log'), 'utf8');
  expect(log.length).toBeGreaterThan(0);
  expect(log).not.toContain(bridge.key);
});

test('a wrong key in the link lands on the key screen, saying the key was refused', async ({ page }) => {
  await page.goto('/#key=not-the-right-key-0000');
  await expect(page.getByRole('heading', { name: 'Connect to Studio Bridge' })).toBeVisible();
  await expect(page).not.toHaveURL(/not-the-right-key/);
});

test('the dashboard has an SVG favicon served by the bridge', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const icon = await request.get(new URL(href!, `${bridge.url}/`).toString());
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  expect(await icon.text()).toContain('<svg');
});
