import { expect, test } from './fixtures.js';

/** Issue #30.8: a new studio's Overview says what to connect, each step linking to Settings. */

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the Overview's first step lists CRM, provider and OBS to connect, linking to Settings (${viewport.width})`, async ({
    dashboard: page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/');
    const step = page.getByTestId('first-step');
    await expect(step).toContainText('First step: connect your studio');
    for (const [key, title] of [
      ['CRM_URL', 'Connect the CRM (EspoCRM)'],
      ['POSTSVC_URL', 'Connect the posting provider'],
      ['RECORDER_OBS_URL', 'Connect OBS'],
    ] as const) {
      await expect(step.getByTestId(`first-step-${key}`).getByRole('link', { name: title })).toHaveAttribute(
        'href',
        '#/settings',
      );
    }
    await step.screenshot({ path: `test/e2e/screenshots/first-step-${viewport.width}.png` });
    await step.getByRole('link', { name: 'Connect OBS' }).click();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  });
}
