import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/**
 * The checks on words are soft (expect.soft): a run goes on to take every screenshot, and fails at
 * the end with all the words that were wrong.
 *
 * Issue #30.4, the forms half: the composer says what is wrong in words, at the field it is
 * about, with local time and UTC beside any time; never a field name (`scheduleDate`,
 * `mediaUrls.0`), an ISO instant or an API path. The bridge's own refusal lands at its field too.
 */

// Soft checks that fail each wait out the expect timeout: room for them all.
test.describe.configure({ timeout: 150_000 });

const screenshotDir = resolve(fileURLToPath(new URL('.', import.meta.url)), 'screenshots');
const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** The operator is an hour east of UTC: their local time and UTC differ on the screen. */
const timezoneId = 'Europe/Berlin';
test.use({ timezoneId });

/** The datetime-local value for a moment, as the operator's browser (in `timezoneId`) reads it. */
const localInput = (date: Date) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: timezoneId,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(date)
    .replace(' ', 'T');

/** What an operator must never read in a form. */
const RAW = /scheduleDate|mediaUrls|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|POST \/|GET \//;
/** "2026-11-27 10:14 UTC": how format.ts writes UTC beside a local time. */
const UTC_BESIDE = /\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/;

/** The element a field's own message is in: the one its aria-describedby names. */
async function messageOf(field: Locator): Promise<Locator> {
  // The message may still be on its way (a refusal comes back from the bridge after the click):
  // wait for the field to name it rather than reading the attribute once (that raced, and failed
  // about one run in five with nothing named yet).
  await expect
    .soft(field, 'the field names its message (aria-describedby)')
    .toHaveAttribute('aria-describedby', /\S/);
  const ids = (await field.getAttribute('aria-describedby')) ?? '';
  const selector = ids
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => `#${id}`)
    .join(', ');
  return field.page().locator(selector || '#no-message-for-this-field');
}

