import type { Locator } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.js';

/**
 * 390 px (issue #41.5): what a tap opens is where the operator looks, and words are not cut in
 * half or run together.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** The words of an element's text that the layout breaks over two lines. */
async function wordsBrokenAcrossLines(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

test('a guest tapped in the pipeline opens its details in view', async ({ dashboard: page }) => {
  await page.goto('/#/guests');
  const card = page.locator('[data-testid^="guest-card-"]').first();
  await expect(card).toBeVisible();
  const name = (await card.locator('.guests-card-name').textContent()) ?? '';
  await card.click();
  const detail = page.getByTestId('guest-detail');
  await expect(detail.getByRole('heading', { name, level: 2 })).toBeVisible();
  // The details' heading is on screen after the tap, not ~930 px below it.
  await expect
    .poll(() =>
      detail.getByRole('heading', { level: 2 }).evaluate((heading) => {
        const { top, bottom, left, width } = heading.getBoundingClientRect();
        // On screen and not under the sticky header.
        const seen = document.elementFromPoint(left + Math.min(width / 2, 40), top + (bottom - top) / 2);
        return top >= 0 && bottom <= window.innerHeight && seen !== null && heading.contains(seen);
      }),
    )
    .toBe(true);
  await page.screenshot({
    path: 'test/e2e/screenshots/guests-detail-tapped-390.png',
    animations: 'disabled',
  });
});

test('the agenda says "December 2 · 2 posts" with a space before the dot', async ({ dashboard: page }) => {
  await page.goto('/#/posts');
  const head = page.getByTestId('calendar-agenda').locator('.cal-agenda-head').first();
  await expect(head).toBeVisible();
  // The gap between the day's last letter and the dot, as drawn.
  const gap = await head.evaluate((element) => {
    const day = element.firstChild!;
    const dayRange = document.createRange();
    dayRange.selectNodeContents(day);
    const count = [...element.querySelectorAll('span')].find((span) => span.textContent?.includes('·'))!;
    const text = [...count.childNodes].find((node) => node.textContent?.includes('·'))!;
    const dot = document.createRange();
    const at = text.textContent!.indexOf('·');
    dot.setStart(text, at);
    dot.setEnd(text, at + 1);
    return dot.getBoundingClientRect().left - dayRange.getBoundingClientRect().right;
  });
  expect(gap, 'the space between the day and "·"').toBeGreaterThanOrEqual(3);
  await page.getByTestId('post-calendar').screenshot({
    path: 'test/e2e/screenshots/posts-agenda-head-390.png',
    animations: 'disabled',
  });
});

test("the agenda's Move to… dialog names the post in whole words", async ({
  dashboard: page,
  request,
  bridge,
}) => {
  // A post from the API has no name: the title quotes its text.
  const text = `Narrow move ${Date.now().toString(36)}: community radio with a global audience, recorded live`;
  const at = new Date(Date.now() + 3 * 3_600_000);
  const answer = await request.post('/postsvc/schedule', {
    headers: { Authorization: `Bearer ${bridge.key}` },
    data: { post: text, platforms: ['socialnet'], scheduleDate: at.toISOString() },
  });
  expect(answer.status()).toBe(200);
  await page.goto('/#/posts');
  if (at.getMonth() !== new Date().getMonth()) await page.getByRole('button', { name: 'Next →' }).click();
  const chip = page.getByTestId('calendar-agenda').locator('.cal-chip', { hasText: text.slice(0, 20) });
  await chip.getByRole('button', { name: 'Move to…' }).click();
  const dialog = page.getByRole('alertdialog');
  const title = dialog.locator('.confirm-title');
  await expect(title).toBeVisible();
  const said = (await title.textContent()) ?? '';
  // The quote ends on a whole word of the post (and says it goes on), not mid-word.
  const quoted = /“(.*)”/.exec(said)?.[1] ?? '';
  const shown = quoted.replace(/…$/, '');
  expect(text.startsWith(shown), `"${shown}" begins the post`).toBe(true);
  expect(shown.length === text.length || /[\s,.:;!?]/.test(text.charAt(shown.length)), `"${quoted}"`).toBe(
    true,
  );
  expect(await wordsBrokenAcrossLines(title)).toEqual([]);
  await dialog.screenshot({
    path: 'test/e2e/screenshots/posts-move-to-dialog-390.png',
    animations: 'disabled',
  });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await screenshot(page, 'posts-390');
});
