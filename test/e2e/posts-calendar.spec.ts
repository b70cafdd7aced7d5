import type { Locator, Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.js';
import { localAt, providerPosts, schedulePost } from './scheduled-posts.js';

/**
 * Issue #31: the Posts calendar. A scheduled post is dragged (mouse, keyboard) to a new day or
 * 15-minute step; the move is asked once and goes through the bridge. These run on the premium
 * plan (fixtures.ts), where a time-only move is made in place (issue #36.3: PATCH at the
 * provider): the provider ends with the same post, scheduled at the new time, and nothing new.
 * A drop onto a day that has passed is refused in words.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Press, move in steps (the mouse sensor starts after 6 px), release over `target`. */
async function mouseDrag(page: Page, chip: Locator, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  await chip.scrollIntoViewIfNeeded();
  const from = (await chip.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height - 12, { steps: 12 });
  await page.mouse.up();
}

const chipOf = (page: Page, text: string) =>
  page.getByTestId('post-calendar').locator('.cal-chip', { hasText: text });

test('calendar: a post dragged with the mouse to another day is moved in place at the provider', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const text = `Cal mouse ${Date.now().toString(36)}`;
  const from = localAt(1, 0, 5);
  const oldId = await schedulePost(request, bridge, text, from);
  await page.goto('/#/posts');
  const chip = chipOf(page, text);
  await expect(chip).toHaveCount(1);
  await expect(chip).toHaveAttribute('data-state', 'scheduled');
  await expect(chip).toHaveAttribute('title', /UTC/);
  await expect(page.getByTestId('calendar-month').locator('.cal-day-today')).toContainText('Today');
  await screenshot(page, 'posts-calendar-month');

  const to = localAt(2, 0, 5);
  await mouseDrag(page, chip, page.getByTestId(`cal-day-${dayKey(to)}`));
  const dialog = page.getByTestId('calendar-move-dialog');
  await expect(dialog).toContainText('moves it in place at the provider');
  await expect(dialog).toContainText('uses none of today');
  await screenshot(page, 'posts-calendar-move-dialog');
  await page.getByRole('button', { name: 'Move it' }).click();
  await expect(page.getByTestId('calendar-notice')).toContainText('Moved to');

  const atProvider = await providerPosts(request, bridge, text);
  expect(atProvider.map((p) => [p.id === oldId ? 'same' : 'new', p.status, p.scheduleDate])).toEqual([
    ['same', 'scheduled', to.toISOString()],
  ]);
  await expect(page.getByTestId(`cal-day-${dayKey(to)}`).locator('.cal-chip', { hasText: text })).toHaveCount(
    1,
  );
});

test('calendar: a post moved with the keyboard in the week view goes 30 minutes later, in place', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const text = `Cal keys ${Date.now().toString(36)}`;
  const from = localAt(1, 0, 15);
  const oldId = await schedulePost(request, bridge, text, from);
  await page.goto('/#/posts');
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  // The week starts on Monday: tomorrow may be next week.
  if (from.getDay() === 1) await page.getByRole('button', { name: 'Next →' }).click();
  const chip = chipOf(page, text);
  await expect(chip).toHaveCount(1);
  await screenshot(page, 'posts-calendar-week');

  await chip.focus();
  await page.keyboard.press('Enter');
  // Picked up (dnd-kit listens for the arrows from the next task on): the chip's place is dimmed.
  await expect(chip.first()).toHaveClass(/cal-chip-dragging/);
  const slot = (minutes: number) => page.getByTestId(`cal-slot-${dayKey(from)}-${minutes}`);
  await page.keyboard.press('ArrowDown');
  await expect(slot(30)).toHaveClass(/cal-quarter-over/);
  await page.keyboard.press('ArrowDown');
  await expect(slot(45)).toHaveClass(/cal-quarter-over/);
  await expect(slot(45)).toHaveText(/0?12:45|0?0:45/);
  await page.keyboard.press('Enter');
  const to = localAt(1, 0, 45);
  await expect(page.getByTestId('calendar-move-dialog')).toContainText('New time');
  await page.getByRole('button', { name: 'Move it' }).click();
  await expect(page.getByTestId('calendar-notice')).toContainText('Moved to');

  const atProvider = await providerPosts(request, bridge, text);
  expect(atProvider.map((p) => [p.id === oldId ? 'same' : 'new', p.status, p.scheduleDate])).toEqual([
    ['same', 'scheduled', to.toISOString()],
  ]);
});

