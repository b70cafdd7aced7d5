import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test, type BridgeUnderTest } from './fixtures.js';

/**
 * Issue #41.4, numbers that add up: Analytics said "8 of 8 published posts measured" and ranked
 * top posts that Posts ("Published 4") did not list. The sandbox's provider holds posts published
 * there by other means; both pages now say how many, and which.
 */

interface Published {
  atProvider: number;
  onPosts: number;
  elsewhere: string[];
}

async function publishedOf(request: APIRequestContext, bridge: BridgeUnderTest): Promise<Published> {
  const runs = await request.get('/analytics/runs', { headers: { Authorization: `Bearer ${bridge.key}` } });
  expect(runs.ok()).toBe(true);
  const { published } = (await runs.json()) as { published: Published | null };
  expect(published, 'GET /analytics/runs says which published posts Posts lists').not.toBeNull();
  return published!;
}

test('Posts and Analytics say how many published posts each lists, and why they differ', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const published = await publishedOf(request, bridge);
  // The sandbox's provider holds posts published outside the bridge and the CRM.
  expect(published.elsewhere.length).toBeGreaterThan(0);
  const { atProvider, onPosts, elsewhere } = published;

  await page.goto('/#/posts');
  const note = page.getByTestId('published-elsewhere-note');
  await expect(note).toContainText(`had ${atProvider} posts published`);
  await expect(note).toContainText(`${onPosts} are listed here`);
  await expect(note).toContainText(`${elsewhere.length} post${elsewhere.length === 1 ? '' : 's'}`);
  await expect(note).toContainText('Analytics measures');
  await screenshot(page, 'published-numbers-posts');

  await page.goto('/#/analytics');
  const lastRun = page.getByTestId('last-run');
  await expect(lastRun).toContainText('published posts measured');
  await expect(page.getByTestId('published-split')).toContainText(
    `${onPosts} of them on Posts (sent by this bridge or the CRM); ${elsewhere.length} post`,
  );
  // Top posts that Posts does not list say so on their row; the others do not.
  const rows = page.getByTestId('top-posts-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const tagged = rows.filter({ hasText: 'not on Posts' });
  await expect(tagged.first()).toBeVisible();
  expect(await tagged.count()).toBeGreaterThan(0);
  expect(await tagged.count()).toBeLessThanOrEqual(elsewhere.length);
  await screenshot(page, 'published-numbers-analytics');
});

test('content metrics say when they were last received and that Collect now does not fetch them', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/analytics');
  const source = page.getByTestId('content-source');
  await expect(source).toContainText('None received yet');
  await expect(source).toContainText('the studio’s automation (n8n) sends');
  await expect(source).toContainText('Collect now does not fetch these');

  const sent = await request.post('/analytics/content-ingest', {
    headers: { Authorization: `Bearer ${bridge.key}` },
    data: {
      contentId: 'e2e-content',
      contentName: 'E2E episode',
      platform: 'videosite',
      views: 10,
      watchHours: 1,
      likes: 1,
      comments: 0,
      shares: 0,
    },
  });
  expect(sent.ok()).toBe(true);
  await page.reload();
  await expect(source).toContainText('Last received');
  await expect(source).toContainText('Collect now does not fetch these');
  await source.scrollIntoViewIfNeeded();
  await page.getByTestId('content-panel').screenshot({
    path: 'test/e2e/screenshots/published-numbers-content.png',
    animations: 'disabled',
  });
});
