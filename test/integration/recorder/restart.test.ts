import { afterAll, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * The recorder's next filename is held in memory only (spec §4.5): after a restart the
 * dashboard says "cleared when the bridge restarted at <time>", never silently nothing (DESIGN §6.7).
 */
const dir = tempDir('recorder-restart');
let bridge: TestBridge | undefined;
afterAll(async () => {
  await bridge?.stop();
  dir.remove();
});

const start = () => startTestBridge({}, { dataDir: dir.path, areas: ['health', 'recorder'] });
const filename = async () => (await bridge!.call('GET', '/api/recorder/filename')).body;

it('after a restart the held name is gone and the answer says which name the restart cleared, and when', async () => {
  bridge = await start();
  expect(await filename()).toMatchObject({
    success: true,
    filename: null,
    setAt: null,
    clearedByRestart: null,
  });
  expect(
    (await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'EP12_take' } })).status,
  ).toBe(200);
  await bridge.stop();

  const beforeRestart = Date.now();
  bridge = await start();
  const cleared = await filename();
  expect(cleared).toMatchObject({
    filename: null,
    clearedByRestart: { filename: 'EP12_take', clearedAt: expect.any(String) },
  });
  expect(Date.parse(cleared.clearedByRestart.clearedAt)).toBeGreaterThanOrEqual(beforeRestart - 1_000);
  await bridge.stop();

  // A further restart with no new name: still the first restart after the name was set.
  bridge = await start();
  // (read from that start's log entry, written a few ms after the area read its own clock).
  const again = (await filename()).clearedByRestart;
  expect(again.filename).toBe('EP12_take');
  expect(Math.abs(Date.parse(again.clearedAt) - Date.parse(cleared.clearedByRestart.clearedAt))).toBeLessThan(
    5_000,
  );
  // A new name ends the notice.
  await bridge.call('POST', '/api/recorder/filename', { body: { filename: 'EP13' } });
  expect(await filename()).toMatchObject({ filename: 'EP13', clearedByRestart: null });
});
