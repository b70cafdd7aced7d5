import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { startBridge } from './bridge-process.js';
import type { RunningBridge } from './bridge-process.js';
import { expect, expectFitsWidth, screenshot, test } from './fixtures.js';

/**
 * Issue 23 point 5 (DESIGN §6.7): after a restart the recorder panel says what the restart cleared;
 * issue 41.2: in one sentence that says whether the next recording is named right (OBS kept it).
 */
let own: RunningBridge | undefined;
test.afterAll(async () => {
  await own?.stop();
});

test('the recorder panel says the name was cleared when the bridge restarted, and when', async ({ page }) => {
  test.setTimeout(90_000);
  const key = `recorder-e2e-${Date.now()}-0123456789`;
  own = await startBridge(key, { logName: 'bridge-recorder-restart.log' });
  await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
    API_KEY_STORAGE_KEY,
    key,
  ] as const);
  // No name set yet: OBS's own name in words (issue #40.4), never its %CCYY-%MM-%DD format codes.
  await page.goto(`${own.url}/#/recorder`);
  await expect(page.getByTestId('recorder-current')).toContainText(
    /own date-and-time name \(like \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\)/,
  );
  await expect(page.getByTestId('recorder-panel')).not.toContainText('%CCYY');
  await screenshot(page, 'recorder-obs-own-name');

  // A name as long as a production's (one word to a browser): the sentences that carry it wrap at 390 px.
  const name = '20261209_The_Studio_Hour_8_Local_Radio_Global_Reach';
  const set = await page.request.post(`${own.url}/api/recorder/filename`, {
    headers: { Authorization: `Bearer ${key}` },
    data: { filename: name },
  });
  expect(set.ok()).toBe(true);
  await own.stopProcess();
  await own.startAgain();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${own.url}/#/recorder`);
  const current = page.getByTestId('recorder-current');
  await expect(current).toContainText(name);
  await expect(current).toContainText('restarted at');
  await screenshot(page, 'recorder-cleared-by-restart');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(current).toBeVisible();
  await expectFitsWidth(page, 390);
  await screenshot(page, 'recorder-cleared-by-restart-390');
  // One sentence, no "No filename set … OBS will use" contradiction: OBS kept the name.
  await expect(current).toHaveText(
    new RegExp(`^The next recording will be named ${name}: OBS kept it [^.;]+\\.$`),
  );
  await expect(current).not.toContainText('No filename set');
});
