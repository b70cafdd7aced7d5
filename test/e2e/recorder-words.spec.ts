import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { freePort } from '../support/ports.js';
import { startBridge, type RunningBridge } from './bridge-process.js';
import { expect, screenshot, test } from './fixtures.js';

/**
 * Issue #40.4: OBS's last connection error on the Recorder card is said in words; the socket's
 * own text ("connect ECONNREFUSED 127.0.0.1:…") only behind Details.
 */
let own: RunningBridge | undefined;
test.afterAll(async () => {
  await own?.stop();
});

test('an OBS that does not answer is said in words on the Recorder card, the socket error behind Details', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const key = `recorder-words-${Date.now()}-0123456789`;
  // A port nobody listens on: the connection is refused.
  own = await startBridge(key, {
    logName: 'bridge-recorder-words.log',
    env: { RECORDER_OBS_URL: `ws://127.0.0.1:${await freePort()}` },
  });
  await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
    API_KEY_STORAGE_KEY,
    key,
  ] as const);
  await page.goto(`${own.url}/#/recorder`);
  const why = page.getByTestId('recorder-error');
  await expect(why).toContainText('OBS is not answering at its address');
  const details = why.locator('details');
  await expect(details).not.toHaveAttribute('open');
  await expect(details.locator('summary')).toHaveText('Details');
  await expect(why.getByText(/ECONNREFUSED|could not connect/)).toBeHidden();
  await screenshot(page, 'recorder-obs-not-answering');
});
