import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { PAGE_PATHS as routes } from '../support/page-paths.js';

/**
 * WCAG AA contrast (issue #41.5): text 4.5:1, large text 3:1, on every page in the sandbox at
 * 1280 and 390 px. axe-core's color-contrast rule computes each visible text element against the
 * background it is drawn on (walking up to the first opaque one, opacity included); one bridge,
 * each page visited once per width.
 */

/** One line per element axe finds too faint: the page, the text, its ratio and the one it needs. */
async function faintText(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const data = node.any[0]?.data as
        | { contrastRatio?: number; expectedContrastRatio?: string; fgColor?: string; bgColor?: string }
        | undefined;
      const text = node.target.join(' ');
      return `${text}: ${data?.contrastRatio ?? '?'}:1 (needs ${data?.expectedContrastRatio ?? '?'}; ${data?.fgColor ?? '?'} on ${data?.bgColor ?? '?'})`;
    }),
  );
}

async function visitAll(page: Page): Promise<string[]> {
  const faint: string[] = [];
  for (const route of routes) {
    await page.goto(`/#${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
    // Panels that load on their own (skeletons): wait for the page to settle.
    await page.waitForLoadState('networkidle');
    for (const line of await faintText(page)) faint.push(`${route} ${line}`);
  }
  // The past month's grid: this month's first days (the sandbox's failed post among them) sit in
  // it as days outside the month, and a failed post there was drawn at 60 % opacity (2.73:1).
  await page.goto('/#/posts');
  const previous = page.getByRole('button', { name: '← Previous' });
  if (await previous.isVisible()) {
    await previous.click();
    await page.waitForLoadState('networkidle');
    for (const line of await faintText(page)) faint.push(`/posts (previous month) ${line}`);
  }
  return faint;
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 600 ? 900 : 844 } });

    test(`every page's text meets WCAG AA contrast at ${width} px`, async ({ dashboard: page }) => {
      test.setTimeout(180_000);
      const faint = await visitAll(page);
      expect(faint, faint.join('\n')).toEqual([]);
    });
  });
}
