import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { expect, rehearse, screenshot, shootAround, test, throttleProvider } from './fixtures.js';

/**
 * Words, not codes (issue #40.4): what an operator sees is said in words; the bridge's own
 * message (its call and path), the HTTP status, the error code and the provider's ids sit behind
 * a "Details" disclosure, for whoever reads logs.
 */

/** The text a person sees (a closed disclosure's content is not rendered). */
async function seen(locator: Locator): Promise<string> {
  return locator.innerText();
}

const codes = /HTTP \d{3}|CRM_ERROR|GET \/|crm GET|The bridge said/;

test('a failing CRM: the Guests page says it in words; the call, status and code are behind Details', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  // The bridge tries the CRM three times and the page asks three times before it shows an error.
  test.setTimeout(90_000);
  await rehearse(request, bridge, 'crm', 'fail');
  try {
    await page.goto('/#/guests');
    const failed = page.getByRole('alert').filter({ hasText: /Couldn.t load the guests/ });
    await expect(failed).toContainText('The CRM is failing', { timeout: 45_000 });
    expect(await seen(failed)).not.toMatch(codes);
    await shootAround(page, 'words-crm-failing-guests', failed);

    await failed.getByText('Details', { exact: true }).click();
    const details = failed.getByTestId('error-details');
    await expect(details).toBeVisible();
    await expect(details).toContainText('crm GET /');
    await expect(details).toContainText('CRM_ERROR');
    await screenshot(page, 'words-crm-failing-guests-details');
  } finally {
    await rehearse(request, bridge, 'crm', 'none');
  }
});

