import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { PAGE_PATHS as routes } from '../support/page-paths.js';

/**
 * WCAG AA contrast (issue #41.5): text 4.5:1, large text 3:1, form fields' borders 3:1, on every
 * page in the sandbox at 1280 and 390 px. axe-core's color-contrast rule computes each visible text element against the
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

/**
 * WCAG 1.4.11: what identifies a form field (its border) at 3:1 against the ground it sits on.
 * axe does not check non-text contrast; this walks up from each visible, enabled field to the
 * first opaque background.
 */
async function faintFields(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const [R, G, B] = [r, g, b].map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const ground = (element: Element | null): number[] => {
      for (let node = element; node; node = node.parentElement) {
        const color = rgb(getComputedStyle(node).backgroundColor);
        if (color.length === 3 || color[3] === 1) return color;
      }
      return [255, 255, 255];
    };
    const fields = document.querySelectorAll<HTMLElement>(
      'input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)',
    );
    const faint: string[] = [];
    for (const field of fields) {
      const style = getComputedStyle(field);
      if (
        field.offsetParent === null ||
        style.borderTopStyle === 'none' ||
        parseFloat(style.borderTopWidth) === 0
      )
        continue;
      const [a, b] = [luminance(rgb(style.borderTopColor)), luminance(ground(field.parentElement))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 3) {
        const name =
          field.getAttribute('aria-label') ?? field.id ?? field.getAttribute('name') ?? field.tagName;
        faint.push(
          `field ${field.tagName.toLowerCase()} "${name}": border ${ratio.toFixed(2)}:1 (needs 3:1)`,
        );
      }
    }
    return faint;
  });
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
    for (const line of await faintFields(page)) faint.push(`${route} ${line}`);
  }
  // One production's page (issue #42): the thread's panels, pills and links.
  await page.goto('/#/productions');
  await page.getByTestId('production-list').getByRole('link').first().click();
  await expect(page.getByTestId('production-thread')).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (const line of await faintText(page)) faint.push(`/productions/<id> ${line}`);
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
