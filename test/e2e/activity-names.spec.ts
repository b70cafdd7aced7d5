import { copyFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, screenshot, test } from './fixtures.js';

/**
 * Issue #30.4 (names in event data): the bridge writes an event's message in the names a person
 * knows (a post's first words), so the Activity page shows them for a post the dashboard never
 * loaded, and no raw id (a provider `pst_…` id, a 24-hex CRM id) reaches the screen.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
/** `ACTIVITY_NAMES_SHOTS=before|after`: also copy the screenshots to docs/screens/<that>/. */
const shotsFor = process.env.ACTIVITY_NAMES_SHOTS;

async function keepShot(name: string): Promise<void> {
  if (shotsFor !== 'before' && shotsFor !== 'after') return;
  const target = resolve(here, '../../docs/screens', shotsFor);
  mkdirSync(target, { recursive: true });
  copyFileSync(resolve(here, 'screenshots', `${name}.png`), resolve(target, `${name}.png`));
}

for (const width of [1280, 390] as const) {
  test(`the Activity page names a post it never loaded by its first words, no ids (${width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    const auth = { authorization: `Bearer ${bridge.key}` };
    const text = `Harbour lights teaser ${width} ${Date.now().toString(36)}: the whole crew is back on Thursday night`;
    // A quiet slot 11 days ahead at 04:20 UTC: no demo post sits near it.
    const when = new Date(Date.now() + 11 * 86_400_000);
    when.setUTCHours(4, 20 + (width === 390 ? 5 : 0), 0, 0);
    const scheduled = await request.post(`${bridge.url}/postsvc/schedule`, {
      headers: auth,
      data: { post: text, platforms: ['microblog'], scheduleDate: when.toISOString() },
    });
    expect(scheduled.status()).toBe(200);
    const { id: postsvcId } = (await scheduled.json()) as { id: string };
    const cancelled = await request.post(`${bridge.url}/api/posts/cancel`, {
      headers: auth,
      data: { id: postsvcId },
    });
    expect(cancelled.status()).toBe(200);

    // Straight to the Activity page in a fresh page, and the posts list never answers: the
    // dashboard holds no post at all (as for a post long scrolled off its list).
    await page.route(/\/api\/posts(\?|$)/, (route) => route.abort());
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto('/#/activity');
    const items = page.getByTestId('activity-panel').getByTestId('activity-item');
    await expect(items.first()).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading activity' })).toHaveCount(0);
    // Taken before the checks, so the old code's screen is kept too (docs/screens/before).
    await screenshot(page, `activity-names-${width}`);
    await keepShot(`activity-names-${width}`);
    const excerpt = 'Harbour lights teaser';
    const cancelRow = items
      .filter({ hasText: excerpt })
      .filter({ hasText: /cancel/i })
      .first();
    await expect(cancelRow).toBeVisible();
    const scheduleRow = items
      .filter({ hasText: excerpt })
      .filter({ hasText: /scheduled/i })
      .first();
    await expect(scheduleRow).toBeVisible();

    const messages = await page.locator('.activity-message').allInnerTexts();
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).not.toContain(postsvcId);
      expect(message).not.toMatch(/\bpst_[\w-]+/);
      expect(message).not.toMatch(/\b[0-9a-f]{24}\b/);
    }
  });
}
