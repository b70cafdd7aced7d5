import { describe, expect, it } from 'vitest';
import { buildEdl, frameAt, reelName, timecodeOf } from '../../../main/areas/clips/edl.js';

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

  it('makes an 8-character reel name from the take file name', () => {
    expect(reelName('Ep12 Guest_T02.mkv')).toBe('EP12GUES');
    expect(reelName('été.mp4')).toBe('ETE     ');
    expect(reelName('—.mkv')).toBe('AX      ');
  });
});

describe('CMX3600 EDL (DESIGN §6.6)', () => {
  const edl = buildEdl({
    title: 'Ep12 Guest_T02',
    clipName: 'Ep12 Guest_T02.mkv',
    fps: '25',
    clips: [
      { startTime: 754.2, endTime: 801.96 },
      { startTime: 10, endTime: 35.5 },
    ],
  });
  const lines = edl.split('\n');

  it('has the title line, the FCM line, one event and its clip name per clip', () => {
    expect(lines).toEqual([
      'TITLE: Ep12 Guest_T02',
      'FCM: NON-DROP FRAME',
      '',
      '001  EP12GUES V     C        00:12:34:05 00:13:21:24 01:00:00:00 01:00:47:19',
      '* FROM CLIP NAME: Ep12 Guest_T02.mkv',
      '',
      '002  EP12GUES V     C        00:00:10:00 00:00:35:13 01:00:47:19 01:01:13:07',
      '* FROM CLIP NAME: Ep12 Guest_T02.mkv',
      '',
    ]);
  });

  it('puts every field of an event in its CMX3600 columns', () => {
    for (const event of [lines[3]!, lines[6]!]) {
      expect(event).toHaveLength(76);
      const column = (from: number, to: number) => event.slice(from - 1, to); // 1-based, inclusive
      expect(column(1, 3)).toMatch(/^\d{3}$/); // event number
      expect(column(4, 5)).toBe('  ');
      expect(column(6, 13)).toBe('EP12GUES'); // reel, 8 characters
      expect(column(14, 14)).toBe(' ');
      expect(column(15, 19)).toBe('V    '); // track
      expect(column(20, 20)).toBe(' ');
      expect(column(21, 24)).toBe('C   '); // edit: cut
      expect(column(25, 29)).toBe('     '); // no transition duration for a cut
      const timecode = /^\d{2}:\d{2}:\d{2}[:;]\d{2}$/;
      for (const [from, to] of [
        [30, 40], // source in
        [42, 52], // source out
        [54, 64], // record in
        [66, 76], // record out
      ] as const) {
        expect(column(from, to)).toMatch(timecode);
        if (from > 30) expect(column(from - 1, from - 1)).toBe(' ');
      }
    }
    // Record: contiguous from 01:00:00:00, each event as long as its source.
    expect(lines[3]!.slice(53, 64)).toBe('01:00:00:00');
    expect(lines[6]!.slice(53, 64)).toBe(lines[3]!.slice(65, 76));
  });

  it('says DROP FRAME and writes ; at 29.97 and 59.94', () => {
    for (const fps of ['29.97', '59.94'] as const) {
      const drop = buildEdl({ title: 't', clipName: 't.mkv', fps, clips: [{ startTime: 60, endTime: 90 }] });
      const event = drop.split('\n')[3]!;
      expect(drop.split('\n')[1]).toBe('FCM: DROP FRAME');
      expect(event.slice(53, 64)).toBe('01:00:00;00');
      expect(event.slice(29, 40)).toBe(timecodeOf(frameAt(60, fps), fps));
      expect(event).toHaveLength(76);
    }
  });

  it('keeps the title to one line of at most 70 characters', () => {
    const long = buildEdl({ title: `a\nb${'x'.repeat(100)}`, clipName: 'c', fps: '24', clips: [] });
    expect(long.split('\n')[0]).toBe(`TITLE: a b${'x'.repeat(67)}`);
  });
});
