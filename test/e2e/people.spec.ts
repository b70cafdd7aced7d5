import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test, type BridgeUnderTest, sandboxControlHeaders } from './fixtures.js';

/**
 * Words for people (issue #14 points 8 and 11, leftovers): activity names posts instead of
 * provider ids, instants in the operator's time zone with UTC beside them, error states in
 * words with the code in small print, and a partly failed post can be cancelled for what is
 * still scheduled. The browser runs in New York time so that local and UTC differ.
 */

test.use({ timezoneId: 'America/New_York', locale: 'en-US' });

const auth = (bridge: BridgeUnderTest) => ({ authorization: `Bearer ${bridge.key}` });

async function postsvcUrl(request: APIRequestContext, bridge: BridgeUnderTest): Promise<string> {
  const health = await request.get(`${bridge.url}/health`, { headers: auth(bridge) });
  return ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
}

/** What the operator in New York should read for an instant: hour and minute, and the UTC line. */
function expectedTimes(iso: string): { localHourMinute: string; localDay: string; utc: string } {
  const date = new Date(iso);
  const ny = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', ...options }).format(date);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    localHourMinute: ny({ hour: '2-digit', minute: '2-digit' }),
    localDay: ny({ day: 'numeric', month: 'short' }),
    utc: `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`,
  };
}

/** Three days ahead at 15:00 UTC: 10:00 or 11:00 in New York, never the same hour as UTC. */
function at1500Utc(): string {
  const date = new Date(Date.now() + 3 * 86_400_000);
  date.setUTCHours(15, 0, 0, 0);
  return date.toISOString();
}

interface ActivityRow {
  id: number;
  at: string;
  type: string;
  level: string;
  message: string;
  data: Record<string, unknown> | null;
}
async function activity(request: APIRequestContext, bridge: BridgeUnderTest, type: string) {
  const response = await request.get(`${bridge.url}/api/activity?type=${type}&limit=50`, {
    headers: auth(bridge),
  });
  return ((await response.json()) as { data: ActivityRow[] }).data;
}

test('a scheduled post: its time in local and UTC, and Activity names it by its text, not the provider id', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const text = `Harbour session teaser ${Date.now().toString(36)}`;
  const when = at1500Utc();
  const sent = await request.post(`${bridge.url}/postsvc/schedule`, {
    headers: auth(bridge),
    data: { post: text, platforms: ['microblog'], scheduleDate: when },
  });
  expect(sent.status()).toBe(200);
  const { id: postsvcId } = (await sent.json()) as { id: string };
  expect(postsvcId).toBeTruthy();
  const times = expectedTimes(when);

  await page.goto('/#/posts');
  const row = page.getByTestId('post-list').locator('tr', { hasText: text });
  await expect(row.getByTestId('time-local')).toContainText(times.localHourMinute);
  await expect(row.getByTestId('time-local')).toContainText(times.localDay);
  await expect(row.getByTestId('time-utc')).toHaveText(times.utc);

  await page.goto('/#/activity');
  const events = page.getByTestId('activity-panel');
  const scheduled = events.locator('[data-type="posting.scheduled"]', { hasText: text.slice(0, 30) });
  await expect(scheduled).toHaveCount(1);
  const message = scheduled.locator('.activity-message');
  await expect(message).toContainText(`Post “${text}” scheduled for`);
  await expect(message).toContainText(times.localHourMinute);
  await expect(message).toContainText(times.utc);
  await expect(message).not.toContainText(postsvcId);
  // The id stays for integrators, out of the main text.
  await scheduled.getByText('Details').click();
  await expect(scheduled.locator('.activity-data')).toContainText(postsvcId);
  await screenshot(page, 'people-activity-named');

  // No visible text on the Activity page carries the provider's id.
  await scheduled.getByText('Details').click();
  const visible = await events.evaluate((panel) => (panel as HTMLElement).innerText);
  expect(visible).not.toContain(postsvcId);
});

test('broadcast start and a failure in Activity show local time with UTC beside it', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const list = await request.get(`${bridge.url}/api/broadcasts`, { headers: auth(bridge) });
  const records = ((await list.json()) as { data: { name: string; scheduledAt: string | null }[] }).data;
  const record = records.find((r) => r.scheduledAt !== null);
  expect(record, 'the sandbox has a broadcast with a start time').toBeTruthy();
  const start = expectedTimes(record!.scheduledAt!);
  await page.goto('/#/broadcasts');
  const row = page.locator(`[data-testid="broadcast-row"][data-name="${record!.name}"]`).first();
  await expect(row.getByTestId('time-local')).toContainText(start.localHourMinute);
  await expect(row.getByTestId('time-utc')).toHaveText(start.utc);

  // A failure: the provider refuses the platform.
  const provider = await postsvcUrl(request, bridge);
  const headers = await sandboxControlHeaders(request, bridge);
  await request.post(`${provider}/__sandbox/fail-platform`, {
    headers,
    data: { platform: 'professional', message: 'Company page not found.' },
  });
  const text = `Pinned failure ${Date.now().toString(36)}`;
  try {
    const sent = await request.post(`${bridge.url}/postsvc/schedule`, {
      headers: auth(bridge),
      data: { post: text, platforms: ['professional'], scheduleDate: at1500Utc() },
    });
    expect(sent.ok()).toBe(false);
  } finally {
    await request.post(`${provider}/__sandbox/fail-platform`, {
      headers,
      data: { platform: 'professional', message: null },
    });
  }
  const failure = (await activity(request, bridge, 'posting.failed')).find(
    (event) => event.level === 'error' && event.message.includes('professional'),
  );
  expect(failure).toBeTruthy();
  const failedAt = expectedTimes(failure!.at);
  await page.goto('/#/activity');
  const item = page
    .getByTestId('activity-panel')
    .locator(`[data-type="posting.failed"]`, { hasText: 'Company page not found' })
    .first();
  await expect(item.getByTestId('time-utc')).toHaveText(failedAt.utc.slice(11));
  const localClock = await item.getByTestId('time-local').textContent();
  expect(localClock).toContain(failedAt.localHourMinute.replace(/ [AP]M$/, ''));
  await screenshot(page, 'people-activity-failure-utc');
});

