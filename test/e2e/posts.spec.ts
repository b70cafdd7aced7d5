import { expect, screenshot, test } from './fixtures.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Tomorrow 10:30 in the browser's zone, as a datetime-local value, and the instant it means. */
function tomorrowAt1030(): { input: string; iso: string; dayKey: string } {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  date.setHours(10, 30, 0, 0);
  const input = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T10:30`;
  return { input, iso: date.toISOString(), dayKey: input.slice(0, 10) };
}

test('posts: compose with live counters, schedule, see it listed, cancel it', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const text = `E2E post ${Date.now().toString(36)}: new episode https://studio.com/${'episode-'.repeat(12)}`;
  await page.goto('/#/posts');
  await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('post-quota')).toContainText('posts left today');
  await expect(page.getByTestId('post-list')).toBeVisible();
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);

  // Over the microblog limit: the counter turns red, the rule is named, the button stays off.
  const textarea = page.getByLabel('Post', { exact: true });
  await textarea.fill('x'.repeat(290));
  await expect(page.getByTestId('counter-microblog')).toContainText('290 / 280');
  await expect(page.locator('#composer-post-notes')).toContainText(
    'Too long for Microblog: 290 characters, it allows 280.',
  );
  await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();
  await screenshot(page, 'posts-over-limit');

  // A long link counts 23 on microblog, in full elsewhere.
  await textarea.fill(text);
  await page.getByRole('button', { name: 'Socialnet', exact: true }).click();
  const weighted = text.length - `https://studio.com/${'episode-'.repeat(12)}`.length + 23;
  await expect(page.getByTestId('counter-microblog')).toContainText(`${weighted} / 280`);
  await expect(page.getByTestId('counter-socialnet')).toContainText(`${text.length} / 63,206`);
  await page.getByLabel('Hashtags').fill('podcast, e2e');
  const when = tomorrowAt1030();
  await page.getByLabel(/^Publish at/).fill(when.input);
  await expect(page.getByTestId('post-when-utc')).toContainText('UTC');
  await screenshot(page, 'posts-compose');

  await page.getByRole('button', { name: 'Schedule post' }).click();
  await expect(page.getByTestId('schedule-success')).toContainText('Scheduled');
  const row = page.getByTestId('post-list').locator('tr', { hasText: text.slice(0, 20) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Scheduled');
  await expect(row).toContainText('#podcast #e2e');
  // The month calendar shows six weeks: tomorrow is always in it, in its cell or, when other specs
  // filled that day, behind its "+N more".
  const calendar = page.getByTestId('post-calendar');
  const more = calendar.getByTestId(`cal-day-${when.dayKey}`).getByRole('button', { name: /^\+\d+ more$/ });
  if ((await more.count()) > 0) {
    await more.click();
    await expect(page.getByTestId('calendar-day-list')).toContainText(text.slice(0, 12));
    await page.keyboard.press('Escape');
  } else {
    await expect(calendar).toContainText(text.slice(0, 12));
  }
  await screenshot(page, 'posts');

  // The provider's post id is for integrators: not in the row's text, in the source cell's tooltip.
  const providerId = await row.locator('[data-postsvc-id]').getAttribute('data-postsvc-id');
  expect(providerId).toBeTruthy();
  await expect(row).not.toContainText(providerId!);
  await expect(row.locator(`[title*="${providerId}"]`)).toHaveCount(1);

  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  await row.getByRole('button', { name: 'Cancel post' }).click();
  await expect(row).toContainText('Cancelled');
  await expect(row.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);

  // The provider has it as deleted.
  const history = await request.get('/postsvc/history?limit=100', {
    headers: { Authorization: `Bearer ${bridge.key}` },
  });
  expect(history.ok()).toBe(true);
  const body = (await history.json()) as {
    data: { id: string; status: string; scheduleDate: string | null }[];
  };
  const post = body.data.find((item) => item.id === providerId);
  expect(post?.status).toBe('deleted');
  expect(post?.scheduleDate).toBe(when.iso);
  await screenshot(page, 'posts-cancelled');
});
