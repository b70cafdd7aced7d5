import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { SearchResponse } from '../../../shared/api/search.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * The sandbox's story per episode (issue #42.6) as the bridge shows it: the recorded episodes have
 * their takes, named as the recorder names a take from its production (`YYYYMMDD_<name>` of its
 * day), with marks; seeded once per data dir; and "episode 3" in the search finds the production,
 * its guest, its take, its posts and its broadcast in one answer.
 */
const data = tempDir('episode-story');
let bridge: TestBridge;

const start = () =>
  startTestBridge({ BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none' }, { dataDir: data.path });
const takes = async () => (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];

beforeAll(async () => {
  bridge = await start();
});
afterAll(async () => {
  await bridge?.close();
  data.remove();
});

describe('the sandbox episodes as the bridge shows them', () => {
  it('has a take with marks for each recorded episode, named from its production and its day', async () => {
    const list = await takes();
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const take = list.find((t) => new RegExp(`^\\d{8}_The_Studio_Hour_${n}_`).test(t.name));
      expect(take, `a take of episode ${n}`).toBeDefined();
      expect(take!.stoppedAt).not.toBeNull();
      expect(take!.durationS).toBeGreaterThan(0);
      expect(take!.marks.length).toBeGreaterThan(0);
      expect(take!.name.slice(0, 8)).toBe(take!.startedAt.slice(0, 10).replace(/-/g, ''));
    }
    expect(list.some((t) => /_The_Studio_Hour_(7|8|9)_/.test(t.name))).toBe(false);
  });

  it('answers "episode 3" with the production, its guest, take, posts and broadcast', async () => {
    const answer = await bridge.call('GET', '/api/search?q=episode%203');
    expect(answer.status).toBe(200);
    const body = answer.body as SearchResponse;
    const titles = (kind: string) => body.results.filter((r) => r.kind === kind).map((r) => r.title);
    expect(titles('production')).toEqual(['The Studio Hour #3: Why Newsletters Came Back']);
    expect(titles('guest')).toEqual(['Sofia Lindqvist']);
    expect(titles('take')).toEqual([
      expect.stringMatching(/^\d{8}_The_Studio_Hour_3_Why_Newsletters_Came_Back$/),
    ]);
    expect(titles('broadcast')).toEqual(['The Studio Hour Live #3']);
    expect(titles('post').length).toBeGreaterThanOrEqual(2);
    expect(body.missing).toEqual([]);
  });

  it('seeds the takes once per data dir', async () => {
    const before = (await takes()).map((t) => t.id);
    await bridge.stop();
    bridge = await start();
    expect((await takes()).map((t) => t.id)).toEqual(before);
  });
});
