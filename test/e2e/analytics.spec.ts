import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { platformKeys } from '../../shared/platforms.js';
import { platformColor } from '../../renderer/src/chart-palette.js';
import { expect, sandboxControlHeaders, screenshot, test } from './fixtures.js';

/**
 * The Analytics page against the real headless bridge in sandbox mode: 90 days of seeded demo
 * metrics, the start-up collection from the simulated provider, demo content metrics.
 */

async function openAnalytics(page: Page, query = '') {
  await page.goto(`/#/analytics${query}`);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
}

/** Charts animate their lines in (~1.5 s): let them finish before a screenshot. */
async function chartsScreenshot(page: Page, name: string) {
  await page.waitForTimeout(1_600);
  await screenshot(page, name);
}

const platformSelect = (page: Page) => page.getByRole('combobox', { name: 'Platform', exact: true });
const lines = (page: Page, chart: string) => page.getByTestId(chart).locator('path.recharts-line-curve');

test('shows social metrics, followers, top posts and content from the sandbox', async ({
  dashboard: page,
}) => {
  await openAnalytics(page);
  await expect(page.getByTestId('social-totals')).toContainText('Impressions');
  await expect(lines(page, 'impressions-chart')).toHaveCount(7);
  await expect(lines(page, 'engagement-chart')).toHaveCount(7);
  await expect(lines(page, 'followers-chart')).toHaveCount(7);
  await expect(page.getByTestId('top-posts-table').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('content-table')).toContainText('The Studio Hour');
  await expect(page.getByTestId('last-run')).toContainText(/Succeeded|Partly failed/);
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await chartsScreenshot(page, 'analytics-overview');
});

test('followers show the change since the range starts, one colour-blind-safe colour per platform', async ({
  dashboard: page,
}) => {
  await openAnalytics(page);
  const followers = page.getByTestId('followers-panel');
  await expect(followers).toContainText('Change since');
  const chart = page.getByTestId('followers-chart');
  await expect(lines(page, 'followers-chart')).toHaveCount(7);
  // Every line starts at the range's first day, so the axis is anchored at 0 and growth is visible.
  // (Tick labels are drawn in their own layer: the x ticks are days, so "0" and "+…" are the y axis.)
  const ticks = chart.locator('.recharts-cartesian-axis-tick-value');
  await expect(ticks.getByText('0', { exact: true })).toBeVisible();
  await expect(ticks.getByText(/^\+/).first()).toBeVisible();
  // Seven platforms, seven distinct colours: the palette module's, in every chart.
  const expected = platformKeys.map((key) => platformColor(key).toLowerCase()).sort();
  for (const testId of ['followers-chart', 'impressions-chart', 'engagement-chart']) {
    const strokes = await lines(page, testId).evaluateAll((paths) =>
      paths.map((path) => (path.getAttribute('stroke') ?? '').toLowerCase()),
    );
    expect(strokes.sort()).toEqual(expected);
  }
  await chartsScreenshot(page, 'analytics-followers-change');
});

test('a "To" day before the "From" day is explained, not snapped back', async ({ dashboard: page }) => {
  await openAnalytics(page, '?range=custom&from=2026-01-10&to=2026-01-20');
  const to = page.getByLabel('To', { exact: true });
  await to.fill('2026-01-05');
  const problem = page.getByRole('alert').filter({ hasText: '“To”' });
  await expect(problem).toContainText('before');
  await expect(to).toHaveValue('2026-01-05');
  // The charts keep the last valid range until the dates make sense again.
  await expect(page).toHaveURL(/to=2026-01-20/);
  await screenshot(page, 'analytics-date-order');
  await page.getByLabel('From', { exact: true }).fill('2026-01-01');
  await expect(problem).toHaveCount(0);
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-05/);
});

test('keeps the range, platform and metric in the URL', async ({ dashboard: page }) => {
  await openAnalytics(page);
  await page.getByRole('radio', { name: '90 days' }).click();
  await expect(page).toHaveURL(/range=90d/);
  await platformSelect(page).selectOption('photogram');
  await expect(page).toHaveURL(/platform=photogram/);
  await expect(lines(page, 'impressions-chart')).toHaveCount(1);
  await expect(lines(page, 'followers-chart')).toHaveCount(1);
  // 90 daily points: a long series is drawn without dots.
  await expect(page.getByTestId('impressions-chart').locator('.recharts-line-dots')).toHaveCount(0);

  await page.getByRole('radio', { name: 'Likes' }).click();
  await expect(page).toHaveURL(/metric=likes/);

  // A reload (or a shared link) shows the same view.
  await page.reload();
  await expect(page.getByRole('radio', { name: '90 days' })).toHaveAttribute('aria-checked', 'true');
  await expect(platformSelect(page)).toHaveValue('photogram');
  await expect(page.getByRole('radio', { name: 'Likes' })).toHaveAttribute('aria-checked', 'true');
  await expect(lines(page, 'impressions-chart')).toHaveCount(1);
  const platforms = page.getByTestId('top-posts-table').locator('tbody tr td:nth-child(3)');
  await expect(platforms.first()).toHaveText('Photogram');
  await chartsScreenshot(page, 'analytics-filtered');

  // Three years are drawn weekly: the sandbox's 90 days of history make ~14 points a line.
  await platformSelect(page).selectOption('');
  await page.getByRole('radio', { name: '3 years' }).click();
  await expect(page).toHaveURL(/range=3y/);
  await expect(page.getByTestId('social-panel')).toContainText('weekly');
  await expect(lines(page, 'impressions-chart')).toHaveCount(7);
  const dots = page.getByTestId('impressions-chart').locator('.recharts-line-dots').first().locator('circle');
  expect(await dots.count()).toBeLessThanOrEqual(15);
  await chartsScreenshot(page, 'analytics-three-years');
});

