import { expect, expectFitsWidth, screenshot, test } from './fixtures.js';
import type { Locator, Page } from '@playwright/test';

/**
 * The production thread (issue #42.1): from a post's row to its production and back, and the
 * production page's thread, at 1280 and 390 px, against the sandbox's demo world.
 */
for (const viewport of [
  { width: 1280, height: 900, name: 'wide' },
  { width: 390, height: 844, name: 'narrow' },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('from a post’s row to its production and back', async ({ dashboard: page }) => {
      await page.goto('/#/posts');
      const row = page
        .getByTestId('post-list')
        .locator('tr')
        .filter({ has: page.getByTestId('production-link') })
        .first();
      const link = row.getByTestId('production-link');
      await expect(link).toBeVisible();
      const name = (await link.textContent())!.replace(/\s*→\s*$/, '');
      const rowKey = (await row.getAttribute('data-testid'))!.replace(/^post-row-crm:/, '');
      await link.click();

      const thread = page.getByTestId('production-thread');
      await expect(thread.getByRole('heading', { level: 1 })).toHaveText(name);
      await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
      await expectFitsWidth(page, viewport.width);
      await screenshot(page, `production-${viewport.name}`);

      const back = thread.getByTestId('thread-posts').locator(`a[href="#/posts?post=${rowKey}"]`);
      await expect(back).toBeVisible();
      await back.click();
      await expect(page.getByTestId(`post-row-crm:${rowKey}`)).toHaveClass(/posts-row-focused/);
    });

    test('the production page’s take, broadcast, guest and publish record open the very item; the nav says Productions', async ({
      dashboard: page,
    }) => {
      const thread = await openProduction(page, 'Why Newsletters Came Back');
      // At 390 px the page list is a closed menu: the link is there, hidden.
      const productionsNav = page.locator('#page-nav a[href="#/productions"]');
      await expect(productionsNav).toHaveClass(/active/);
      await expect(productionsNav).toHaveAttribute('aria-current', 'true');

      const takeLink = thread.getByTestId('thread-takes').locator('a[href^="#/recorder?take="]').first();
      const takeName = (await takeLink.textContent())!.trim();
      await takeLink.click();
      const take = page.getByTestId('take').filter({ hasText: takeName });
      await expect(take).toHaveClass(/take-focused/);
      await expect(take).toBeInViewport();
      await screenshot(page, `production-take-${viewport.name}`);

      await page.goBack();
      const broadcastLink = thread
        .getByTestId('thread-broadcasts')
        .locator('a[href^="#/broadcasts?broadcast="]')
        .first();
      const broadcastName = (await broadcastLink.textContent())!.trim();
      await broadcastLink.click();
      const row = page.locator(`[data-testid="broadcast-row"][data-name="${broadcastName}"]`);
      await expect(row).toHaveClass(/bc-row-focused/);
      await expect(row).toBeInViewport();
      await screenshot(page, `production-broadcast-${viewport.name}`);

      // A guest opens its details on the Guests page; a publish record its row under Publishing.
      await page.goBack();
      const guestLink = thread.getByTestId('thread-guests').locator('a[href^="#/guests?guest="]').first();
      const guestName = (await guestLink.textContent())!.trim();
      await guestLink.click();
      await expect(page.getByTestId('guest-detail')).toContainText(guestName);
      await page.goBack();
      const publishLink = thread
        .getByTestId('thread-publishes')
        .locator('a[href^="#/broadcasts?publish="]')
        .first();
      await publishLink.click();
      const publishRow = page.locator('[data-testid="publish-row"][aria-current="true"]');
      await expect(publishRow).toHaveClass(/bc-publish-focused/);
      await expect(publishRow).toBeInViewport();
      // …and its production card leads back.
      await page
        .getByTestId('production-card')
        .filter({ has: publishRow })
        .getByTestId('production-link')
        .click();
      await expect(thread.getByRole('heading', { level: 1 })).toHaveText(/Why Newsletters Came Back/);

      // A take that is not among those listed is said, not silently missing.
      await page.goto('/#/recorder?take=999999');
      await expect(page.getByTestId('take-not-listed')).toContainText('not among the');
    });

    test('the productions list finds by name and opens one', async ({ dashboard: page }) => {
      await page.goto('/#/productions');
      const list = page.getByTestId('production-list');
      await expect(list.getByRole('link').first()).toBeVisible();
      await expectFitsWidth(page, viewport.width);
      await screenshot(page, `productions-${viewport.name}`);
      const first = (await list.getByRole('link').first().textContent())!;
      await page.getByLabel('Search productions by name').fill(first);
      await expect(list.getByRole('link', { name: first })).toBeVisible();
      await list.getByRole('link', { name: first }).click();
      await expect(page.getByTestId('production-thread').getByRole('heading', { level: 1 })).toHaveText(
        first,
      );
      for (const part of [
        'thread-guests',
        'thread-broadcasts',
        'thread-takes',
        'thread-clips',
        'thread-posts',
      ]) {
        await expect(page.getByTestId(part)).toBeVisible();
      }
    });
  });
}

