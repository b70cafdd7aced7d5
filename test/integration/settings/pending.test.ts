import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * A saved setting waits for a restart (issue #30.6): GET /api/settings reports, beside the value
 * in force, the value saved in the config file (`pending`, masked like any secret), so the page
 * shows the new value after a save and after a reload; null once the file holds what runs.
 */

type Entry = { key: string; value: string | null; source: string; pending: { value: string | null } | null };
const entriesOf = async (bridge: TestBridge): Promise<Record<string, Entry>> => {
  const { body } = await bridge.call('GET', '/api/settings');
  return Object.fromEntries((body.settings as Entry[]).map((entry) => [entry.key, entry]));
};
const save = async (bridge: TestBridge, values: Record<string, string>) => {
  const response = await bridge.call('PUT', '/api/settings', { body: { values } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
};

describe('GET /api/settings: what waits for a restart', () => {
  let bridge: TestBridge;
  beforeAll(async () => {
    bridge = await startTestBridge({ CRM_CATCHUP_MINUTES: '5' }, { areas: ['settings'] });
  });
  afterAll(() => bridge.close());

  it('nothing pends at start', async () => {
    const entries = await entriesOf(bridge);
    expect(Object.values(entries).filter((entry) => entry.pending !== null)).toEqual([]);
  });

  it('a saved value is pending beside the running one; saving the running value back clears it', async () => {
    await save(bridge, { LATE_POST_GRACE_MINUTES: '45' });
    let entries = await entriesOf(bridge);
    expect(entries.LATE_POST_GRACE_MINUTES).toMatchObject({
      value: null,
      source: 'default',
      pending: { value: '45' },
    });
    await save(bridge, { LATE_POST_GRACE_MINUTES: '' });
    entries = await entriesOf(bridge);
    expect(entries.LATE_POST_GRACE_MINUTES?.pending).toBeNull();
  });

  it('a secret saved is pending masked, never in full', async () => {
    await save(bridge, { RECORDER_OBS_PASSWORD: 'obs-password-0123456789' });
    const entries = await entriesOf(bridge);
    expect(entries.RECORDER_OBS_PASSWORD?.pending).toEqual({ value: '••••6789' });
    expect(JSON.stringify(entries)).not.toContain('obs-password');
    await save(bridge, { RECORDER_OBS_PASSWORD: '' });
    expect((await entriesOf(bridge)).RECORDER_OBS_PASSWORD?.pending).toBeNull();
  });

  it('a key set by the environment is never pending (the environment wins after a restart too)', async () => {
    const entries = await entriesOf(bridge);
    expect(entries.CRM_CATCHUP_MINUTES).toMatchObject({ source: 'env', value: '5', pending: null });
  });
});

describe('GET /api/settings: a value running from the config file', () => {
  let dir: TempDir;
  let bridge: TestBridge;
  beforeAll(async () => {
    dir = tempDir('settings-pending');
    writeFileSync(path.join(dir.path, 'config.json'), JSON.stringify({ LATE_POST_GRACE_MINUTES: '20' }));
    bridge = await startTestBridge({}, { areas: ['settings'], dataDir: dir.path });
  });
  afterAll(async () => {
    await bridge.close();
    dir.remove();
  });

  it('changed is pending with the new value; removed is pending as null (the default after a restart)', async () => {
    expect((await entriesOf(bridge)).LATE_POST_GRACE_MINUTES).toMatchObject({
      value: '20',
      source: 'file',
      pending: null,
    });
    await save(bridge, { LATE_POST_GRACE_MINUTES: '30' });
    expect((await entriesOf(bridge)).LATE_POST_GRACE_MINUTES?.pending).toEqual({ value: '30' });
    await save(bridge, { LATE_POST_GRACE_MINUTES: '' });
    expect((await entriesOf(bridge)).LATE_POST_GRACE_MINUTES?.pending).toEqual({ value: null });
    await save(bridge, { LATE_POST_GRACE_MINUTES: '20' });
    expect((await entriesOf(bridge)).LATE_POST_GRACE_MINUTES?.pending).toBeNull();
  });
});