test('ranks top posts by the chosen metric', async ({ dashboard: page }) => {
  await openAnalytics(page);
  const table = page.getByTestId('top-posts-table');
  const column = async (index: number) => {
    // The rows of the previous metric stay (dimmed, aria-busy) until the new ranking arrives.
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
    return (await table.locator(`tbody tr td:nth-child(${index})`).allTextContents()).map((t) =>
      Number(t.replace(/[^\d]/g, '')),
    );
  };
  const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! >= v);

  await expect(table.locator('th.sorted')).toHaveText('Engagement');
  expect(descending(await column(8))).toBe(true);
  await page.getByRole('radio', { name: 'Shares' }).click();
  await expect(table.locator('th.sorted')).toHaveText('Shares');
  await expect(page).toHaveURL(/metric=shares/);
  expect(descending(await column(6))).toBe(true);
  await page.getByRole('radio', { name: 'Likes' }).click();
  await expect(table.locator('th.sorted')).toHaveText('Likes');
  expect(descending(await column(4))).toBe(true);
});

test('collect now shows progress and the run outcome', async ({ dashboard: page }) => {
  await openAnalytics(page);
  const lastRun = page.getByTestId('last-run');
  await expect(lastRun).toContainText('Run ');
  const before = Number(/Run (\d+)/.exec((await lastRun.textContent()) ?? '')?.[1]);
  await page.getByTestId('collect-now').click();
  await expect(lastRun).toContainText(`Run ${before + 1}`, { timeout: 30_000 });
  await expect(lastRun).toContainText(/Succeeded|Partly failed/);
  await expect(lastRun).toContainText('started by hand');
  await expect(page.getByTestId('collect-now')).toBeEnabled();
  await chartsScreenshot(page, 'analytics-collected');
});

test('exports what is shown as CSV', async ({ dashboard: page }) => {
  await openAnalytics(page, '?metric=likes');
  const table = page.getByTestId('top-posts-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const shown = await table.locator('tbody tr').count();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('top-posts-panel').getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('analytics-top-posts-likes.csv');
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe(
    'rank,post_id,platform,content,likes,comments,shares,impressions,total_engagement,engagement_rate,collected_at',
  );
  expect(csv).toHaveLength(shown + 1);

  const [social] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('social-panel').getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(social.suggestedFilename()).toMatch(/^analytics-social-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const socialCsv = readFileSync((await social.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(socialCsv[0]).toBe('period_start,platform,impressions,engagement,reach,followers');
  expect(socialCsv.length).toBeGreaterThan(7 * 29);
});

test('designed empty and error states', async ({ dashboard: page }) => {
  await openAnalytics(page, '?range=custom&from=2020-01-01&to=2020-01-31');
  await expect(page.getByRole('radio', { name: /Custom · 31 days/ })).toBeVisible();
  await expect(page.getByText('No social metrics for these dates')).toBeVisible();
  await expect(page.getByText('No follower counts for these dates')).toBeVisible();
  await expect(page.getByText('No content metrics in this range')).toBeVisible();
  await screenshot(page, 'analytics-empty');

  await page.route('**/analytics/social-metrics**', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        error: 'analytics: reading social metrics failed',
        code: 'DB_ERROR',
      }),
    }),
  );
  await openAnalytics(page, '?range=90d');
  const error = page.getByTestId('social-panel').getByRole('alert');
  await expect(error).toContainText('analytics: reading social metrics failed', { timeout: 20_000 });
  await expect(error).toContainText('DB_ERROR');
  await expect(error.getByRole('button', { name: 'Retry' })).toBeVisible();
  await screenshot(page, 'analytics-error');
});

test('a collection that gets nothing shows COLLECTION_FAILED', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const health = await request.get(`${bridge.url}/health`, {
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  const postsvcUrl = ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
  const platforms = [
    'microblog',
    'socialnet',
    'photogram',
    'professional',
    'videosite',
    'shortvideo',
    'pinboard',
  ];
  const headers = await sandboxControlHeaders(request, bridge);
  const fail = (message: string | null) =>
    Promise.all(
      platforms.map((platform) =>
        request.post(`${postsvcUrl}/__sandbox/fail-platform`, {
          headers,
          data: { platform, message, code: 500 },
        }),
      ),
    );
  await fail('Platform API is down');
  try {
    await openAnalytics(page);
    const lastRun = page.getByTestId('last-run');
    await expect(lastRun).toContainText('Run ');
    const before = Number(/Run (\d+)/.exec((await lastRun.textContent()) ?? '')?.[1]);
    await page.getByTestId('collect-now').click();
    await expect(lastRun).toContainText(`Run ${before + 1}`, { timeout: 30_000 });
    await expect(lastRun).toContainText('Failed');
    await expect(lastRun).toContainText('COLLECTION_FAILED');
    await expect(lastRun).toContainText('Platform API is down');
    await screenshot(page, 'analytics-collection-failed');
  } finally {
    await fail(null);
  }
});
