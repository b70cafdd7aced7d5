import type { Page } from '@playwright/test';
import { expect, rehearse, screenshot, test } from './fixtures.js';
import { localAt, providerPosts, schedulePost } from './scheduled-posts.js';

/**
 * Issue #40.1 and #40.3. A scheduled post offers Edit in place: a time-only change is a move (in
 * place on this premium plan, no quota); new text or platforms say once what they cost ("cancels it
 * at the provider and creates a new one") and then do it, never leaving two live posts. At 390 px a
 * post is moved with "Move to…" (no drag), its tooltip does not say "Drag", and the agenda lists
 * failed posts as the week view does. A post the provider refuses ("Not posted.") leaves one
 * outcome said once: a Failed row that says it will not retry by itself and what Retry does.
 * Screenshots are named with SHOTS (before/after, default after).
 */

const shots = process.env.SHOTS ?? 'after';
const pad = (n: number) => String(n).padStart(2, '0');
const inputOf = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** The composer's platforms: Socialnet alone. */
async function onlySocialnet(page: Page) {
  const buttons = page
    .getByTestId('post-composer')
    .getByRole('group', { name: 'Platforms' })
    .getByRole('button');
  for (const button of await buttons.all()) {
    const wanted = (await button.textContent())?.includes('Socialnet') ?? false;
    if ((await button.getAttribute('aria-pressed')) !== String(wanted)) await button.click();
  }
}

