import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { suggestRecorderFilename } from '../../shared/recorder-filename.js';
import { expect, screenshot, test } from './fixtures.js';

const peers = ['crm', 'postsvc', 'gateway', 'automation'] as const;

test('key screen refuses a wrong key and opens the dashboard with the right one', async ({
  page,
  bridge,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Connect to Studio Bridge' })).toBeVisible();
  await screenshot(page, 'key-screen');

  const keyInput = page.getByLabel('Bridge API key');
  await keyInput.fill('not-the-bridge-key');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(/refused|did not accept/);

  await keyInput.fill(bridge.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // Kept in this browser: a reload goes straight to the dashboard.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
});

test('a stored key the bridge refuses brings back the key screen', async ({ page }) => {
  await page.addInitScript(([name, key]) => window.localStorage.setItem(name, key), [
    API_KEY_STORAGE_KEY,
    'a-key-that-was-rotated',
  ] as const);
  await page.goto('/#/activity');
  await expect(page.getByRole('heading', { name: 'Connect to Studio Bridge' })).toBeVisible();
  await expect(page.getByText('The bridge refused the key this dashboard was using')).toBeVisible();
});

test('overview shows the bridge, reachable sandbox peers and the Sandbox badge', async ({
  dashboard: page,
}) => {
  await page.goto('/#/');
  await expect(page.getByTestId('sandbox-badge')).toHaveText('Sandbox');
  await expect(page.getByTestId('bridge-panel')).toContainText(/OK|Degraded/);
  for (const peer of peers) {
    await expect(page.getByTestId(`peer-${peer}`)).toContainText('Reachable');
  }
  await expect(page.getByTestId('jobs-panel')).toContainText('pending');
  await expect(page.getByTestId('quota-panel')).toBeVisible();
  await expect(page.getByTestId('recorder-panel')).toBeVisible();
  await expect(page.getByTestId('live-status').first()).toHaveText(/Live/);
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await screenshot(page, 'overview');
});

test('overview shows the last CRM catch-up, and a failed one with its retry and the vanished-posts alarm', async ({
  dashboard: page,
}) => {
  const panel = page.getByTestId('catchup-panel');
  const sizes = [
    { name: 'wide', width: 1280, height: 800 },
    { name: 'narrow', width: 390, height: 844 },
  ] as const;
  // The sandbox bridge catches up with its simulated CRM at start: the real report.
  await page.goto('/#/');
  await expect(panel).toContainText('records seen');
  await expect(panel).toContainText(/Up to date|Done with errors|Needs you/);
  await expect(panel.getByTestId('catchup-at').getByTestId('time-utc')).toContainText('UTC');
  for (const size of sizes) {
    await page.setViewportSize(size);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, `overview-catchup-${size.name}`);
  }

  // A failed run and a mass disappearance are drawn from the same /health, altered in the page only.
  const failedAt = new Date(Date.now() - 60_000).toISOString();
  await page.route('**/health', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    await route.fulfill({
      response,
      json: {
        ...body,
        status: 'degraded',
        lastCatchUp: {
          at: failedAt,
          status: 'failed',
          attempt: 3,
          seen: 212,
          actedOn: 0,
          errors: 1,
          queued: 0,
          error: 'CRM unreachable: connect ECONNREFUSED 127.0.0.1:8080',
          retryAt: new Date(Date.now() + 7_000).toISOString(),
          running: false,
          alarm: [
            'Episode 12 promo (6612a0c1f0e) goes out on microblog at 2026-12-01 09:00 UTC',
            'Guest teaser (6612a0c1f0f) goes out on photogram at 2026-12-01 17:30 UTC',
          ],
          lastOkAt: new Date(Date.now() - 3_600_000).toISOString(),
        },
      },
    });
  });
  await page.reload();
  await expect(panel).toContainText('Failed');
  await expect(panel.getByTestId('catchup-error')).toContainText('ECONNREFUSED');
  await expect(panel.getByTestId('catchup-retry')).toContainText('Tries again at');
  await expect(panel.getByTestId('catchup-alarm')).toContainText('2 tracked CRM records vanished');
  await expect(panel.getByTestId('catchup-alarm').getByRole('listitem')).toHaveCount(2);
  for (const size of sizes) {
    await page.setViewportSize(size);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, `overview-catchup-failed-${size.name}`);
  }

  // A bridge that has not caught up yet (none configured, or the first run still going).
  await page.unroute('**/health');
  await page.route('**/health', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...body, lastCatchUp: null } });
  });
  await page.reload();
  await expect(panel).toContainText('No catch-up yet');
  await page.setViewportSize(sizes[0]);
  await screenshot(page, 'overview-catchup-empty');
});

