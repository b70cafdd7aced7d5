import { execFile } from 'node:child_process';

const THUMBNAIL_TIMEOUT_MS = 60_000;

/** One frame of a rendered file at `seconds`, at its own size, as a JPEG written to `out`; false when FFmpeg could not. */
export function writeThumbnail(ffmpeg: string, file: string, seconds: number, out: string): Promise<boolean> {
  const args = [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-ss', seconds.toFixed(3), '-i', file],
    ...['-frames:v', '1', '-q:v', '3', '-f', 'image2', '-c:v', 'mjpeg', out],
  ];
  return new Promise((resolve) => {
    execFile(ffmpeg, args, { timeout: THUMBNAIL_TIMEOUT_MS }, (error) => resolve(!error));
  });
}