test('calendar: a drop onto a day that has passed is refused in words; nothing changes at the provider', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const yesterday = dayKey(localAt(-1, 12, 0));
  const text = `Cal past ${Date.now().toString(36)}`;
  await schedulePost(request, bridge, text, localAt(1, 0, 25));
  await page.goto('/#/posts');
  await expect(chipOf(page, text)).toHaveCount(1);
  const target = page.getByTestId(`cal-day-${yesterday}`);
  // The month grid starts on the Monday on or before the 1st: only then is yesterday not in it.
  test.skip((await target.count()) === 0, 'yesterday is not in this month grid');
  await mouseDrag(page, chipOf(page, text), target);
  await expect(page.getByTestId('calendar-notice')).toHaveText(
    'Not moved: That day has passed: a post moves only to a time ahead.',
  );
  await expect(page.getByTestId('calendar-move-dialog')).toHaveCount(0);
  expect((await providerPosts(request, bridge, text)).map((p) => p.status)).toEqual(['scheduled']);
});

test.describe('touch', () => {
  test.use({ hasTouch: true });
  test('calendar: a post held and dragged with a finger to another day is moved in place', async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    const text = `Cal touch ${Date.now().toString(36)}`;
    const from = localAt(1, 0, 50);
    const oldId = await schedulePost(request, bridge, text, from);
    await page.goto('/#/posts');
    const chip = chipOf(page, text);
    await expect(chip).toHaveCount(1);
    const to = localAt(3, 0, 50);
    const target = page.getByTestId(`cal-day-${dayKey(to)}`);
    await target.scrollIntoViewIfNeeded();
    await chip.scrollIntoViewIfNeeded();
    const a = (await chip.boundingBox())!;
    const b = (await target.boundingBox())!;
    // Touch events through the DevTools protocol: the touch sensor starts after a 250 ms hold.
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
      });
    await touch('touchStart', a.x + a.width / 2, a.y + a.height / 2);
    await page.waitForTimeout(400);
    for (let i = 1; i <= 10; i++) {
      await touch(
        'touchMove',
        a.x + a.width / 2 + ((b.x + b.width / 2 - a.x - a.width / 2) * i) / 10,
        a.y + a.height / 2 + ((b.y + b.height - 12 - a.y - a.height / 2) * i) / 10,
      );
    }
    await touch('touchEnd', 0, 0);
    await expect(page.getByTestId('calendar-move-dialog')).toContainText('New time');
    await page.getByRole('button', { name: 'Move it' }).click();
    await expect(page.getByTestId('calendar-notice')).toContainText('Moved to');
    const atProvider = await providerPosts(request, bridge, text);
    expect(atProvider.map((p) => [p.id === oldId ? 'same' : 'new', p.status, p.scheduleDate])).toEqual([
      ['same', 'scheduled', to.toISOString()],
    ]);
  });
});

test.describe('390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('calendar: the month becomes an agenda list grouped by day', async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    const text = `Cal agenda ${Date.now().toString(36)}`;
    const at = localAt(1, 0, 35);
    await schedulePost(request, bridge, text, at);
    await page.goto('/#/posts');
    if (at.getMonth() !== new Date().getMonth()) await page.getByRole('button', { name: 'Next →' }).click();
    const agenda = page.getByTestId('calendar-agenda');
    await expect(agenda).toContainText(text);
    await expect(page.getByTestId('calendar-month')).toHaveCount(0);
    await expect(agenda.getByRole('region').first()).toBeVisible();
    await screenshot(page, 'posts-calendar-agenda-390');
    await page.getByTestId('post-calendar').screenshot({
      path: 'test/e2e/screenshots/posts-calendar-agenda-390-panel.png',
      animations: 'disabled',
    });
  });
});
