import { expect, screenshot, test } from './fixtures.js';

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
