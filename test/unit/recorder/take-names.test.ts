import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from '../../../main/peers/obs.js';
import { noNameLine, obsNameWords } from '../../../shared/recorder-status.js';
import {
  checkRecorderFilename,
  MAX_FILENAME_BYTES,
  nextFreeTakeName,
  takeFilename,
} from '../../../shared/recorder-filename.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('take names (DESIGN §6.7)', () => {
  it('keeps a name no take used, else gives the first free _Tnn', () => {
    const used = new Set(['ep42', 'ep42_T02']);
    expect(nextFreeTakeName('ep41', (name) => used.has(name))).toBe('ep41');
    expect(nextFreeTakeName('ep42', (name) => used.has(name))).toBe('ep42_T03');
  });

  it('pads to two digits and grows past 99', () => {
    expect(takeFilename('ep', 2)).toBe('ep_T02');
    expect(takeFilename('ep', 100)).toBe('ep_T100');
  });

  it('shortens the base by whole characters so the name fits 128 bytes, and stays a valid name', () => {
    for (const base of ['a'.repeat(128), 'é'.repeat(64), '🎬'.repeat(32), `${'a'.repeat(123)} .x`]) {
      const name = takeFilename(base, 12);
      expect(bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
      expect(name.endsWith('_T12')).toBe(true);
      expect(checkRecorderFilename(name)).toEqual({ ok: true });
    }
    expect(takeFilename('🎬'.repeat(32), 2)).toBe(`${'🎬'.repeat(31)}_T02`);
  });
});

describe('% with a recorder', () => {
  it('is refused only when a recorder is configured', () => {
    expect(checkRecorderFilename('ep 100%')).toEqual({ ok: true });
    const refused = checkRecorderFilename('ep 100%', new Date('2026-05-01T00:00:00Z'), { recorder: true });
    expect(refused).toMatchObject({
      ok: false,
      rule: expect.stringContaining('"%"'),
      suggestion: '20260501_ep_100',
    });
  });
});

describe("characters OBS's shell expands, with a recorder (issue #35.1)", () => {
  // OBS 29 on Linux starts its muxer through /bin/sh with the path in double quotes: `$` and a
  // backquote are expanded there (a name ran a command; `$HOME` lost a recording).
  it.each([
    ['20261204_$(touch injected-marker)', '$'],
    ['20261203_Ke$ha_Interview', '$'],
    ['20261204_$HOME', '$'],
    ['20261204_`id`', '`'],
  ])('refuses %s naming %s and why', (name, character) => {
    const refused = checkRecorderFilename(name, new Date('2026-12-04T00:00:00Z'), { recorder: true });
    expect(refused).toMatchObject({ ok: false });
    if (refused.ok) return;
    expect(refused.rule).toContain(`"${character}"`);
    expect(refused.rule).toMatch(/shell/);
    expect(refused.suggestion).toMatch(/^20261204_[\p{L}\p{N}_]+$/u);
    expect(checkRecorderFilename(refused.suggestion, new Date(), { recorder: true })).toEqual({ ok: true });
  });

  it('holds them when no recorder is configured (the spec: memory only)', () => {
    expect(checkRecorderFilename('20261203_Ke$ha_Interview')).toEqual({ ok: true });
    expect(checkRecorderFilename('ep `quoted`')).toEqual({ ok: true });
  });
});

describe('reconnecting to OBS', () => {
  it('waits 1 s, doubling to at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((failures) => reconnectDelayMs(failures))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('the line when no name is held (DESIGN §6.7, issue #41.2)', () => {
  const at = new Date(2026, 11, 2, 14, 5, 9);
  const line = (cleared: string | null, obsFilename: string | null, recorder = true) =>
    noNameLine({ cleared, time: '09:15', obsFilename, recorder }, at);

  it('says the next recording is named right when OBS kept the name the restart cleared', () => {
    expect(line('ep42_T02', 'ep42_T02')).toEqual({
      ok: true,
      sentence: 'The next recording will be named ep42_T02: OBS kept it when the bridge restarted at 09:15.',
    });
  });

  it('says what OBS will use instead, and to set the name again, when OBS holds another', () => {
    expect(line('ep42_T02', 'other')).toEqual({
      ok: false,
      sentence:
        'The next recording will be named other, not ep42_T02, which the bridge forgot when it restarted at 09:15: set it again before recording.',
    });
    expect(line('ep42_T02', '%CCYY-%MM-%DD %hh-%mm-%ss').sentence).toContain(
      "OBS's own date-and-time name (like 2026-12-02 14-05-09), not ep42_T02",
    );
  });

  it('never says "no filename set" and "OBS will use" in one breath', () => {
    for (const [cleared, obs, recorder] of [
      ['ep42', 'ep42', true],
      ['ep42', 'x', true],
      ['ep42', null, true],
      [null, 'x', true],
      [null, null, true],
      ['ep42', null, false],
      [null, null, false],
    ] as const) {
      const { sentence } = line(cleared, obs, recorder);
      expect(sentence.split('. ').length, sentence).toBe(1);
      expect(sentence).not.toMatch(/No filename set:.*will use/);
    }
  });

  it('asks for the name again when OBS has not said, or with no recorder', () => {
    expect(line('ep42', null)).toMatchObject({
      ok: false,
      sentence: expect.stringContaining('may not be named ep42'),
    });
    expect(line('ep42', null, false)).toMatchObject({
      ok: false,
      sentence: expect.stringContaining('set it again before the next recording'),
    });
  });

  it("says OBS's own format as words", () => {
    expect(obsNameWords('%CCYY-%MM-%DD %hh-%mm-%ss', at)).not.toContain('%');
    expect(obsNameWords('ep42_T02', at)).toBe('ep42_T02');
  });
});
