import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/**
 * Issue #30.6, the small ones: "Notify me" on and off told apart in words, the Activity type
 * filter as a prefix and every Activity filter in the URL, the "All N" count readable on its
 * chip, and a saved setting showing its new value. Each test takes its screenshots at 1280×800
 * and 390×844 (test/e2e/screenshots/small-*.png; copies in docs/screens/after).
 */

const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * What the viewport shows (these states are at the top of a page or scrolled to), or only the top
 * `headerHeight` pixels for the header's toggle, to test/e2e/screenshots/<name>.png.
 */
async function shot(page: Page, name: string, headerHeight?: number): Promise<void> {
  const size = page.viewportSize() ?? widths[0];
  await page.screenshot({
    path: fileURLToPath(new URL(`./screenshots/${name}.png`, import.meta.url)),
    animations: 'disabled',
    ...(headerHeight ? { clip: { x: 0, y: 0, width: size.width, height: headerHeight } } : {}),
  });
}

// The toggle asks the browser for permission: grant it, as an operator clicking "Allow" would.
test.use({ permissions: ['notifications'] });

test('"Notify me" says whether notifications are on or off, in words and pressed state, from the keyboard too', async ({
  dashboard: page,
}) => {
  await page.goto('/#/');
  // Found by what it is called before and after the change, so the test runs on both.
  const toggle = page
    .getByRole('banner')
    .getByRole('button', { name: /^(Notify me|Notifications (on|off))$/ });
  await expect(toggle).toBeVisible();
  // Start from "off" whatever an earlier test chose (the choice is kept in localStorage).
  if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  for (const size of widths) {
    await page.setViewportSize(size);
    await shot(page, `small-notify-off-${size.width}`, 120);
  }

  // Keyboard: focus it and press Space, as a keyboard user would.
  await page.setViewportSize(widths[0]);
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  for (const size of widths) {
    await page.setViewportSize(size);
    await shot(page, `small-notify-on-${size.width}`, 120);
  }

  for (const size of widths) {
    await page.setViewportSize(size);
    await expect(toggle).toHaveAccessibleName('Notifications on');
    await expect(toggle).toHaveAttribute('data-state', 'on');
    // The words stay visible at 390 (short there), not the icon alone.
    await expect(toggle.getByText(/^(Notifications )?on$/i)).toBeVisible();
  }
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  for (const size of widths) {
    await page.setViewportSize(size);
    await expect(toggle).toHaveAccessibleName('Notifications off');
    await expect(toggle).toHaveAttribute('data-state', 'off');
    await expect(toggle.getByText(/^(Notifications )?off$/i)).toBeVisible();
  }
});

