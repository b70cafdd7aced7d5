import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test, type BridgeUnderTest, sandboxControlHeaders } from './fixtures.js';

/**
 * Issue #22.4 (DESIGN §6.9): a CRM post that reached the bridge 40 min after its time is not sent
 * by itself; its row says why and offers Post now (asked once, naming where it goes) and
 * Reschedule (the Edit dialog). At 1280 and 390 px.
 */

/** Row close-ups beside the full pages (fixtures.ts's screenshot folder). */
const screenshotDir = fileURLToPath(new URL('screenshots', import.meta.url));
const auth = (bridge: BridgeUnderTest) => ({ authorization: `Bearer ${bridge.key}` });
const crmTime = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Creates a SocialPost in the sandbox CRM as a person would; its webhook reaches the bridge. */
async function crmPostDueAgo(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
  content: string,
  minutesAgo: number,
) {
  const health = await request.get(`${bridge.url}/health`, { headers: auth(bridge) });
  const crmUrl = ((await health.json()) as { peers: { crm: { url: string } } }).peers.crm.url;
  const created = await request.post(`${crmUrl}/__sandbox/records/SocialPost`, {
    headers: await sandboxControlHeaders(request, bridge),
    data: {
      name: 'Late promo · Microblog',
      content,
      platform: 'Microblog',
      status: 'Scheduled',
      scheduledAt: crmTime(new Date(Date.now() - minutesAgo * 60_000)),
    },
  });
  expect(created.ok()).toBe(true);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a post failed as too late: Post now asks once and publishes it; Reschedule opens the edit dialog', async ({
      dashboard: page,
      request,
      bridge,
    }) => {
      const text = `We are live: the late-night studio hour (${viewport.width}) https://studiohour.example/live`;
      await crmPostDueAgo(request, bridge, text, 40);

      await page.goto('/#/posts');
      const row = page.getByTestId('post-list').locator('tr', { hasText: text });
      await expect(row).toContainText('Failed');
      await expect(row).toContainText(/not posted: 40 min past its time \(.+ UTC\)/);
      await expect(row).toContainText('Its time has passed: post it now or reschedule it.');
      await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0);
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `posts-late-${viewport.width}`);
      await row.screenshot({ path: `${screenshotDir}/posts-late-row-${viewport.width}.png` });

      await row.getByRole('button', { name: 'Reschedule…' }).click();
      const dialog = page.getByTestId('reschedule-dialog');
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Post', { exact: true })).toHaveValue(text);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      await row.getByRole('button', { name: 'Post now' }).click();
      const confirm = row.getByRole('button', { name: 'Publish now on Microblog' });
      await expect(confirm).toBeVisible();
      await row.screenshot({ path: `${screenshotDir}/posts-late-confirm-row-${viewport.width}.png` });
      await confirm.click();
      await expect(row).not.toContainText('Failed');
      await expect(row.getByRole('button', { name: 'Post now' })).toHaveCount(0);
      await row.screenshot({ path: `${screenshotDir}/posts-late-posted-row-${viewport.width}.png` });

      const listed = await request.get(`${bridge.url}/api/posts`, { headers: auth(bridge) });
      const post = (
        (await listed.json()) as { data: { post: string; postsvcId: string | null }[] }
      ).data.find((p) => p.post === text);
      expect(post?.postsvcId).toEqual(expect.any(String));
    });
  });
}
