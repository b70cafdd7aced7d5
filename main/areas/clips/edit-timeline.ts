import Timecode from 'smpte-timecode';
import { formatClipTime } from '../../../shared/api/clips.js';
import { frameRateFractions, type EdlFrameRate } from '../../../shared/frame-rates.js';

/**
 * The cut an editor conforms (issue #39), decided once and written as EDL, OTIO and FCP7 XML
 * alike, so the three agree on every in/out and marker: one event per clip, source in/out on the
 * take's frames, record laid end to end from 01:00:00:00, the take's reel, file and audio, and each
 * live mark on the clip it falls in.
 */
export interface TimelineTake {
  name: string;
  fileName: string;
  filePath: string | null;
  reel: string;
  durationS: number | null;
  /** The file's audio channels; null when the bridge could not read the file. */
  audioChannels: number | null;
  video: { width: number; height: number } | null;
  marks: ReadonlyArray<{ id: number; offsetS: number; label: string | null }>;
}

export interface TimelineClip {
  /** The suggestion's number (its rank, 1 for the first). */
  n: number;
  startTime: number;
  endTime: number;
  /** What the clip is about: its hook, else its topic. */
  name: string;
}

export interface TimelineInput {
  title: string;
  fps: EdlFrameRate;
  /** rank: as suggested; source: as recorded. */
  order: 'rank' | 'source';
  take: TimelineTake | null;
  clips: readonly TimelineClip[];
}

export interface TimelineMarker {
  /** Frame of the take (source time). */
  frame: number;
  name: string;
}

export interface TimelineEvent {
  n: number;
  name: string;
  startTime: number;
  endTime: number;
  sourceIn: number;
  sourceOut: number;
  recordIn: number;
  recordOut: number;
  markers: TimelineMarker[];
}

export interface TimelineRate {
  fps: EdlFrameRate;
  /** As smpte-timecode takes it: a whole rate, or numerator and denominator. */
  timecodeRate: number | [number, number];
  framesPerSecond: number;
  dropFrame: boolean;
  /** Whole frames a second of timecode (30 at 29.97), FCP7's timebase. */
  timebase: number;
  /** 23.976, 29.97, 59.94: FCP7's ntsc. */
  ntsc: boolean;
}

export interface TimelineAudio {
  /** Channels carried: 2 (A1, A2), 1 (A1) or 0. */
  channels: 0 | 1 | 2;
  /** CMX3600 channels of each event: AA/V stereo, B (V and A1) mono, V without audio. */
  code: 'AA/V' | 'B' | 'V';
  /** The file could not be read: stereo, OBS's default, assumed. */
  assumed: boolean;
}

export interface EditTimeline {
  title: string;
  rate: TimelineRate;
  reel: string;
  take: TimelineTake | null;
  audio: TimelineAudio;
  /** The frame count of 01:00:00:00. */
  startFrame: number;
  events: TimelineEvent[];
  warnings: string[];
}

/** A reel for what has no take of its own: auxiliary, by convention. */
export const NO_REEL = 'AX';
/** A clip's end past its take's by more than this is a warning (rounding stays quiet). */
const PAST_END_TOLERANCE_S = 0.5;

export function timelineRate(fps: EdlFrameRate): TimelineRate {
  const { numerator, denominator } = frameRateFractions[fps];
  const dropFrame = fps === '29.97' || fps === '59.94';
  return {
    fps,
    timecodeRate: denominator === 1 ? numerator : [numerator, denominator],
    framesPerSecond: numerator / denominator,
    dropFrame,
    timebase: Math.round(numerator / denominator),
    ntsc: denominator === 1001,
  };
}

/** The frame a moment of the recording (seconds from its start) falls on. */
export function frameAt(seconds: number, fps: EdlFrameRate): number {
  return Math.round(seconds * timelineRate(fps).framesPerSecond);
}

/**
 * The timecode of a frame count: `HH:MM:SS:FF`, or `HH:MM:SS;FF` drop-frame at 29.97 and 59.94
 * (smpte-timecode counts it; test/unit/clips/edl.test.ts pins DESIGN §6.6's values). `dropFrame`
 * false writes the same frame in non-drop notation.
 */
export function timecodeOf(
  frames: number,
  fps: EdlFrameRate,
  dropFrame = timelineRate(fps).dropFrame,
): string {
  return new Timecode(frames, timelineRate(fps).timecodeRate, dropFrame).toString();
}

function audioOf(take: TimelineTake | null): TimelineAudio {
  const channels = take?.audioChannels ?? null;
  if (channels === null) return { channels: 2, code: 'AA/V', assumed: true };
  if (channels === 0) return { channels: 0, code: 'V', assumed: false };
  if (channels === 1) return { channels: 1, code: 'B', assumed: false };
  return { channels: 2, code: 'AA/V', assumed: false };
}

const seconds = (s: number) => `${Number(s.toFixed(2))} s`;

export function editTimeline(input: TimelineInput): EditTimeline {
  const rate = timelineRate(input.fps);
  const { take } = input;
  const startFrame = new Timecode(
    rate.dropFrame ? '01:00:00;00' : '01:00:00:00',
    rate.timecodeRate,
    rate.dropFrame,
  ).frameCount;
  const clips =
    input.order === 'source'
      ? [...input.clips].sort((a, b) => a.startTime - b.startTime || a.n - b.n)
      : input.clips;
  let record = startFrame;
  const events = clips.map((clip): TimelineEvent => {
    const sourceIn = frameAt(clip.startTime, input.fps);
    const sourceOut = Math.max(sourceIn + 1, frameAt(clip.endTime, input.fps));
    const markers = (take?.marks ?? [])
      .map((mark) => ({ frame: frameAt(mark.offsetS, input.fps), name: mark.label ?? `mark ${mark.id}` }))
      .filter((marker) => marker.frame >= sourceIn && marker.frame < sourceOut);
    const event = {
      n: clip.n,
      name: clip.name,
      startTime: clip.startTime,
      endTime: clip.endTime,
      sourceIn,
      sourceOut,
      recordIn: record,
      recordOut: record + (sourceOut - sourceIn),
      markers,
    };
    record = event.recordOut;
    return event;
  });
  const audio = audioOf(take);
  const warnings: string[] = [];
  if (!take) {
    warnings.push(
      `no take: the analysis was not made of a recorder take, so its events have reel ${NO_REEL} (auxiliary) and name no file; analyse with the take (takeId) to conform by reel and path`,
    );
  } else {
    if (audio.assumed) {
      warnings.push(
        `audio: the bridge could not read the take's file (${take.filePath ?? 'not reported'}); OBS records stereo by default, so events carry AA/V`,
      );
    }
    const past =
      take.durationS === null ? [] : events.filter((e) => e.endTime > take.durationS! + PAST_END_TOLERANCE_S);
    if (past.length > 0) {
      const latest = Math.max(...past.map((e) => e.endTime));
      warnings.push(
        `the clips cut up to ${seconds(latest)} (${formatClipTime(latest)}) into take ${take.name}, which lasted ${seconds(take.durationS!)}: ${past.length === 1 ? `clip ${past[0]!.n} runs` : `clips ${past.map((e) => e.n).join(', ')} run`} past the end of the recording (is the transcript of this take?)`,
      );
    }
  }
  return { title: input.title, rate, reel: take?.reel ?? NO_REEL, take, audio, startFrame, events, warnings };
}
