import { execFile } from 'node:child_process';

/** Width of the frame the operator places the 9:16 and 1:1 windows on. */
const PREVIEW_WIDTH = 640;
const FRAME_TIMEOUT_MS = 30_000;

/** One frame of `file` at `seconds`, as a JPEG 640 pixels wide; null when FFmpeg could not make it. */
export function previewFrame(ffmpeg: string, file: string, seconds: number): Promise<Buffer | null> {
  const args = [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-ss', seconds.toFixed(3), '-i', file],
    ...[
      '-frames:v',
      '1',
      '-vf',
      `scale=${PREVIEW_WIDTH}:-2`,
      '-q:v',
      '4',
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      '-',
    ],
  ];
  return new Promise((resolve) => {
    execFile(
      ffmpeg,
      args,
      { encoding: 'buffer', timeout: FRAME_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout) => resolve(error || stdout.length === 0 ? null : stdout),
    );
  });
}