const rowOf = (page: Page, text: string) =>
  page.getByTestId('post-list').locator('tr', { hasText: text.slice(0, 24) });

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`edit a scheduled post in place: a new time is a move (no quota), new text and platforms say their cost first (${viewport.width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    await page.setViewportSize(viewport);
    const text = `Edit in place ${viewport.width} ${Date.now().toString(36)}`;
    const oldId = await schedulePost(request, bridge, text, localAt(2, 9, 5));
    await page.goto('/#/posts');
    const row = rowOf(page, text);
    await expect(row).toContainText('Scheduled');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, `posts-edit-scheduled-row-${viewport.width}-${shots}`);

    // A new time only: moved in place, the same post at the provider.
    await expect(row.getByRole('button', { name: 'Edit…' })).toHaveCount(1);
    await row.getByRole('button', { name: 'Edit…' }).click();
    const dialog = page.getByTestId('reschedule-dialog');
    await expect(dialog.getByRole('heading')).toHaveText('Edit scheduled post');
    const to = localAt(3, 9, 5);
    await dialog.getByLabel(/^Publish at/).fill(inputOf(to));
    await expect(dialog.getByTestId('edit-cost')).toContainText('Moves it, no quota');
    await screenshot(page, `posts-edit-scheduled-move-${viewport.width}-${shots}`);
    await dialog.getByRole('button', { name: 'Move it' }).click();
    await expect(dialog).toHaveCount(0);
    await expect
      .poll(async () => (await providerPosts(request, bridge, text)).map((p) => [p.id === oldId, p.status]))
      .toEqual([[true, 'scheduled']]);
    expect((await providerPosts(request, bridge, text))[0]!.scheduleDate).toBe(to.toISOString());

    // New text and another platform: the cost is said, then it is done; never two live posts.
    await row.getByRole('button', { name: 'Edit…' }).click();
    await dialog.getByLabel('Post', { exact: true }).fill(`${text} reworded`);
    await dialog.getByRole('group', { name: 'Platforms' }).getByRole('button', { name: 'Microblog' }).click();
    await expect(dialog.getByTestId('edit-cost')).toContainText(
      /Cancels it at the provider and creates a new one: 1 of today's \d+ posts/,
    );
    await expect(dialog).not.toContainText('keeps its platforms');
    await screenshot(page, `posts-edit-scheduled-replace-${viewport.width}-${shots}`);
    await dialog.getByRole('button', { name: /^Replace it/ }).click();
    await expect(dialog).toHaveCount(0);
    const old = await providerPosts(request, bridge, text);
    expect(old.map((p) => p.status)).toEqual(['deleted']);
    const renewed = await providerPosts(request, bridge, `${text} reworded`);
    expect(renewed.map((p) => [p.status, [...p.platforms].sort()])).toEqual([
      ['scheduled', ['microblog', 'socialnet']],
    ]);
  });
}

test.describe('390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('calendar: a post is moved with "Move to…" (no drag), its tooltip does not say Drag, and failed posts are listed', async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    const text = `Agenda move ${Date.now().toString(36)}`;
    const from = localAt(1, 0, 40);
    const oldId = await schedulePost(request, bridge, text, from);
    const failedText = `Agenda failed ${Date.now().toString(36)}`;
    await rehearse(request, bridge, 'postsvc', 'refuse-platform', 'socialnet');
    try {
      const refused = await request.post('/postsvc/schedule', {
        headers: { Authorization: `Bearer ${bridge.key}` },
        data: { post: failedText, platforms: ['socialnet'], scheduleDate: localAt(1, 0, 20).toISOString() },
      });
      expect(refused.ok()).toBe(false);
    } finally {
      await rehearse(request, bridge, 'postsvc', 'none');
    }
    await page.goto('/#/posts');
    if (from.getMonth() !== new Date().getMonth()) await page.getByRole('button', { name: 'Next →' }).click();
    const agenda = page.getByTestId('calendar-agenda');
    const chip = agenda.locator('.cal-chip', { hasText: text });
    await expect(chip).toHaveCount(1);
    await page.getByTestId('post-calendar').scrollIntoViewIfNeeded();
    await page.getByTestId('post-calendar').screenshot({
      path: `test/e2e/screenshots/posts-agenda-move-390-${shots}.png`,
      animations: 'disabled',
    });
    const failed = agenda.locator('.cal-chip', { hasText: failedText });
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText('Failed');
    await expect(failed.getByRole('button', { name: /Edit…/ })).toHaveCount(1);
    const title = await chip.getAttribute('title');
    expect(title).not.toMatch(/drag/i);
    expect(title).toContain('Move to…');

    await chip.getByRole('button', { name: 'Move to…' }).click();
    const to = localAt(2, 0, 40);
    const dialog = page.getByTestId('calendar-move-to');
    await dialog.getByLabel(/^New time/).fill(inputOf(to));
    await expect(dialog).toContainText('uses none of today');
    await screenshot(page, `posts-agenda-move-to-390-${shots}`);
    await page.getByRole('button', { name: 'Move it' }).click();
    await expect(page.getByTestId('calendar-notice')).toContainText('Moved to');
    const atProvider = await providerPosts(request, bridge, text);
    expect(atProvider.map((p) => [p.id === oldId ? 'same' : 'new', p.status, p.scheduleDate])).toEqual([
      ['same', 'scheduled', to.toISOString()],
    ]);
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`"Not posted." leaves one outcome: a Failed row that says it will not retry by itself and what Retry does (${viewport.width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    await page.setViewportSize(viewport);
    const text = `Refused at once ${viewport.width} ${Date.now().toString(36)}`;
    await page.goto('/#/posts');
    await page.getByLabel('Post', { exact: true }).fill(text);
    await onlySocialnet(page);
    await page.getByLabel(/^Publish at/).fill(inputOf(localAt(1, 11, 15)));
    await rehearse(request, bridge, 'postsvc', 'refuse-platform', 'socialnet');
    try {
      await page.getByRole('button', { name: 'Schedule post' }).click();
      const error = page.getByTestId('schedule-error');
      await expect(error).toContainText('Not posted.');
      const row = rowOf(page, text);
      await expect(row).toContainText('Failed');
      await error.scrollIntoViewIfNeeded();
      await screenshot(page, `posts-not-posted-${viewport.width}-${shots}`);
      // Said once: the banner points at the row; the row says what happens and what Retry does.
      await expect(error).toContainText('listed below as Failed');
      await expect(row).toContainText('Failed — will not retry by itself');
      await expect(row).toContainText('Retry sends it once more');
      await expect(error).not.toContainText('will not retry by itself');
      await expect(row.getByText('will not retry by itself')).toHaveCount(1);
    } finally {
      await rehearse(request, bridge, 'postsvc', 'none');
    }
    // Retry does what the row says: one post at the provider, scheduled.
    const row = rowOf(page, text);
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(row).toContainText('Scheduled');
    await expect(row).not.toContainText('will not retry by itself');
    expect((await providerPosts(request, bridge, text)).filter((p) => p.status === 'scheduled')).toHaveLength(
      1,
    );
  });
}
