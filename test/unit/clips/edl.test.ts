import { describe, expect, it } from 'vitest';
import { editTimeline, frameAt, timecodeOf } from '../../../main/areas/clips/edit-timeline.js';
import { buildEdl } from '../../../main/areas/clips/edl.js';

describe('EDL timecode (smpte-timecode, DESIGN §6.6)', () => {
  it('drop-frame at 29.97 and 59.94 as §6.6 pins them', () => {
    expect(timecodeOf(1800, '29.97')).toBe('00:01:00;02');
    expect(timecodeOf(17982, '29.97')).toBe('00:10:00;00');
    expect(timecodeOf(3600, '59.94')).toBe('00:01:00;04');
    expect(timecodeOf(35964, '59.94')).toBe('00:10:00;00');
    // The frames before a dropped count, and a whole hour.
    expect([timecodeOf(1799, '29.97'), timecodeOf(3599, '59.94')]).toEqual(['00:00:59;29', '00:00:59;59']);
    expect([timecodeOf(107892, '29.97'), timecodeOf(215784, '59.94')]).toEqual([
      '01:00:00;00',
      '01:00:00;00',
    ]);
  });

  it('non-drop rates count whole frames; 23.976 counts 24 a second of timecode', () => {
    expect(timecodeOf(25 * 3600, '25')).toBe('01:00:00:00');
    expect(timecodeOf(24 * 61 + 5, '23.976')).toBe('00:01:01:05');
    expect(timecodeOf(60 * 90 + 59, '60')).toBe('00:01:30:59');
    expect(timecodeOf(50 * 10 + 49, '50')).toBe('00:00:10:49');
  });

  it('places a moment of the recording on the frame of its real time', () => {
    expect(frameAt(60, '29.97')).toBe(1798); // 60 s × 30000/1001 = 1798.2
    expect(frameAt(60, '59.94')).toBe(3596);
    expect(frameAt(12.48, '25')).toBe(312);
  });

  it('writes a frame in non-drop notation when asked (the LOC lines OTIO reads)', () => {
    expect(timecodeOf(1800, '29.97', false)).toBe('00:01:00:00');
    expect(timecodeOf(107892, '29.97', false)).toBe('00:59:56:12');
  });
});

describe('CMX3600 EDL title (DESIGN §6.6)', () => {
  it('keeps the title to one line of at most 70 characters', () => {
    const long = buildEdl(
      editTimeline({ title: `a\nb${'x'.repeat(100)}`, fps: '24', order: 'rank', take: null, clips: [] }),
    );
    expect(long.split('\n')[0]).toBe(`TITLE: a b${'x'.repeat(67)}`);
  });

  it('says DROP FRAME and writes ; at 29.97 and 59.94', () => {
    for (const fps of ['29.97', '59.94'] as const) {
      const drop = buildEdl(
        editTimeline({
          title: 't',
          fps,
          order: 'rank',
          take: null,
          clips: [{ n: 1, startTime: 60, endTime: 90, name: 'x' }],
        }),
      );
      const event = drop.split('\n')[3]!;
      expect(drop.split('\n')[1]).toBe('FCM: DROP FRAME');
      expect(event.slice(53, 64)).toBe('01:00:00;00');
      expect(event.slice(29, 40)).toBe(timecodeOf(frameAt(60, fps), fps));
      expect(event).toHaveLength(76);
    }
  });
});
