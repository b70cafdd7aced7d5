import type { Page } from '@playwright/test';
import { expect, expectFitsWidth, sandboxControlHeaders, screenshot, test } from './fixtures.js';

/**
 * Issue 41.2 and 41.3 on the simulated OBS: a mark made while nothing records says so at the button,
 * marks are renamed and deleted, the header shows REC with the take's running time while OBS
 * records, and ON AIR while OBS is connected and not recording is a warning in the header and on
 * the Recorder page. Screenshots at 1280 and 390 px.
 */

async function pressObs(page: Page, action: 'start' | 'stop', key: string): Promise<void> {
  const answer = await page.request.post('/api/sandbox/obs', {
    headers: { Authorization: `Bearer ${key}` },
    data: { action },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

test('a mark made while nothing records says so at the button; marks are renamed and deleted', async ({
  dashboard: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/recorder');
  const card = page.getByTestId('recorder-card');
  await expect(card.getByText('OBS connected')).toBeVisible();
  await expect(card.getByText('Not recording')).toBeVisible();
  const markButton = page.getByRole('button', { name: 'Mark', exact: true });
  await screenshot(page, 'recorder-mark-idle-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'recorder-mark-idle-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  // Before pressing: the button itself says what a mark made now will be.
  await expect(markButton).toHaveAccessibleDescription(/nothing is recording/i);
  await markButton.click();
  const panel = page.getByTestId('mark-panel');
  await expect(panel.getByTestId('mark-result')).toContainText('no take');
  await screenshot(page, 'recorder-mark-no-take-1280');

  await page.getByLabel('New filename').fill(`20261201_marks_${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Set filename' }).click();
  await expect(page.getByTestId('recorder-state')).toContainText('In OBS');
  await card.getByRole('button', { name: 'Start recording' }).click();
  await expect(card.getByTestId('recorder-take')).toBeVisible();
  await expect(markButton).not.toHaveAccessibleDescription(/nothing is recording/i);
  await page.getByLabel('Label (optional)').fill('guest story');
  await markButton.click();
  await expect(panel.getByTestId('mark-result')).toContainText('into take');
  await page.getByLabel('Label (optional)').fill('throwaway');
  await markButton.click();
  await expect(panel.getByTestId('mark-result')).toContainText('into take');
  await card.getByRole('button', { name: 'Stop recording' }).click();

  const take = page.getByTestId('take').first();
  const marks = take.getByTestId('mark');
  await expect(marks).toHaveCount(2);
  await marks.filter({ hasText: 'guest story' }).getByRole('button', { name: 'Rename' }).click();
  const input = take.getByLabel('New label');
  await input.fill('best guest story');
  await take.getByRole('button', { name: 'Save' }).click();
  await expect(marks.filter({ hasText: 'best guest story' })).toHaveCount(1);

  await marks.filter({ hasText: 'throwaway' }).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: /Delete the mark/ });
  await expect(confirm).toContainText('throwaway');
  await confirm.getByRole('button', { name: 'Delete the mark' }).click();
  await expect(marks).toHaveCount(1);
  await expect(take).not.toContainText('throwaway');
  await screenshot(page, 'recorder-marks-edited-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(take).toBeVisible();
  await expectFitsWidth(page, 390);
  await screenshot(page, 'recorder-marks-edited-390');
});

test('REC with the take’s running time in the header while OBS records, gone when it stops', async ({
  dashboard: page,
  bridge,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/');
  await expect(page.getByTestId('recorder-card').getByText('OBS connected')).toBeVisible();
  const rec = page.getByTestId('rec-indicator');
  await expect(rec).toHaveCount(0);

  await pressObs(page, 'start', bridge.key);
  await expect(rec).toBeVisible();
  await expect(rec).toHaveText(/^REC\s*0:0\d$/);
  // It runs: the next second reads later than the first.
  const first = await rec.textContent();
  await expect(rec).not.toHaveText(first!);
  await screenshot(page, 'header-rec-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rec).toBeVisible();
  const box = (await rec.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expectFitsWidth(page, 390);
  await screenshot(page, 'header-rec-390');

  await pressObs(page, 'stop', bridge.key);
  await expect(rec).toHaveCount(0);
});

test('ON AIR while OBS is connected and not recording is a warning in the header and on the Recorder page', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  test.setTimeout(90_000);
  const headers = { Authorization: `Bearer ${bridge.key}` };
  const name = `E2E on air ${Date.now().toString(36)}`;
  const created = await request.post('/streamhost/create-broadcast', {
    headers,
    data: { name, scheduledAt: new Date(Date.now() + 2 * 60_000).toISOString(), channelId: 'backup' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { broadcastId } = (await created.json()) as { broadcastId: string };
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/recorder');
    await expect(page.getByTestId('recorder-card').getByText('Not recording')).toBeVisible();
    const warning = page.getByTestId('on-air-not-recording');
    await expect(warning).toHaveCount(0);

    const health = (await (await request.get('/health', { headers })).json()) as {
      peers: Record<string, { url: string }>;
    };
    const encoder = await request.post(`${health.peers.gateway!.url}/__sandbox/encoder`, {
      headers: await sandboxControlHeaders(request, bridge),
      data: { broadcastId },
    });
    expect(encoder.ok(), await encoder.text()).toBe(true);
    await expect(page.getByTestId('on-air')).toBeVisible();
    await screenshot(page, 'recorder-on-air-not-recording-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'recorder-on-air-not-recording-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(warning).toHaveText(/On air but not recording/);
    const onPage = page.getByTestId('recorder-on-air-warning');
    await expect(onPage).toContainText('On air but not recording');
    await expect(onPage).toContainText(name);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(warning).toBeVisible();
    await expectFitsWidth(page, 390);
    await page.setViewportSize({ width: 1280, height: 800 });

    await pressObs(page, 'start', bridge.key);
    await expect(page.getByTestId('rec-indicator')).toBeVisible();
    await expect(warning).toHaveCount(0);
    await expect(onPage).toHaveCount(0);
    await pressObs(page, 'stop', bridge.key);
    await expect(warning).toBeVisible();
  } finally {
    await request.post('/streamhost/end-broadcast', { headers, data: { broadcastId } });
  }
});
