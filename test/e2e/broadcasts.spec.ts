import { expect, sandboxControlHeaders, screenshot, test } from './fixtures.js';

test('broadcasts: create one through the form, see it listed, delete it with confirmation', async ({
  dashboard: page,
}) => {
  await page.goto('/#/broadcasts');
  await expect(page.getByRole('heading', { name: 'Broadcasts', level: 1 })).toBeVisible();
  const list = page.getByTestId('broadcast-list');
  // The sandbox's demo broadcasts.
  await expect(list.getByTestId('broadcast-row').first()).toBeVisible();
  await expect(page.getByTestId('publishing-panel').getByTestId('production-card').first()).toBeVisible();
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await screenshot(page, 'broadcasts');

  const form = page.getByTestId('create-broadcast');
  await form.getByRole('button', { name: 'Create broadcast' }).click();
  await expect(form.getByText('Give the broadcast a name.')).toBeVisible();

  const name = `E2E launch party ${Date.now().toString(36)}`;
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description').fill('Created by the end-to-end test');
  await expect(form.getByTestId('bc-start-utc')).toContainText('UTC');
  await form.getByLabel('Channel').fill('backup');
  await form.getByLabel('Type').selectOption('rtmp');
  await form.getByLabel('Ingest URL').fill('rtmp://ingest.example.com/live');
  const key = 'sk-live-4k2j-99aa-e2e7';
  await form.getByLabel('Stream key').fill(key);
  await expect(form.getByLabel('Stream key')).toHaveAttribute('type', 'password');
  await expect(form.getByTestId('bc-key-mask')).toHaveText('••••e2e7');
  await form.getByLabel('DVR (viewers can rewind)').uncheck();
  await screenshot(page, 'broadcasts-form');

  await form.getByRole('button', { name: 'Create broadcast' }).click();
  await expect(form.getByTestId('create-broadcast-done')).toContainText('Broadcast created');
  const row = list.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('broadcast-status')).toHaveText(/created|ready|testing|live/);
  await expect(row.getByRole('link', { name: 'Embed' })).toHaveAttribute('href', /\/streamhost\/embed\//);
  await expect(page.locator('body')).not.toContainText(key);
  await screenshot(page, 'broadcasts-created');

  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-result')).toContainText(/\d+ examined, \d+ updated, 0 errors/);

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${name}` });
  await expect(confirm).toContainText('remove its CRM record');
  await screenshot(page, 'broadcasts-delete-confirm');
  await confirm.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(row).toHaveCount(0);
});

test('broadcasts: a refused broadcast shows the gateway’s code', async ({ dashboard: page }) => {
  await page.goto('/#/broadcasts');
  const form = page.getByTestId('create-broadcast');
  await form.getByLabel('Name').fill('Wrong channel');
  await form.getByLabel('Channel').fill('no-such-channel');
  await form.getByRole('button', { name: 'Create broadcast' }).click();
  await expect(form.getByTestId('create-broadcast-error')).toContainText('CHANNEL_NOT_FOUND');
});

test('publishing: a dependent waits on its primary, and publishing the primary publishes both', async ({
  dashboard: page,
}) => {
  await page.goto('/#/broadcasts');
  const card = page.getByTestId('production-card').filter({ hasText: 'Streamhost' }).first();
  const streamhost = card.locator('[data-testid="publish-row"][data-platform="Streamhost"]');
  const videosite = card.locator('[data-testid="publish-row"][data-platform="Videosite"]');
  await expect(streamhost.getByTestId('publish-state')).toHaveText('Waiting on Videosite');
  const failed = page.locator('[data-testid="publish-row"]').filter({ hasText: 'Failed' }).first();
  await expect(failed.getByTestId('publish-api-response')).toBeVisible();
  await screenshot(page, 'broadcasts-publishing-waiting');

  await videosite.getByRole('button', { name: 'Publish' }).click();
  await expect(videosite.getByTestId('publish-state')).toHaveText('Published');
  await expect(streamhost.getByTestId('publish-state')).toHaveText('Published');
  await expect(streamhost).toContainText('key ••••');
  await screenshot(page, 'broadcasts-publishing-done');
});

test('a broadcast goes live only by its encoder; ON AIR shows on another open page within 6 s; deleting it live asks in red, End keeps it', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(90_000);
  const headers = { Authorization: `Bearer ${bridge.key}` };
  const tag = Date.now().toString(36);
  const create = async (name: string, minutes: number) => {
    const response = await request.post('/streamhost/create-broadcast', {
      headers,
      data: { name, scheduledAt: new Date(Date.now() + minutes * 60_000).toISOString(), channelId: 'main' },
    });
    expect(response.ok(), await response.text()).toBe(true);
    return ((await response.json()) as { broadcastId: string }).broadcastId;
  };
  // Starts in 3 min: inside its close watch, read every 5 s. The other starts later, on the button.
  const worldName = `E2E encoder ${tag}`;
  const worldId = await create(worldName, 3);
  const buttonName = `E2E button ${tag}`;
  await create(buttonName, 45);

  await page.goto('/#/broadcasts');
  const row = (name: string) => page.locator(`[data-testid="broadcast-row"][data-name="${name}"]`);
  await expect(row(worldName).getByTestId('broadcast-status')).toHaveText('created');
  const overview = await page.context().newPage();
  await overview.goto('/#/');
  await expect(overview.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(overview.getByTestId('on-air')).toHaveCount(0);

  // The studio's encoder connects at the host (the sandbox gateway's control route), not through the bridge.
  const health = (await (await request.get('/health', { headers })).json()) as {
    peers: Record<string, { url: string }>;
  };
  const encoder = await request.post(`${health.peers.gateway!.url}/__sandbox/encoder`, {
    headers: await sandboxControlHeaders(request, bridge),
    data: { broadcastId: worldId },
  });
  expect(encoder.ok(), await encoder.text()).toBe(true);
  await expect(overview.getByTestId('on-air')).toBeVisible({ timeout: 6_000 });
  await expect(overview.getByTestId('on-air')).toContainText(worldName);
  await screenshot(overview, 'on-air-header');
  await overview.close();
  await expect(row(worldName).getByTestId('broadcast-status')).toHaveText('live');

  // The page's own simulated encoder control.
  await row(buttonName).getByRole('button', { name: 'Start encoder' }).click();
  await expect(row(buttonName).getByTestId('broadcast-status')).toHaveText('live');
  await screenshot(page, 'broadcasts-live');

  // Deleting a live broadcast: named live, a red button, both buttons on screen at both widths.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await row(worldName).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete ${worldName} while it is live?` });
    await expect(dialog).toContainText('It is live now');
    const go = dialog.getByRole('button', { name: 'Delete the live broadcast' });
    await expect(go).toHaveClass(/button-danger/);
    for (const button of [go, dialog.getByRole('button', { name: 'Cancel' })]) {
      const box = await button.boundingBox();
      expect(box, 'button laid out').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    }
    await page.screenshot({
      path: `test/e2e/screenshots/confirm-delete-live-${viewport.width}.png`,
      animations: 'disabled',
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // End: complete at the host, still listed.
  await row(worldName).getByRole('button', { name: 'End' }).click();
  const end = page.getByRole('alertdialog', { name: `End ${worldName} now?` });
  await expect(end).toContainText('stays listed');
  await end.getByRole('button', { name: 'Yes, end it' }).click();
  await expect(row(worldName).getByTestId('broadcast-status')).toHaveText('complete');
  await expect(row(worldName).getByRole('button', { name: 'End' })).toHaveCount(0);
  await screenshot(page, 'broadcasts-ended');
  await row(buttonName).getByRole('button', { name: 'End' }).click();
  await page
    .getByRole('alertdialog', { name: `End ${buttonName} now?` })
    .getByRole('button', { name: 'Yes, end it' })
    .click();
  await expect(row(buttonName).getByTestId('broadcast-status')).toHaveText('complete');
});
