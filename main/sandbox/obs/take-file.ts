import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Below this, FFmpeg is still given a few frames to write. */
const SHORTEST_S = 0.2;

/**
 * What the simulated OBS writes when a take stops, when FFmpeg is there (DESIGN §8): a small real
 * file of the take's length — 640×360 at 15 fps, FFmpeg's test picture with its running clock and
 * a tone, made fast — so renders can be rehearsed in the sandbox. Resolves when it is written (or
 * FFmpeg failed: OBS reports the stop either way).
 */
export function writeSimulatedTake(ffmpeg: string, file: string, seconds: number): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const duration = Math.max(SHORTEST_S, seconds).toFixed(3);
  const args = [
    ...['-v', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=640x360:rate=15:duration=${duration}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${duration}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', file],
  ];
  return new Promise((resolve) => {
    execFile(ffmpeg, args, (error) => {
      if (!error) chmodSync(file, 0o600);
      resolve();
    });
  });
}