test('error states say what went wrong and what to do; the code is small print, never zod text', async ({
  dashboard: page,
}) => {
  await page.route('**/analytics/social-metrics**', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        error: 'analytics: reading social metrics failed',
        code: 'DB_ERROR',
      }),
    }),
  );
  await page.goto('/#/analytics?range=90d');
  const error = page.getByTestId('social-panel').getByRole('alert');
  await expect(error.locator('.error-message')).toHaveText(
    'The bridge could not read or write its own database. Try again; if it keeps failing, restart the bridge and look at its log.',
    { timeout: 20_000 },
  );
  await expect(error.getByTestId('error-details')).toContainText('DB_ERROR');
  await expect(error.locator('.error-message')).not.toContainText('DB_ERROR');
  await screenshot(page, 'people-analytics-error');

  // An answer that breaks the contract: the operator gets a sentence, not zod's issues.
  await page.unroute('**/analytics/social-metrics**');
  await page.route('**/analytics/social-metrics**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        success: true,
        data: [{ date: '2026-01-01', platform: 'microblog', likes: 'many' }],
      }),
    }),
  );
  await page.goto('/#/analytics?range=30d');
  const broken = page.getByTestId('social-panel').getByRole('alert');
  await expect(broken).toContainText('they may be different versions. Reload the page.', { timeout: 20_000 });
  await expect(page.locator('body')).not.toContainText(/Invalid input|expected \w+, received/);
});

test('a partly failed post: "Cancel the rest" calls back the scheduled platform, never the failed one', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const provider = await postsvcUrl(request, bridge);
  const headers = await sandboxControlHeaders(request, bridge);
  const text = `Half out ${Date.now().toString(36)}`;
  await request.post(`${provider}/__sandbox/fail-platform`, {
    headers,
    data: { platform: 'socialnet', message: 'Page token expired. Reconnect the page.' },
  });
  try {
    const sent = await request.post(`${bridge.url}/postsvc/schedule`, {
      headers: auth(bridge),
      data: { post: text, platforms: ['microblog', 'socialnet'], scheduleDate: at1500Utc() },
    });
    expect(sent.ok()).toBe(false);
  } finally {
    await request.post(`${provider}/__sandbox/fail-platform`, {
      headers,
      data: { platform: 'socialnet', message: null },
    });
  }

  await page.goto('/#/posts');
  const row = page.getByTestId('post-list').locator('tr', { hasText: text });
  await expect(row).toContainText('Partly failed');
  await row.getByRole('button', { name: 'Cancel the rest' }).click();
  await screenshot(page, 'people-partial-cancel-confirm');
  await row.getByRole('button', { name: 'Cancel on Microblog' }).click();
  await expect(row).toContainText('Cancelled');
  await expect(row.getByRole('button', { name: /Cancel/ })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Edit…' })).toBeVisible();
  await screenshot(page, 'people-partial-cancelled');

  const listed = await request.get(`${bridge.url}/api/posts`, { headers: auth(bridge) });
  const post = (
    (await listed.json()) as { data: { post: string; status: string; postsvcId: string }[] }
  ).data.find((p) => p.post === text);
  expect(post?.status).toBe('cancelled');
  // The provider's post is gone (deleted through the bridge's cancel), and Activity says which post.
  const history = await request.get(`${bridge.url}/postsvc/history?limit=200`, { headers: auth(bridge) });
  const atProvider = ((await history.json()) as { data: { id: string; status: string }[] }).data.find(
    (item) => item.id === post!.postsvcId,
  );
  expect(atProvider?.status).toBe('deleted');
  const cancelled = (await activity(request, bridge, 'posting.cancelled')).find(
    (event) => event.data?.postsvcId === post!.postsvcId,
  );
  expect(cancelled).toBeTruthy();
  await page.goto('/#/activity');
  await expect(
    page.getByTestId('activity-panel').locator('[data-type="posting.cancelled"]', { hasText: text }),
  ).toHaveCount(1);
});
