import type { Page } from '@playwright/test';
import { expect, expectFitsWidth, screenshot, test } from './fixtures.js';

/**
 * One search (issue #42.3): "where is episode N?" answered from the header's search box in one
 * step — the production with its stage and date, its guest, its take and its broadcast — and Enter
 * on the production opens its page; at 1280 and at 390 px (an icon that opens a field across the
 * header). Activity filtered by text.
 */

const searchBox = (page: Page) => page.getByRole('combobox', { name: /^Search productions/ });
const results = (page: Page) => page.getByRole('listbox', { name: 'Search results' });
const option = (page: Page, name: RegExp) => results(page).getByRole('option', { name });

async function expectEpisode(page: Page, n: number, production: RegExp, guest: string): Promise<void> {
  await expect(option(page, production)).toBeVisible();
  await expect(option(page, production)).toContainText('Published');
  await expect(option(page, production)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  await expect(option(page, new RegExp(`^${guest}`))).toBeVisible();
  await expect(option(page, new RegExp(`^\\d{8}_The_Studio_Hour_${n}_`))).toBeVisible();
  await expect(option(page, new RegExp(`^The Studio Hour Live #${n}\\b`))).toBeVisible();
  for (const group of ['Productions', 'Guests', 'Posts', 'Takes', 'Broadcasts']) {
    await expect(results(page).getByRole('group', { name: group })).toBeVisible();
  }
}

/** Enter on the first option, the production, opens its page. */
async function openProductionWithEnter(page: Page, production: RegExp): Promise<void> {
  await searchBox(page).press('ArrowDown');
  await expect(option(page, production)).toHaveAttribute('aria-selected', 'true');
  await expect(searchBox(page)).toHaveAttribute(
    'aria-activedescendant',
    (await option(page, production).getAttribute('id'))!,
  );
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(/#\/productions\/[A-Za-z0-9]+$/);
  await expect(results(page)).toHaveCount(0);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 860 } });

  test('"episode 3" in the header search shows its production, guest, take and broadcast; Enter opens the production', async ({
    dashboard: page,
  }) => {
    await page.goto('/#/');
    await searchBox(page).click();
    await searchBox(page).fill('episode 3');
    const production = /^The Studio Hour #3: Why Newsletters Came Back/;
    await expectEpisode(page, 3, production, 'Sofia Lindqvist');
    await screenshot(page, 'search-episode-1280');

    // Escape closes the list and leaves the text; arrows reopen it.
    await searchBox(page).press('Escape');
    await expect(results(page)).toHaveCount(0);
    await expect(searchBox(page)).toHaveValue('episode 3');
    await searchBox(page).press('ArrowDown');
    await expect(results(page)).toBeVisible();
    await searchBox(page).press('ArrowUp');
    await searchBox(page).press('Escape');
    await expect(results(page)).toHaveCount(0);

    await openProductionWithEnter(page, production);

    // A guest opens on the Guests page, chosen.
    await searchBox(page).fill('episode 3');
    await option(page, /^Sofia Lindqvist/).click();
    await expect(page).toHaveURL(/#\/guests\?guest=[A-Za-z0-9]+$/);
    await expect(page.getByTestId('guest-detail')).toContainText('Sofia Lindqvist');
  });

  test('Activity filtered by text', async ({ dashboard: page, request, bridge }) => {
    const label = `search-e2e-${Date.now().toString(36)}`;
    const headers = { authorization: `Bearer ${bridge.key}` };
    for (const suffix of ['one', 'two']) {
      const mark = await request.post(`${bridge.url}/api/recorder/marks`, {
        headers,
        data: { label: `${label} ${suffix}` },
      });
      expect(mark.ok()).toBe(true);
    }
    await page.goto('/#/activity');
    const text = page.getByRole('searchbox', { name: 'Text' });
    await text.fill(label);
    await expect(page).toHaveURL(new RegExp(`q=${label}`));
    const items = page.getByTestId('activity-item');
    await expect(items).toHaveCount(2);
    for (const item of await items.all()) await expect(item).toContainText(label);
    await text.fill(`${label} two`);
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(`${label} two`);
    await screenshot(page, 'activity-text-1280');
    await text.fill('no event says this');
    await expect(page.getByText('No events match these filters')).toBeVisible();
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('an icon opens the search across the header; "episode 2" answered in one step', async ({
    dashboard: page,
  }) => {
    await page.goto('/#/');
    await expect(searchBox(page)).toBeHidden();
    await screenshot(page, 'search-closed-390');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(searchBox(page)).toBeFocused();
    const box = await searchBox(page).boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await searchBox(page).fill('episode 2');
    const production = /^The Studio Hour #2: The Sound of Small Rooms/;
    await expectEpisode(page, 2, production, 'Aiko Tanaka');
    await expectFitsWidth(page, 390);
    await screenshot(page, 'search-episode-390');
    await openProductionWithEnter(page, production);
  });
});