test('the Activity type filter is a prefix ("webhook" lists webhook.*), and every filter is kept in the URL', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const sent = await request.post('/webhooks/test', {
    headers: { 'X-Api-Key': bridge.key },
    data: { test: true, from: 'small-ones prefix' },
  });
  expect(sent.ok(), await sent.text()).toBe(true);

  await page.setViewportSize(widths[0]);
  await page.goto('/#/activity');
  const events = page.getByTestId('activity-panel');
  const items = events.getByTestId('activity-item');
  await expect(items.first()).toBeVisible();
  const types = async () =>
    new Set(await items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-type'))));

  // The list asked for with both filters (old and new parameter name: the screenshots were taken on both).
  const filteredList = page.waitForResponse(
    (response) =>
      /\/api\/activity\?.*type(Prefix)?=webhook/.test(response.url()) &&
      response.url().includes('level=info'),
  );
  await events.getByPlaceholder(/any type/).fill('webhook');
  await events.getByLabel('Level').selectOption('info');
  await filteredList;
  await expect(page.getByRole('status', { name: 'Loading activity' })).toHaveCount(0);
  for (const size of widths) {
    await page.setViewportSize(size);
    await events.scrollIntoViewIfNeeded();
    await shot(page, `small-activity-prefix-${size.width}`);
  }
  await page.setViewportSize(widths[0]);
  await expect
    .poll(async () => [...(await types())].every((type) => type?.startsWith('webhook.')))
    .toBe(true);
  await expect.poll(async () => (await types()).has('webhook.test')).toBe(true);

  const queue = page.getByTestId('jobs-table-panel');
  await queue.getByRole('button', { name: 'done', exact: true }).click();

  // Every filter is in the address: a reload (or a shared link) shows the same view.
  await expect.poll(() => new URL(page.url()).hash).toContain('type=webhook');
  const hash = new URL(page.url()).hash;
  expect(hash).toContain('level=info');
  expect(hash).toContain('jobs=done');
  await page.reload();
  await expect(events.getByPlaceholder(/any type/)).toHaveValue('webhook');
  await expect(events.getByLabel('Level')).toHaveValue('info');
  await expect(queue.getByRole('button', { name: 'done', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(async () => (await types()).has('webhook.test')).toBe(true);

  // Back undoes the last filter change, as it does on Analytics.
  await queue.getByRole('button', { name: 'failed', exact: true }).click();
  await expect.poll(() => new URL(page.url()).hash).toContain('jobs=failed');
  await page.goBack();
  await expect(queue.getByRole('button', { name: 'done', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await events.getByRole('button', { name: 'Clear filters' }).click();
  await expect(events.getByPlaceholder(/any type/)).toHaveValue('');
  await expect.poll(() => new URL(page.url()).hash).not.toContain('type=');
});

/** WCAG contrast ratio of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The count's text colour and the first opaque background behind it. */
async function countColours(count: Locator): Promise<{ color: string; background: string }> {
  return count.evaluate((node) => {
    const color = getComputedStyle(node).color;
    for (let at: Element | null = node; at; at = at.parentElement) {
      const background = getComputedStyle(at).backgroundColor;
      if (background !== 'rgba(0, 0, 0, 0)' && background !== 'transparent') return { color, background };
    }
    return { color, background: 'rgb(255, 255, 255)' };
  });
}

async function chipCountContrast(page: Page, label: string): Promise<number> {
  const chip = page
    .getByRole('group', { name: 'Filter by status' })
    .getByRole('button', { name: new RegExp(`^${label}`) });
  const { color, background } = await countColours(chip.locator('span').first());
  return contrast(color, background);
}

test('the "All N" count on the Posts filter chips is readable selected and not (contrast ≥ 4.5:1)', async ({
  dashboard: page,
}) => {
  await page.setViewportSize(widths[0]);
  await page.goto('/#/posts');
  const all = page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: /^All/ });
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  for (const size of widths) {
    await page.setViewportSize(size);
    await all.evaluate((chip) => chip.scrollIntoView({ block: 'center' }));
    await shot(page, `small-all-count-${size.width}`);
  }
  await page.setViewportSize(widths[0]);
  expect(await chipCountContrast(page, 'All')).toBeGreaterThanOrEqual(4.5);
  expect(await chipCountContrast(page, 'Failed')).toBeGreaterThanOrEqual(4.5);
  await page
    .getByRole('group', { name: 'Filter by status' })
    .getByRole('button', { name: /^Failed/ })
    .click();
  expect(await chipCountContrast(page, 'Failed')).toBeGreaterThanOrEqual(4.5);
  expect(await chipCountContrast(page, 'All')).toBeGreaterThanOrEqual(4.5);
});

test('a saved setting that waits for a restart shows its new value (a secret masked) and the value running', async ({
  dashboard: page,
}) => {
  await page.setViewportSize(widths[0]);
  await page.goto('/#/settings');

  async function save(key: string, value: string) {
    const row = page.getByTestId(`setting-${key}`);
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel(/: new value$/).fill(value);
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row.getByRole('button', { name: 'Edit' })).toBeVisible();
    return row;
  }

  const grace = await save('LATE_POST_GRACE_MINUTES', '45');
  const secretValue = 'small-ones-obs-password-9876';
  const password = await save('RECORDER_OBS_PASSWORD', secretValue);
  for (const size of widths) {
    await page.setViewportSize(size);
    await grace.evaluate((row) => row.scrollIntoView({ block: 'center' }));
    await shot(page, `small-setting-saved-${size.width}`);
  }
  await page.setViewportSize(widths[0]);

  await expect(grace.getByTestId('setting-value')).toHaveText('45');
  await expect(grace.getByTestId('setting-pending')).toContainText('saved — takes effect after restart');
  await expect(grace.getByTestId('setting-running')).toHaveText('running: default');
  await expect(password.getByTestId('setting-value')).toHaveText(/••••/);
  await expect(password.getByTestId('setting-pending')).toContainText('saved — takes effect after restart');
  await expect(page.locator('body')).not.toContainText(secretValue);

  // The bridge says so, not just this visit: a reload still shows the saved values.
  await page.reload();
  await expect(grace.getByTestId('setting-value')).toHaveText('45');
  await expect(grace.getByTestId('setting-pending')).toBeVisible();

  // Saving the running value back leaves nothing waiting for a restart (and the shared bridge's file as it was).
  await save('LATE_POST_GRACE_MINUTES', '');
  await save('RECORDER_OBS_PASSWORD', '');
  await expect(grace.getByTestId('setting-pending')).toHaveCount(0);
  await expect(password.getByTestId('setting-pending')).toHaveCount(0);
});
