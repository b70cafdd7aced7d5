import { expect, expectFitsWidth, screenshot, test } from './fixtures.js';

/**
 * The Recorder page against the sandbox's simulated OBS (issue 27): the name goes to OBS, a take
 * is recorded with the page's simulated-OBS buttons, marked with the button and the M key, and
 * listed with its file and marks. Screenshots at 1280 and 390 px.
 */
test('records a take with marks on the simulated OBS', async ({ dashboard: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/recorder');
  const card = page.getByTestId('recorder-card');
  await expect(card.getByText('OBS connected')).toBeVisible();

  await page.getByLabel('New filename').fill('20260501_ep42_interview');
  await page.getByRole('button', { name: 'Set filename' }).click();
  await expect(page.getByTestId('recorder-current')).toHaveText(/^20260501_ep42_interview(_T\d\d)?$/);
  await expect(page.getByTestId('recorder-state')).toContainText('In OBS');
  const takeName = (await page.getByTestId('recorder-current').textContent())!;

  await card.getByRole('button', { name: 'Start recording' }).click();
  await expect(card.getByTestId('recorder-take')).toHaveText(takeName);
  await page.getByLabel('Label (optional)').fill('guest story');
  await page.getByRole('button', { name: 'Mark', exact: true }).click();
  await expect(page.getByTestId('mark-result')).toContainText(`into take ${takeName}`);
  await card.getByRole('button', { name: 'Pause' }).click();
  await card.getByRole('button', { name: 'Resume' }).click();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('m');
  await expect(page.getByTestId('take').first().locator('.mark-list li')).toHaveCount(2);
  await card.getByRole('button', { name: 'Stop recording' }).click();

  const take = page.getByTestId('take').first();
  // The sandbox's simulated OBS records into the data dir's sandbox-recordings (issue #43).
  await expect(take).toContainText(`/sandbox-recordings/${takeName}.mkv`);
  await expect(take).toContainText('guest story');
  await expect(page.getByTestId('recorder-current')).toHaveText(/_T\d\d$/);
  await page.getByRole('button', { name: 'Mark', exact: true }).click();
  await expect(page.getByTestId('mark-result')).toContainText('no take in progress');
  await screenshot(page, 'recorder-takes-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(take).toBeVisible();
  await expectFitsWidth(page, 390);
  await screenshot(page, 'recorder-takes-390');
});

test('the overview shows the recorder card', async ({ dashboard: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/');
  const card = page.getByTestId('recorder-card');
  await expect(card.getByText('OBS connected')).toBeVisible();
  await screenshot(page, 'overview-recorder-1280');
});
