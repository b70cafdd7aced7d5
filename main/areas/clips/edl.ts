import Timecode from 'smpte-timecode';
import type { EdlFrameRate } from '../../../shared/api/clips.js';

/**
 * A CMX3600 EDL of an analysis's clips (DESIGN §6.6): the title line, the `FCM:` line, then one cut
 * per clip, source in/out from the recording, record in/out laid end to end from 01:00:00:00,
 * each followed by `* FROM CLIP NAME: <take file name>`. Timecodes by smpte-timecode, which gets
 * §6.6's drop-frame values right at 29.97 and 59.94 (test/unit/clips/edl.test.ts pins them).
 */

interface Rate {
  /** As smpte-timecode takes it: a whole rate, or numerator and denominator (23.976 = 24000/1001). */
  timecodeRate: number | [number, number];
  /** Frames per second of real time: seconds × this, rounded, is a frame count. */
  framesPerSecond: number;
  dropFrame: boolean;
}

export const edlRates: Record<EdlFrameRate, Rate> = {
  '23.976': { timecodeRate: [24000, 1001], framesPerSecond: 24000 / 1001, dropFrame: false },
  '24': { timecodeRate: 24, framesPerSecond: 24, dropFrame: false },
  '25': { timecodeRate: 25, framesPerSecond: 25, dropFrame: false },
  '29.97': { timecodeRate: [30000, 1001], framesPerSecond: 30000 / 1001, dropFrame: true },
  '30': { timecodeRate: 30, framesPerSecond: 30, dropFrame: false },
  '50': { timecodeRate: 50, framesPerSecond: 50, dropFrame: false },
  '59.94': { timecodeRate: [60000, 1001], framesPerSecond: 60000 / 1001, dropFrame: true },
  '60': { timecodeRate: 60, framesPerSecond: 60, dropFrame: false },
};

/** The timecode of a frame count: `HH:MM:SS:FF`, or `HH:MM:SS;FF` drop-frame. */
export function timecodeOf(frames: number, fps: EdlFrameRate): string {
  const rate = edlRates[fps];
  return new Timecode(frames, rate.timecodeRate, rate.dropFrame).toString();
}

/** The frame a moment of the recording (seconds from its start) falls on. */
export function frameAt(seconds: number, fps: EdlFrameRate): number {
  return Math.round(seconds * edlRates[fps].framesPerSecond);
}

/** The frame count of 01:00:00:00, where the record timeline starts. */
function oneHour(fps: EdlFrameRate): number {
  const rate = edlRates[fps];
  return new Timecode(rate.dropFrame ? '01:00:00;00' : '01:00:00:00', rate.timecodeRate, rate.dropFrame)
    .frameCount;
}

/** 8 characters from the take's file name: letters and digits, upper case; `AX` (auxiliary) without. */
export function reelName(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '');
  const reel = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, 8);
  return (reel || 'AX').padEnd(8, ' ');
}

/** One line of text for the EDL: no line breaks or control characters. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(); // eslint-disable-line no-control-regex

export interface EdlInput {
  title: string;
  /** The take's file name: the clip name, and the reel name's source. */
  clipName: string;
  fps: EdlFrameRate;
  /** Seconds into the recording, in timeline order. */
  clips: ReadonlyArray<{ startTime: number; endTime: number }>;
}

export function buildEdl(input: EdlInput): string {
  const { fps } = input;
  const reel = reelName(input.clipName);
  const lines = [
    `TITLE: ${oneLine(input.title).slice(0, 70)}`,
    `FCM: ${edlRates[fps].dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`,
  ];
  let record = oneHour(fps);
  input.clips.forEach((clip, i) => {
    const sourceIn = frameAt(clip.startTime, fps);
    const sourceOut = Math.max(sourceIn + 1, frameAt(clip.endTime, fps));
    const recordOut = record + (sourceOut - sourceIn);
    // Columns of CMX3600: event 1–3, reel 6–13, track 15–19, edit 21–24, transition 26–28, then
    // source in 30–40, source out 42–52, record in 54–64, record out 66–76.
    lines.push(
      '',
      `${String(i + 1).padStart(3, '0')}  ${reel} V     C        ${timecodeOf(sourceIn, fps)} ${timecodeOf(sourceOut, fps)} ${timecodeOf(record, fps)} ${timecodeOf(recordOut, fps)}`,
      `* FROM CLIP NAME: ${oneLine(input.clipName)}`,
    );
    record = recordOut;
  });
  return `${lines.join('\n')}\n`;
}
