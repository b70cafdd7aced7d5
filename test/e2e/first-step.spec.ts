import { expect, test } from './fixtures.js';

/**
 * Issue #30.8: a new studio's Overview says what to connect, each step linking to Settings (issue
 * #41.1: to the peer's own section; OBS is connected in the sandbox, to its simulated OBS).
 */

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
    for (const [key, title, section] of [
      ['CRM_URL', 'Connect the CRM (EspoCRM)', 'crm'],
      ['POSTSVC_URL', 'Connect the posting provider', 'postsvc'],
      ['RECORDER_OBS_URL', 'OBS', 'obs'],
    ] as const) {
      await expect(step.getByTestId(`first-step-${key}`).getByRole('link', { name: title })).toHaveAttribute(
        'href',
        `#/settings?section=${section}`,
      );
    }
    await expect(step.getByTestId('first-step-RECORDER_OBS_URL')).toContainText('connected');
    await step.screenshot({ path: `test/e2e/screenshots/first-step-${viewport.width}.png` });
    await step.getByRole('link', { name: 'OBS', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  });
}