test('the address is the page: links, Back and Forward, a typed address, an unknown one', async ({
  dashboard: page,
}) => {
  await page.goto('/#/');
  const nav = page.getByRole('navigation', { name: 'Pages' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  await nav.getByRole('link', { name: 'Recorder' }).click();
  await expect(page).toHaveURL(/#\/recorder$/);
  await expect(page.getByRole('heading', { name: 'Recorder', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Recorder' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle('Recorder · Studio Bridge');

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Recorder', level: 1 })).toBeVisible();

  // Typed by hand: case and a trailing slash do not matter.
  await page.goto('/#/Activity/');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');

  await page.goto('/#/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);
  await expect(page).toHaveTitle('Studio Bridge');
  await screenshot(page, 'not-found');
  await page.getByRole('link', { name: 'Back to the overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
});

test('recorder checks the name inline, suggests a fix and saves a valid name', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/recorder');
  await expect(page.getByTestId('recorder-current')).toBeVisible();

  const input = page.getByLabel('New filename');
  await input.fill('bad/name');
  await expect(page.getByTestId('recorder-rule')).toContainText('must not contain "/"');
  const suggestion = suggestRecorderFilename('bad/name');
  await expect(page.getByTestId('recorder-suggestion')).toHaveText(suggestion);
  await expect(page.getByRole('button', { name: 'Set filename' })).toBeDisabled();
  await screenshot(page, 'recorder-invalid');

  await page.getByRole('button', { name: 'Use suggestion' }).click();
  await expect(input).toHaveValue(suggestion);
  await expect(page.getByTestId('recorder-rule')).toHaveCount(0);
  await page.getByRole('button', { name: 'Set filename' }).click();
  await expect(page.getByTestId('recorder-current')).toHaveText(suggestion);

  const response = await request.get('/api/recorder/filename', {
    headers: { Authorization: `Bearer ${bridge.key}` },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ success: true, filename: suggestion });
  await screenshot(page, 'recorder');
});

test('recorder refuses device names and hidden text direction controls inline, with a suggestion', async ({
  dashboard: page,
}) => {
  await page.goto('/#/recorder');
  const input = page.getByLabel('New filename');
  await expect(page.getByText('not a device name such as CON or COM1')).toBeVisible();

  await input.fill('con.mp4');
  await expect(page.getByTestId('recorder-rule')).toContainText(
    'Filename must not be "con": a reserved device name on Windows',
  );
  await expect(page.getByTestId('recorder-suggestion')).toHaveText(suggestRecorderFilename('con.mp4'));
  await expect(page.getByRole('button', { name: 'Set filename' })).toBeDisabled();
  await screenshot(page, 'recorder-device-name');

  // U+202E (right-to-left override) shows "evil<U+202E>4pm.exe" as "evilexe.mp4": what is saved is not what is seen.
  await input.fill('evil\u202e4pm.exe');
  await expect(page.getByTestId('recorder-rule')).toContainText('text-direction controls');
  await screenshot(page, 'recorder-bidi');
  await page.getByRole('button', { name: 'Use suggestion' }).click();
  await expect(input).toHaveValue(suggestRecorderFilename('evil\u202e4pm.exe'));
  await expect(page.getByTestId('recorder-rule')).toHaveCount(0);
  await screenshot(page, 'recorder-bidi-fixed');
});

test('activity shows a test webhook live and lists the job queue', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/activity');
  await expect(page.getByTestId('live-status').first()).toHaveText(/Live/);
  // The panel first, then its loading state gone: a loading state not yet rendered counts as
  // gone, and the test webhook sent before the list loads is listed as loaded, not as new.
  await expect(page.getByTestId('activity-panel')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading activity' })).toHaveCount(0);
  await expect(page.locator('[data-testid="activity-item"][data-live="true"]')).toHaveCount(0);

  const response = await request.post('/webhooks/test', {
    headers: { 'X-Api-Key': bridge.key },
    data: { test: true, from: 'e2e' },
  });
  expect(response.ok(), await response.text()).toBe(true);

  const live = page.locator('[data-testid="activity-item"][data-live="true"]');
  await expect(live.first()).toBeVisible();
  await expect(live.first()).toContainText('new');
  await expect(page.getByTestId('jobs-table-panel').locator('tbody tr').first()).toBeVisible();
  await screenshot(page, 'activity');
});

test('activity filters: by type and level, and the job queue by status, each listing only what it names', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  for (const from of ['filters-1', 'filters-2']) {
    const sent = await request.post('/webhooks/test', {
      headers: { 'X-Api-Key': bridge.key },
      data: { test: true, from },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  await page.goto('/#/activity');
  const events = page.getByTestId('activity-panel');
  const items = events.getByTestId('activity-item');
  await expect(items.first()).toBeVisible();

  const types = async () =>
    new Set(await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-type'))));
  // The list holds other types (webhook.received, bridge.started…) until the filter applies.
  expect((await types()).size).toBeGreaterThan(1);
  await events.getByPlaceholder(/any type/).fill('webhook.test');
  await expect.poll(types).toEqual(new Set(['webhook.test']));
  expect(await items.count()).toBeGreaterThanOrEqual(2); // both test webhooks just sent
  await screenshot(page, 'activity-filter-type');

  await events.getByLabel('Level').selectOption('error');
  await expect(events.getByText('No events match these filters')).toBeVisible();
  await screenshot(page, 'activity-filter-none');
  await events.getByRole('button', { name: 'Clear filters' }).click();
  await expect(items.first()).toBeVisible();

  const queue = page.getByTestId('jobs-table-panel');
  const statuses = async () => new Set(await queue.locator('tbody tr td:nth-child(3)').allTextContents());
  await queue.getByRole('button', { name: 'done', exact: true }).click();
  await expect(queue.getByRole('button', { name: 'done', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(statuses).toEqual(new Set(['done']));
  await queue.getByRole('button', { name: 'failed', exact: true }).click();
  await expect
    .poll(
      async () =>
        (await queue.getByText('No failed jobs').count()) > 0 || [...(await statuses())].join() === 'failed',
    )
    .toBe(true);
  await screenshot(page, 'activity-jobs-failed');
});

test('settings lists the configuration with secrets masked and writes a file value', async ({
  dashboard: page,
  bridge,
}) => {
  await page.goto('/#/settings');
  for (const key of ['BRIDGE_HOST', 'BRIDGE_PORT', 'BRIDGE_SANDBOX', 'CRM_URL', 'POSTSVC_PLAN']) {
    await expect(page.getByTestId(`setting-${key}`)).toBeVisible();
  }
  const apiKeyValue = page.getByTestId('setting-BRIDGE_API_KEY').getByTestId('setting-value');
  await expect(apiKeyValue).toContainText('••••');
  await expect(page.locator('body')).not.toContainText(bridge.key);
  await expect(page.getByTestId('config-path')).toContainText(bridge.dataDir);

  const interval = page.getByTestId('setting-COLLECT_INTERVAL_HOURS');
  await interval.getByRole('button', { name: 'Edit' }).click();
  await interval.getByLabel('Collect analytics every (hours): new value').fill('12');
  await interval.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-saved')).toContainText('COLLECT_INTERVAL_HOURS');
  await expect(page.getByTestId('settings-saved')).toContainText('Restart required');
  await expect(interval.getByTestId('setting-value')).toHaveText('12');
  await expect(interval.getByTestId('setting-pending')).toHaveText('saved — takes effect after restart');
  await screenshot(page, 'settings');
});
