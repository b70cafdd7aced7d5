import type { Page } from '@playwright/test';
import { expect, sandboxControlHeaders, test } from './fixtures.js';

/**
 * Issue #30.3: a partly failed post with its three actions keeps the Posts table inside its card
 * at 1280 (it was cut to "Ed", "Can"), and Analytics' headline numbers stay apart at 390 (they
 * ran together as "13.8M668.3K4.86%279K").
 */

/** The post-list table's width beyond its card, in px (0 when it fits). */
async function tableOverflow(page: Page): Promise<number> {
  return page.getByTestId('post-list').evaluate((table) => {
    const card = table.closest('.panel') ?? table.parentElement!;
    return Math.max(0, table.getBoundingClientRect().right - card.getBoundingClientRect().right);
  });
}

test.describe('at 1280×800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a partly failed row with three actions keeps the Posts table inside its card', async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    const auth = { authorization: `Bearer ${bridge.key}` };
    const health = await request.get(`${bridge.url}/health`, { headers: auth });
    const provider = ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
    const control = await sandboxControlHeaders(request, bridge);
    const text = `Three actions ${Date.now().toString(36)} with a longer sentence that runs on`;
    await request.post(`${provider}/__sandbox/fail-platform`, {
      headers: control,
      data: { platform: 'socialnet', message: 'Page token expired. Reconnect the page.' },
    });
    try {
      await request.post(`${bridge.url}/postsvc/schedule`, {
        headers: auth,
        data: {
          post: text,
          platforms: ['microblog', 'socialnet'],
          scheduleDate: new Date(Date.now() + 28 * 3_600_000).toISOString(),
        },
      });
    } finally {
      await request.post(`${provider}/__sandbox/fail-platform`, {
        headers: control,
        data: { platform: 'socialnet', message: null },
      });
    }
    await page.goto('/#/posts');
    const row = page.getByTestId('post-list').locator('tr', { hasText: text });
    await expect(row).toContainText('Partly failed');
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test/e2e/screenshots/fit-posts-1280.png' });
    for (const name of ['Cancel the rest', 'Retry failed', 'Edit…']) {
      const button = row.getByRole('button', { name });
      await expect(button).toBeVisible();
      const cut = await button.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      expect(cut, `"${name}" is cut`).toBe(false);
    }
    expect(await tableOverflow(page), 'px of the table beyond its card').toBe(0);
  });
});

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Analytics headline numbers stand apart, each inside its own box', async ({ dashboard: page }) => {
    await page.goto('/#/analytics');
    const totals = page.getByTestId('social-totals');
    await expect(totals.locator('.number-value').first()).not.toHaveText('');
    await totals.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test/e2e/screenshots/fit-analytics-390.png' });
    const boxes = await totals.locator('.number').evaluateAll((numbers) =>
      numbers.map((number) => {
        const value = number.querySelector('.number-value') as HTMLElement;
        const box = number.getBoundingClientRect();
        const text = value.getBoundingClientRect();
        return {
          value: value.textContent,
          overflows: value.scrollWidth > value.clientWidth + 1 || text.right > box.right + 0.5,
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
        };
      }),
    );
    expect(boxes.length).toBeGreaterThan(1);
    for (const box of boxes) expect(box.overflows, `${box.value} runs out of its box`).toBe(false);
    // Neighbours on one line keep a gap between them.
    for (let i = 1; i < boxes.length; i++) {
      const [a, b] = [boxes[i - 1]!, boxes[i]!];
      if (Math.abs(a.top - b.top) < 1) expect(b.left - a.right, `${a.value} | ${b.value}`).toBeGreaterThan(4);
    }
  });
});
