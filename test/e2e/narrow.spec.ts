import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './fixtures.js';
import { PAGE_PATHS as routes } from '../support/page-paths.js';

/**
 * Narrow windows (issue #14.9 leftovers): at 390 px the tables stack into lists and their
 * header rows are hidden, so every stacked cell says which column it is; no page scrolls
 * sideways.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** Each visible body cell of a stacked table with text: its `::before` label and whether the header shows. */
async function stackedCells(page: Page, selector: string) {
  return page.locator(selector).evaluate((table) => {
    const head = table.querySelector('thead');
    const cells = [...table.querySelectorAll('tbody td')].filter(
      (cell) => (cell as HTMLElement).offsetParent !== null && (cell.textContent ?? '').trim() !== '',
    );
    return {
      headVisible: head !== null && getComputedStyle(head).display !== 'none',
      cells: cells.map((cell) => ({
        text: (cell.textContent ?? '').trim().slice(0, 30),
        label: getComputedStyle(cell, '::before').content,
      })),
    };
  });
}

test('stacked table cells carry their column names at 390 px', async ({ dashboard: page }) => {
  const tables: Array<[string, string, string[]]> = [
    ['/posts', '[data-testid="post-list"]', ['When', 'Platforms', 'Post', 'Status', 'From']],
    ['/broadcasts', 'table.bc-table', ['Status']],
  ];
  for (const [route, selector, expected] of tables) {
    await page.goto(`/#${route}`);
    await expect(page.locator(selector)).toBeVisible();
    await expect(page.locator(`${selector} tbody tr`).first()).toBeVisible();
    const { headVisible, cells } = await stackedCells(page, selector);
    expect(headVisible, `${route}: the header row is hidden when stacked`).toBe(false);
    expect(cells.length).toBeGreaterThan(0);
    // Every stacked cell with text (actions aside: their header is empty) shows a label.
    const unlabelled = cells.filter((cell) => cell.label === 'none' || cell.label === 'normal');
    const actions = await page
      .locator(`${selector} thead th`)
      .evaluateAll((ths) => ths.filter((th) => (th.textContent ?? '').trim() === '').length);
    expect(
      unlabelled.length,
      `${route}: cells without a label: ${JSON.stringify(unlabelled.slice(0, 3))}`,
    ).toBeLessThanOrEqual(actions * (await page.locator(`${selector} tbody tr`).count()));
    for (const name of expected) {
      expect(
        cells.some((cell) => cell.label.includes(`${name}: `)),
        `${route}: a cell labelled ${name}`,
      ).toBe(true);
    }
    await screenshot(page, `narrow-labels${route.replace('/', '-')}`);
  }

  // The job queue and collection runs too (tables that load later or sit in a disclosure).
  await page.goto('/#/activity');
  const jobs = page.getByTestId('jobs-table-panel');
  await jobs.getByRole('button', { name: 'all' }).click();
  if ((await jobs.locator('table tbody tr').count()) > 0) {
    const { cells } = await stackedCells(page, '[data-testid="jobs-table-panel"] table');
    expect(cells.every((cell) => cell.label.includes(': '))).toBe(true);
  }
});

test('no page scrolls sideways at 390 px', async ({ dashboard: page }) => {
  test.setTimeout(120_000);
  for (const route of routes) {
    await page.goto(`/#${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
    const { width, widest } = await page.evaluate(() => ({
      width: document.scrollingElement?.scrollWidth ?? 0,
      // What sticks out, to name it when the page is too wide.
      widest: [...document.querySelectorAll('body *')]
        .filter((element) => {
          const right = (node: Element | null) => node?.getBoundingClientRect().right ?? 0;
          return right(element) > 391 && right(element.parentElement) <= 391;
        })
        .slice(0, 3)
        .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`),
    }));
    expect(width, `${route} is ${width} px wide: ${widest.join(', ')}`).toBeLessThanOrEqual(390);
  }
});