/** The composer panel at both widths, named words-<name>-<width>.png. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const size of widths) {
    await page.setViewportSize(size);
    const composer = page.getByTestId('post-composer');
    await composer.scrollIntoViewIfNeeded();
    await composer.screenshot({
      path: resolve(screenshotDir, `words-${name}-${size.width}.png`),
      animations: 'disabled',
    });
  }
  await page.setViewportSize(widths[0]);
}

async function openComposer(page: Page, text: string): Promise<void> {
  await page.goto('/#/posts');
  await expect(page.getByTestId('post-composer')).toBeVisible();
  await page.getByLabel('Post', { exact: true }).fill(text);
}

test('a time 2 minutes ahead and a past time are said in words under the time field, local with UTC', async ({
  dashboard: page,
}) => {
  await openComposer(page, `Words soon ${randomUUID().slice(0, 8)}`);
  const when = page.getByLabel(/^Publish at/);

  await when.fill(localInput(new Date(Date.now() + 3 * 60_000)));
  await expect(page.getByTestId('post-composer')).toContainText(/from now|ahead/);
  await shoot(page, 'soon');
  const soon = await messageOf(when);
  await expect.soft(soon).toContainText(/The time is only [1-3] minutes? from now/);
  await expect.soft(soon).toContainText(UTC_BESIDE);
  const composer = page.getByTestId('post-composer');
  await expect.soft(composer).not.toContainText(RAW);

  await when.fill(localInput(new Date(Date.now() - 26 * 3_600_000)));
  await expect(composer).toContainText(/passed|past/);
  await shoot(page, 'past');
  const past = await messageOf(when);
  await expect.soft(past).toContainText('That time has passed');
  await expect.soft(past).toContainText(UTC_BESIDE);
  await expect.soft(composer).not.toContainText(RAW);
  await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();
});

test("the bridge's refusal of a passed time is shown at the time field, in words", async ({
  dashboard: page,
}) => {
  // This browser's clock is an hour slow: it thinks 30 minutes ahead is ahead, the bridge knows better.
  await page.clock.install({ time: new Date(Date.now() - 60 * 60_000) });
  await openComposer(page, `Words slow clock ${randomUUID().slice(0, 8)}`);
  const when = page.getByLabel(/^Publish at/);
  await when.fill(localInput(new Date(Date.now() - 30 * 60_000)));
  await page.getByRole('button', { name: 'Schedule post' }).click();
  await expect(page.getByTestId('post-composer')).toContainText(/passed|past/);
  await shoot(page, 'refused-time');

  const refused = await messageOf(when);
  await expect.soft(refused).toContainText('That time has passed');
  await expect.soft(refused).toContainText(UTC_BESIDE);
  await expect.soft(page.getByTestId('post-composer')).not.toContainText(RAW);
});

test("the Edit dialog shows the bridge's refusal of a passed time at its time field, in words", async ({
  dashboard: page,
  bridge,
  request,
}) => {
  const headers = { authorization: `Bearer ${bridge.key}` };
  const text = `Words edit ${randomUUID().slice(0, 8)}`;
  const scheduled = await request.post(`${bridge.url}/postsvc/schedule`, {
    headers,
    data: {
      post: text,
      platforms: ['microblog'],
      scheduleDate: new Date(Date.now() + 30 * 3_600_000).toISOString(),
    },
  });
  const { id } = (await scheduled.json()) as { id: string };
  expect((await request.post(`${bridge.url}/api/posts/cancel`, { headers, data: { id } })).ok()).toBe(true);

  // The browser's clock an hour slow again: the dialog lets the time through, the bridge refuses it.
  await page.clock.install({ time: new Date(Date.now() - 60 * 60_000) });
  await page.goto('/#/posts');
  const row = page.getByTestId('post-list').locator('tr', { hasText: text });
  await row.getByRole('button', { name: 'Edit…' }).click();
  const dialog = page.getByTestId('reschedule-dialog');
  const when = dialog.getByLabel(/^Publish at/);
  await when.fill(localInput(new Date(Date.now() - 30 * 60_000)));
  await dialog.getByRole('button', { name: /^Reschedule/ }).click();

  const refused = await messageOf(when);
  await expect.soft(refused).toContainText('That time has passed');
  await expect.soft(refused).toContainText(UTC_BESIDE);
  await expect.soft(dialog.getByRole('alert')).toContainText('see the time above');
  await expect.soft(dialog).not.toContainText(RAW);
});

test('a media link the bridge refuses is named at that link, never beside "found"', async ({
  dashboard: page,
  bridge,
  request,
}) => {
  const text = `Words media ${randomUUID().slice(0, 8)}`;
  await openComposer(page, text);
  await page.getByRole('button', { name: 'Microblog', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Photogram', exact: true }).click();
  const media = page.getByLabel('Media URLs');
  const link = 'ftp://cdn.example.com/booth.png';

  // The bridge's own verdict on the same draft: it refuses that link (the rule the field must agree with).
  const preview = await request.post(`${bridge.url}/api/posts/preview`, {
    headers: { authorization: `Bearer ${bridge.key}` },
    data: { post: text, platforms: ['photogram'], mediaUrls: [link] },
  });
  const { errors } = (await preview.json()) as { errors: Array<{ field: string }> };
  expect(errors.map((e) => e.field)).toContain('mediaUrls.0');

  await media.fill(link);
  await expect(page.getByTestId('media-check-photogram')).toBeVisible();
  await shoot(page, 'media-refused');
  const atLink = page.getByTestId('media-link-1');
  await expect.soft(atLink).toContainText(link);
  await expect.soft(atLink).toContainText('not a web address');
  const messages = await messageOf(media);
  await expect.soft(messages.getByTestId('media-link-1')).toBeVisible();
  await expect.soft(page.getByTestId('media-check-photogram')).not.toContainText(/found|✓/);
  await expect.soft(page.getByTestId('post-composer')).not.toContainText(RAW);
  await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();

  // Fixed, the field and the bridge agree again.
  await media.fill('https://cdn.example.com/booth.png');
  await expect.soft(page.getByTestId('media-check-photogram')).toContainText('found');
  await expect.soft(page.getByTestId('media-link-1')).toHaveCount(0);
});

test('the Analytics content empty state says what fills it, with no API path', async ({
  dashboard: page,
}) => {
  await page.goto('/#/analytics?range=custom&from=2020-01-01&to=2020-01-31');
  const panel = page.getByTestId('content-panel');
  await expect(panel.getByText('No content metrics in this range')).toBeVisible();
  for (const size of widths) {
    await page.setViewportSize(size);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({
      path: resolve(screenshotDir, `words-analytics-empty-${size.width}.png`),
      animations: 'disabled',
    });
  }
  await expect.soft(panel).not.toContainText(/\/analytics\/|POST |content-ingest/);
  await expect.soft(panel).toContainText(/episode/i);
});