test('a scheduled post: the success banner says when and where, the provider id is behind Details', async ({
  dashboard: page,
}) => {
  await page.goto('/#/posts');
  await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
  await page.getByLabel('Post', { exact: true }).fill(`Words not codes ${Date.now().toString(36)}`);
  const tomorrow = new Date(Date.now() + 26 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel(/^Publish at/)
    .fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T10:30`);
  await page.getByRole('button', { name: 'Schedule post' }).click();
  const banner = page.getByTestId('schedule-success');
  await expect(banner).toContainText('Scheduled');
  expect(await seen(banner)).not.toContain('Provider id');
  await shootAround(page, 'words-post-scheduled', banner);

  await banner.getByText('Details', { exact: true }).click();
  await expect(banner.getByTestId('success-details')).toContainText('Provider id');
});

test("a publish the gateway refused: its reason in words, the gateway's code and status behind Details", async ({
  dashboard: page,
}) => {
  await page.goto('/#/broadcasts');
  const failed = page
    .locator('[data-testid="publish-row"][data-platform="Altvideo"]')
    .filter({ hasText: 'Failed' })
    .first();
  const reason = failed.getByTestId('publish-api-response');
  await expect(reason).toContainText('Altvideo rejected the upload: the account token has expired');
  expect(await seen(reason)).not.toMatch(/AUTH_ERROR|\(401\)/);
  await shootAround(page, 'words-publish-failed', reason);

  await reason.getByText('Details', { exact: true }).click();
  await expect(reason).toContainText('AUTH_ERROR');
});

test('a time the bridge refused as passed: the error goes as soon as the time is fixed', async ({
  dashboard: page,
}) => {
  // This browser's clock is an hour slow: it lets a passed time through, the bridge refuses it.
  await page.clock.install({ time: new Date(Date.now() - 60 * 60_000) });
  await page.goto('/#/posts');
  await page.getByLabel('Post', { exact: true }).fill(`Words stale ${Date.now().toString(36)}`);
  const when = page.getByLabel(/^Publish at/);
  const pad = (n: number) => String(n).padStart(2, '0');
  const input = (d: Date) =>
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  await when.fill(input(new Date(Date.now() - 30 * 60_000)));
  await page.getByRole('button', { name: 'Schedule post' }).click();
  const composer = page.getByTestId('post-composer');
  await expect(composer).toContainText('That time has passed');

  await when.fill(input(new Date(Date.now() + 26 * 3600_000)));
  await expect(composer).not.toContainText('That time has passed');
});

test('a collection held back by a throttling provider says what it waits on (issue #40.2)', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  // Once, for longer than a request retries by itself: the run waits it out.
  await throttleProvider(request, bridge, {
    method: 'POST',
    pathPrefix: '/analytics/social',
    retryAfterS: 12,
    times: 1,
  });
  await page.goto('/#/analytics');
  await page.getByTestId('collect-now').click();
  const waiting = page.getByTestId('collection-progress');
  await expect(waiting).toContainText(
    /Waiting for the posting provider: it is limiting how often the bridge may ask, until \d{1,2}:\d{2}/,
  );
  await shootAround(page, 'words-collection-waiting', page.getByTestId('collection-panel'));
  await expect(page.getByTestId('last-run')).toContainText(/Succeeded|Partly failed/, { timeout: 30_000 });
});

test('the CRM back: the Guests page loads again by itself, no old error left red (issue #40.2)', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(120_000);
  await rehearse(request, bridge, 'crm', 'fail');
  try {
    await page.goto('/#/guests');
    const failed = page.getByRole('alert').filter({ hasText: /Couldn.t load the guests/ });
    await expect(failed).toContainText('The CRM is failing', { timeout: 45_000 });
  } finally {
    await rehearse(request, bridge, 'crm', 'none');
  }
  // No Retry clicked: /health says the CRM is reachable again, and the page asks once more.
  await expect(page.getByRole('alert').filter({ hasText: /Couldn.t load/ })).toHaveCount(0, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('guests-board').or(page.getByText('Guests by stage')).first()).toBeVisible();
  await shootAround(page, 'words-crm-back-guests', page.getByRole('heading', { name: 'Guests', level: 1 }));
});

test("a clip's emotion is said as a tone, never as its AFINN score (issue #40.4)", async ({
  dashboard: page,
}) => {
  await page.goto('/#/clips');
  const picker = page.getByLabel('Content record', { exact: true });
  await expect(picker.locator('option').nth(1)).toBeAttached();
  await picker.selectOption({ index: 1 });
  await page
    .getByLabel('Transcript', { exact: true })
    .fill(readFileSync(new URL('../fixtures/transcripts/interview.txt', import.meta.url), 'utf8'));
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  const cards = page.getByTestId('clips-suggestions').getByTestId('clip-card');
  await expect(cards.first()).toBeVisible();
  for (const card of await cards.all()) await card.getByText('What scored').click();
  const suggestions = page.getByTestId('clips-suggestions');
  await expect(suggestions).toContainText(/(negative|positive|neutral) tone/);
  expect(await seen(suggestions)).not.toContain('AFINN');
  await shootAround(page, 'words-clip-tone', suggestions.locator('.cl-signals').first());
});

test('the clips page: a content list that could not be refreshed says so in words (issue #40.4)', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  // The bridge tries the CRM three times and the page asks three times before it shows an error.
  test.setTimeout(90_000);
  await page.clock.install();
  await page.goto('/#/clips');
  const picker = page.getByLabel('Content record', { exact: true });
  await expect(picker.locator('option').nth(1)).toBeAttached();
  await rehearse(request, bridge, 'crm', 'fail');
  try {
    // The list is old enough to be asked again when the window comes back to the front.
    await page.clock.fastForward(10_000);
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    const line = page.getByTestId('content-refresh-error');
    await expect(line).toContainText('The list could not be refreshed. The CRM is failing', {
      timeout: 45_000,
    });
    expect(await seen(line)).not.toMatch(codes);
    await expect(picker.locator('option').nth(1)).toBeAttached();
    await shootAround(page, 'words-clips-refresh-failed', line);
  } finally {
    await rehearse(request, bridge, 'crm', 'none');
  }
});
