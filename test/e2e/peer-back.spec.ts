import { expect, rehearse, shootAround, test, throttleProvider } from './fixtures.js';

/**
 * States that are true (issue #40.2): an action's failure because of a peer is the state of
 * things only until /health reads that peer reachable again; then it is said as past, quietly. And
 * a request the posting provider holds back says what it waits on, not only a spinner.
 */

const codes = /HTTP \d{3}|CRM_ERROR|GET \/|crm GET|The bridge said/;

test('Sync failed on Broadcasts: red while the CRM fails, a quiet past line once /health reads it back', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  // The bridge tries the CRM three times; then the rehearsal's probe and the next /health poll.
  test.setTimeout(90_000);
  await page.goto('/#/broadcasts');
  const sync = page.locator('.bc-sync');
  await expect(sync.getByRole('button', { name: 'Sync now' })).toBeVisible();
  await rehearse(request, bridge, 'crm', 'fail');
  try {
    await sync.getByRole('button', { name: 'Sync now' }).click();
    const failed = sync.getByRole('alert');
    await expect(failed).toContainText('Sync failed: The CRM is failing', { timeout: 30_000 });
    expect(await failed.innerText()).not.toMatch(codes);
    await shootAround(page, 'peer-back-broadcasts-sync-failed', sync);
  } finally {
    await rehearse(request, bridge, 'crm', 'none');
  }
  // No click: the header's /health poll reads the CRM reachable, and the line turns past.
  await expect(sync.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
  const past = sync.getByRole('status').filter({ hasText: 'Sync failed' });
  await expect(past).toContainText(
    /^Sync failed: The CRM was failing at \d{1,2}:\d{2}.*; it answers again now\./,
  );
  expect(await past.innerText()).not.toMatch(codes);
  await shootAround(page, 'peer-back-broadcasts-sync-past', sync);
});

test('Sync with provider on Posts: the provider failing, then back: its error is no longer current', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(90_000);
  await page.goto('/#/posts');
  const sync = page.locator('.posts-sync');
  await expect(sync.getByRole('button', { name: 'Sync with provider' })).toBeVisible();
  await rehearse(request, bridge, 'postsvc', 'fail');
  try {
    await sync.getByRole('button', { name: 'Sync with provider' }).click();
    await expect(sync.getByRole('alert')).toContainText('Sync failed: The posting provider is failing', {
      timeout: 30_000,
    });
  } finally {
    await rehearse(request, bridge, 'postsvc', 'none');
  }
  await expect(sync.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
  await expect(sync.getByRole('status').filter({ hasText: 'Sync failed' })).toContainText(
    /The posting provider was failing at \d{1,2}:\d{2}.*; it answers again now\./,
  );
  await shootAround(page, 'peer-back-posts-sync-past', sync);
});

test('a sync the posting provider holds back (429, Retry-After 3 s) says what it waits on', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/posts');
  const sync = page.locator('.posts-sync');
  // At each width its own wait: the screenshot is taken while the sync is held.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(sync.getByRole('button', { name: 'Sync with provider' })).toBeEnabled();
    // Twice: the request waits out each Retry-After inside itself (≤ 3 s), about 6 s in all.
    await throttleProvider(request, bridge, {
      method: 'GET',
      pathPrefix: '/history',
      retryAfterS: 3,
      times: 2,
    });
    await sync.getByRole('button', { name: 'Sync with provider' }).click();
    const waiting = sync.getByTestId('posts-sync-result-waiting');
    await expect(waiting).toContainText(
      /^It is limiting how often the bridge may ask, until \d{1,2}:\d{2}.*; the sync goes on by itself\.$/,
    );
    await expect(sync.getByRole('button')).toContainText('Waiting for the posting provider');
    await page.screenshot({
      path: `test/e2e/screenshots/peer-back-posts-sync-waiting-${width}.png`,
      animations: 'disabled',
    });
    await expect(sync.getByTestId('posts-sync-result')).toContainText('matched', { timeout: 30_000 });
    await expect(waiting).toHaveCount(0);
  }
});
