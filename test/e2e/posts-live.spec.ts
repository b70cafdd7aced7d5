import { expect, screenshot, test } from './fixtures.js';

/**
 * Issue #23.2 (DESIGN §6.9 "Cancel never deletes a live post unasked"): the provider publishes a
 * post at its time without telling the bridge; before the bridge's own check (+30 s) the Posts
 * page still shows it due, and Cancel must not take it down: the bridge answers 409
 * ALREADY_PUBLISHED and the page offers only "Delete from <platform>…", saying it is live.
 */
test('Cancel on a post the provider already published offers only "Delete from …" with the live warning', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const text = `Live already ${Date.now()}: the new episode https://studio.example/live`;
  const at = new Date(Date.now() + 4_000);
  const scheduled = await request.post(`${bridge.url}/postsvc/schedule`, {
    headers: { authorization: `Bearer ${bridge.key}` },
    data: { post: text, platforms: ['microblog'], scheduleDate: at.toISOString() },
  });
  expect(scheduled.status()).toBe(200);
  // Its time passes: the provider publishes it; the bridge looks at +30 s.
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(at.getTime() + 500);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/posts');
  const row = page.locator('[data-testid^="post-row-"]').filter({ hasText: text });
  await expect(row.getByTestId('post-confirmation')).toHaveText('Due — checking');
  await screenshot(page, 'posts-live-due-checking-1280');
  await row.screenshot({ path: 'test/e2e/screenshots/posts-live-row-due-1280.png' });

  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  await row.getByRole('button', { name: 'Cancel post' }).click();
  const live = row.getByTestId('live-delete');
  await expect(live).toContainText('Live on Microblog: it is already published, so it cannot be cancelled.');
  // Only the delete, asked for by name: no Cancel is offered any more.
  await expect(row.getByRole('button', { name: 'Delete from Microblog…' })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
  await expect(row.getByRole('link', { name: 'View on Microblog' })).toBeVisible();
  await screenshot(page, 'posts-live-refused-1280');

  await row.getByRole('button', { name: 'Delete from Microblog…' }).click();
  const confirm = row.getByRole('button', { name: 'Delete the live post from Microblog' });
  await expect(confirm).toHaveClass(/button-danger/);
  await expect(row.getByRole('button', { name: 'Keep it live' })).toBeVisible();
  await screenshot(page, 'posts-live-delete-confirm-1280');
  await row.screenshot({ path: 'test/e2e/screenshots/posts-live-row-confirm-1280.png' });

  await page.setViewportSize({ width: 390, height: 844 });
  await confirm.scrollIntoViewIfNeeded();
  await expect(confirm).toBeInViewport();
  await screenshot(page, 'posts-live-delete-confirm-390');
  await row.screenshot({ path: 'test/e2e/screenshots/posts-live-row-confirm-390.png' });
  await row.getByRole('button', { name: 'Keep it live' }).click();
  await expect(row.getByRole('button', { name: 'Delete from Microblog…' })).toBeVisible();
  await screenshot(page, 'posts-live-refused-390');
});
