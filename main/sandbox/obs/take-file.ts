import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Below this, FFmpeg is still given a few frames to write. */
const SHORTEST_S = 0.2;

/** What the simulated OBS draws its timecode with: a TrueType file, named relative to FFmpeg's working folder. */
export interface TakeFont {
  dir: string;
  file: string;
}

/**
 * FFmpeg's arguments for a simulated take: 640×360 at 15 fps, FFmpeg's test picture with the take's
 * running timecode drawn on it, centred low so a 9:16 window keeps it (the font is named relative to the working folder, its own, so no
 * path needs escaping inside the filter) and a 440 Hz tone, made fast.
 */
export function simulatedTakeArgs(file: string, seconds: number, font: TakeFont): string[] {
  const duration = Math.max(SHORTEST_S, seconds).toFixed(3);
  const timecode = [
    `drawtext=fontfile=${font.file}`,
    `text='%{pts\\:hms}'`,
    'x=(w-tw)/2',
    'y=h-th-16',
    'fontsize=24',
    'fontcolor=white',
    'box=1',
    'boxcolor=black@0.6',
    'boxborderw=6',
  ].join(':');
  return [
    ...['-v', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=640x360:rate=15:duration=${duration}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${duration}`],
    ...['-vf', timecode],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', file],
  ];
}

/**
 * What the simulated OBS writes when a take stops, when FFmpeg is there (DESIGN §8): a small real
 * file of the take's length with a running timecode and a tone, so renders can be rehearsed in the
 * sandbox. Resolves when it is written (or FFmpeg failed: OBS reports the stop either way).
 */
export function writeSimulatedTake(
  ffmpeg: string,
  font: TakeFont,
  file: string,
  seconds: number,
): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const absolute = path.resolve(file);
  return new Promise((resolve) => {
    execFile(ffmpeg, simulatedTakeArgs(absolute, seconds, font), { cwd: font.dir }, (error) => {
      if (!error) chmodSync(absolute, 0o600);
      resolve();
    });
  });
}
