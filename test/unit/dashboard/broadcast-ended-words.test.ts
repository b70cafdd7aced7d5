import { describe, expect, it } from 'vitest';
import { endedWords } from '../../../renderer/src/broadcasts/viewer-words.js';

/** Issue #41.3: an ended broadcast in one line, from what the bridge saw of it live. */
const run = {
  firstLiveAt: '2026-12-01T22:45:10.000Z',
  lastLiveAt: '2026-12-01T22:58:00.000Z',
  endedAt: '2026-12-01T22:58:04.000Z',
  peakViewers: 1137,
  averageViewers: 842,
  samples: 150,
};

describe('the ended line', () => {
  it('says when it ended, how long it ran from the host’s start, peak and average viewers', () => {
    const words = endedWords({ startedAt: '2026-12-01T22:45:00.000Z' }, run)!;
    expect(words).toMatch(/^Ended .+ · ran 13 min 4 s · peak 1,137 viewers · average 842$/);
    expect(words).not.toContain('Ended by');
  });

  it('runs from the first live read when the host gave no start', () => {
    expect(endedWords({ startedAt: null }, run)).toContain('ran 12 min 54 s');
  });

  it('says "by" and "at least" when the bridge was away as it ended', () => {
    const words = endedWords(
      { startedAt: '2026-12-01T22:45:00.000Z' },
      {
        ...run,
        endedAt: '2026-12-02T03:00:00.000Z',
      },
    )!;
    expect(words).toMatch(/^Ended by .+ · ran at least 13 min 0 s · /);
  });

  it('is null while it has not ended', () => {
    expect(endedWords({ startedAt: null }, { ...run, endedAt: null })).toBeNull();
  });
});
