import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingEntry } from '../../../shared/api/settings.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * FFMPEG_PATH and FFPROBE_PATH name programs the bridge runs (DESIGN §3, §6.10). Through the API
 * anyone holding the key could have the bridge run any program of the host: they are shown in
 * Settings, set only where the operator edits (environment, config file).
 */
let bridge: TestBridge;
beforeAll(async () => {
  bridge = await startTestBridge({}, { areas: ['settings'] });
});
afterAll(() => bridge.close());

describe('FFMPEG_PATH and FFPROBE_PATH in Settings', () => {
  it('are listed, read-only, saying where to set them', async () => {
    const { body } = await bridge.call('GET', '/api/settings');
    for (const key of ['FFMPEG_PATH', 'FFPROBE_PATH']) {
      const entry = (body.settings as SettingEntry[]).find((setting) => setting.key === key);
      expect(entry).toMatchObject({ key, value: null, editable: false, secret: false, source: 'default' });
      expect(entry?.note).toContain('environment');
      expect(entry?.note).toContain(bridge.configPath);
    }
  });

  it('are refused through the API, naming the key, and nothing is written', async () => {
    const before = existsSync(bridge.configPath) ? readFileSync(bridge.configPath, 'utf8') : null;
    const answer = await bridge.call('PUT', '/api/settings', {
      body: { values: { FFMPEG_PATH: '/bin/sh', FFPROBE_PATH: '/usr/bin/ffprobe' } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('body.values.FFMPEG_PATH: ');
    expect(answer.body.error).toContain('body.values.FFPROBE_PATH: ');
    expect(answer.body.error).toContain('environment');
    expect(existsSync(bridge.configPath) ? readFileSync(bridge.configPath, 'utf8') : null).toBe(before);
  });
});