test('“Write a post for it” on a production’s page schedules a post linked to it, listed in its thread', async ({
  dashboard: page,
}) => {
  const thread = await openProduction(page, 'Designing for Slow Media');
  const productionUrl = page.url();

  await thread.getByTestId('thread-posts').getByRole('link', { name: 'Write a post for it →' }).click();
  await expect(page).toHaveURL(/#\/posts\?production=/);
  const links = page.getByTestId('post-links');
  await expect(links).toContainText('For');
  await expect(links.getByTestId('production-link')).toContainText('Designing for Slow Media');
  const text = `Slow media, fast clips: a note from the edit ${Date.now().toString(36)}`;
  await page.getByLabel('Post', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Schedule post' }).click();
  await expect(page.getByTestId('schedule-success')).toContainText('Scheduled');

  await page.goto(productionUrl);
  await expect(thread.getByTestId('thread-posts')).toContainText(text.slice(0, 40));
});

test('a recording named from a production’s page: the Recorder sets its name, the take belongs to it', async ({
  dashboard: page,
}) => {
  const thread = await openProduction(page, 'Local Radio, Global Reach');
  const productionUrl = page.url();
  await expect(thread.getByTestId('thread-takes')).toContainText('No take linked');

  await thread.getByTestId('thread-takes').getByRole('link', { name: 'Name a recording from it →' }).click();
  await expect(page).toHaveURL(/#\/recorder\?production=/);
  const panel = page.getByTestId('recorder-from-production');
  const name = panel.getByTestId('recorder-production-name');
  await expect(name).toHaveText(/^\d{8}_The_Studio_Hour_8_Local_Radio_Global_Reach$/);
  const filename = (await name.textContent())!;
  await screenshot(page, 'recorder-from-production-1280');
  await panel.getByRole('button', { name: 'Set this name' }).click();
  await expect(panel.getByTestId('recorder-production-saved')).toContainText(filename);
  await expect(page.getByTestId('recorder-current')).toHaveText(filename);
  await expect(page.getByTestId('recorder-production').getByTestId('production-link')).toHaveAttribute(
    'href',
    new URL(productionUrl).hash,
  );

  const card = page.getByTestId('recorder-card');
  await card.getByRole('button', { name: 'Start recording' }).click();
  await expect(card.getByTestId('recorder-take')).toHaveText(filename);
  await card.getByRole('button', { name: 'Stop recording' }).click();
  const take = page.getByTestId('take').filter({ hasText: filename });
  await expect(take.getByTestId('production-link')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await expectFitsWidth(page, 390);
  await screenshot(page, 'recorder-from-production-390');

  // "The next scheduled" asks the bridge which production comes next (the one Companion's button names from).
  await panel.getByRole('button', { name: 'The next scheduled' }).click();
  await expect(panel.getByLabel('Production')).not.toHaveValue('');
  await expect(name).toHaveText(/^\d{8}_\w+$/);

  await page.goto(productionUrl);
  await expect(thread.getByTestId('thread-takes')).toContainText(filename);
});

/** Finds a production on the Productions page by its name and opens its page (the thread). */
async function openProduction(page: Page, name: string): Promise<Locator> {
  await page.goto('/#/productions');
  await page.getByLabel('Search productions by name').fill(name);
  await page.getByTestId('production-list').getByRole('link', { name }).click();
  const thread = page.getByTestId('production-thread');
  await expect(thread.getByRole('heading', { level: 1 })).toContainText(name);
  return thread;
}
