import { expect, expectFitsWidth, screenshot, test } from './fixtures.js';

/**
 * Issue 41.3: an ended broadcast says when it ended, how long it ran, its peak and average viewers
 * (not its start as "in 11 min" and viewers back at 0), and the created banner shows the start.
 * Screenshots at 1280 and 390 px.
 */

test('the created banner shows the broadcast’s start, not the time it was created', async ({
  dashboard: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/broadcasts');
  const form = page.getByTestId('create-broadcast');
  const name = `E2E banner ${Date.now().toString(36)}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel(/^Starts/).fill('2030-06-15T14:30');
  await form.getByRole('button', { name: 'Create broadcast' }).click();
  const done = form.getByTestId('create-broadcast-done');
  await expect(done).toContainText('Broadcast created');
  await screenshot(page, 'broadcasts-created-banner-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(done).toBeVisible();
  await screenshot(page, 'broadcasts-created-banner-390');
  await expect(done).toContainText(/starts .*Jun 15, 2030.*2:30/);
  const row = page.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Yes, delete' })
    .click();
  await expect(row).toHaveCount(0);
});

test('an ended broadcast shows when it ended, how long it ran, peak and average viewers', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(90_000);
  const headers = { Authorization: `Bearer ${bridge.key}` };
  const name = `E2E ended ${Date.now().toString(36)}`;
  const created = await request.post('/streamhost/create-broadcast', {
    headers,
    data: { name, scheduledAt: new Date(Date.now() + 11 * 60_000).toISOString(), channelId: 'backup' },
  });
  expect(created.ok(), await created.text()).toBe(true);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/broadcasts');
  const row = page.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
  await row.getByRole('button', { name: 'Start encoder' }).click();
  await expect(row.getByTestId('broadcast-status')).toHaveText('live');
  // Viewers sampled by the bridge's sync while it is live (every 5 s in its close watch).
  await expect(row.getByTestId('broadcast-viewers')).not.toHaveText('0', { timeout: 15_000 });

  await row.getByRole('button', { name: 'End' }).click();
  await page
    .getByRole('alertdialog', { name: `End ${name} now?` })
    .getByRole('button', { name: 'Yes, end it' })
    .click();
  await expect(row.getByTestId('broadcast-status')).toHaveText('complete');
  await screenshot(page, 'broadcasts-ended-stats-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'broadcasts-ended-stats-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  const ended = row.getByTestId('broadcast-ended');
  await expect(ended).toHaveText(
    /^Ended .+ · ran (\d+ s|\d+ min(utes?)?.*) · peak [\d,]+ viewers? · average [\d,]+$/,
  );
  await expect(row).not.toContainText(/in \d+ min/);
  const peak = Number(/peak ([\d,]+)/.exec((await ended.textContent())!)![1]!.replace(/,/g, ''));
  expect(peak).toBeGreaterThan(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(ended).toBeVisible();
  await expectFitsWidth(page, 390);
});
