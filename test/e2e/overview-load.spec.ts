import type { Page } from '@playwright/test';
import { OVERVIEW_DATA_MARK } from '../../renderer/src/overview/shown-mark.js';
import { expect, test } from './fixtures.js';

/**
 * Issue #13.4: the Overview's data is asked for before the dashboard's bundle runs (a small
 * script of its own, renderer/src/api/preload-start.ts) and each answer is used, not asked again;
 * the Overview marks when every panel first shows data (the dashboard bench reads that mark).
 */

/** The API GETs this page made, by path and query, with how many times each was asked. */
async function apiRequests(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const counts: Record<string, number> = {};
    for (const entry of performance.getEntriesByType('resource')) {
      const url = new URL(entry.name);
      if (url.pathname !== '/health' && !url.pathname.startsWith('/api/')) continue;
      const path = `${url.pathname}${url.search}`;
      counts[path] = (counts[path] ?? 0) + 1;
    }
    return counts;
  });
}

/** What the preload script asked and the dashboard has not taken (undefined: it asked nothing). */
async function untakenPreloads(page: Page): Promise<string[] | undefined> {
  return page.evaluate(() => {
    const table: unknown = Reflect.get(window, '__studioBridgePreload');
    return typeof table === 'object' && table !== null ? Object.keys(table) : undefined;
  });
}

test('the Overview uses the answers asked before its bundle ran, each asked once, and marks when its data is on screen', async ({
  dashboard: page,
}) => {
  await page.goto('/');
  await page.waitForFunction(
    (name) => performance.getEntriesByName(name, 'mark').length === 1,
    OVERVIEW_DATA_MARK,
  );
  await expect(page.getByTestId('bridge-panel')).toContainText(/OK|Degraded/);
  await expect(page.getByTestId('recorder-current')).toBeVisible();

  // Every preloaded URL was taken by a query: none left behind (a URL that drifted from what the
  // panels ask would stay here, and be asked a second time by its panel).
  expect(await untakenPreloads(page)).toEqual([]);
  const asked = await apiRequests(page);
  for (const url of [
    '/health',
    '/api/broadcasts',
    '/api/recorder/filename',
    '/api/guests/holds',
    '/api/activity?limit=12',
  ]) {
    expect(asked[url], `${url} asked once`).toBe(1);
  }
});

test('another page preloads only what the header shows, and takes it', async ({ dashboard: page }) => {
  await page.goto('/#/activity');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(page.getByTestId('sandbox-badge')).toBeVisible();
  await expect.poll(() => untakenPreloads(page)).toEqual([]);
  const asked = await apiRequests(page);
  expect(asked['/health']).toBe(1);
  expect(asked['/api/recorder/filename']).toBeUndefined();
  // The Overview's mark is the Overview's: no other page sets it.
  expect(await page.evaluate((name) => performance.getEntriesByName(name).length, OVERVIEW_DATA_MARK)).toBe(
    0,
  );
});
