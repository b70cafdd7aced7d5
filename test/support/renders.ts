import { execFileSync, spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { RecorderTake } from '../../shared/api/recorder.js';
import type { RenderRecord } from '../../shared/api/renders.js';
import type { SandboxObs } from '../../main/sandbox/index.js';
import { eventually, type TestBridge } from './bridge.js';

/**
 * What the render tests share: a take's file made with FFmpeg (a 1080p test picture and a tone, as
 * OBS would have written it), a take recorded on the simulated OBS with a mark, a short transcript
 * analysed so the mark pins a 2-second clip (a transcript shorter than 15 s pins the sentence
 * around the mark as it is), and ffprobe's reading of what a render wrote.
 */

/** 1920×1080 at 30 fps, a 440 Hz tone in stereo AAC, `seconds` long: made fast (ultrafast). */
export function writeTakeFile(ffmpeg: string, file: string, seconds: number): void {
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-ac', '2', '-shortest', file],
  ]);
}

/** One sentence from 0.5 s to 2.5 s: the mark at 1.5 s pins it, a clip of 2 s (kept short: renders are slow). */
export const SHORT_TRANSCRIPT = `1
00:00:00,500 --> 00:00:02,500
HOST: Our costs stayed under five percent of sales, and margins went past forty.
`;
export const CLIP = { startTime: 0.5, endTime: 2.5 };

/**
 * Records a take on the simulated OBS (the bridge's clock, `advance`, moves it), marking it at 1.5 s.
 * The simulated OBS writes no file: `writeFile` makes it at the path OBS names, once it names it
 * (a file there before would make the recorder pick the next name, as it does with a real OBS),
 * and OBS reports the take stopped once it is written.
 */
export async function recordTake(
  bridge: TestBridge,
  obs: SandboxObs,
  advance: (seconds: number) => void,
  filename: string,
  seconds: number,
  writeFile?: (file: string) => void,
): Promise<RecorderTake> {
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
  await bridge.call('POST', '/api/recorder/filename', { body: { filename } });
  await eventually(async () => (await bridge.call('GET', '/api/recorder/filename')).body.state === 'applied');
  obs.startRecording();
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
  advance(1.5);
  await bridge.call('POST', '/api/recorder/marks', { body: { label: 'prices' } });
  advance(seconds - 1.5);
  const path = obs.stopRecording({ finish: 'later' });
  writeFile?.(path);
  obs.finishStopping();
  return eventually(async () => {
    const list = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
    return list.find((take) => take.filePath === path && take.stoppedAt !== null) ?? null;
  });
}

/** Analyses the short transcript with its take: suggestion 1 is the 2-second clip the mark pinned. */
export async function analyseTake(bridge: TestBridge, takeId: number): Promise<string> {
  const answer = await bridge.call('POST', '/clips/analyze', {
    body: { contentProductionId: 'episode-52', transcript: SHORT_TRANSCRIPT, maxClips: 1, takeId },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.suggestedClips[0]).toMatchObject(CLIP);
  return answer.body.analysisId as string;
}

export async function startRender(
  bridge: TestBridge,
  analysisId: string,
  body: { formats: string[]; captions: boolean; cropX?: number },
): Promise<RenderRecord> {
  const answer = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/render`, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.render as RenderRecord;
}

export const renderOf = async (bridge: TestBridge, id: string): Promise<RenderRecord> =>
  (await bridge.call('GET', `/api/renders/${id}`)).body.render as RenderRecord;

/** Waits for the render to end (done, failed or cancelled); renders take seconds on a loaded machine. */
export const renderEnded = (bridge: TestBridge, id: string): Promise<RenderRecord> =>
  eventually(
    async () => {
      const render = await renderOf(bridge, id);
      return ['done', 'failed', 'cancelled'].includes(render.state) ? render : null;
    },
    90_000,
    200,
  );

export interface ProbedStream {
  codec_type: 'video' | 'audio';
  codec_name: string;
  width?: number;
  height?: number;
  duration?: string;
  pix_fmt?: string;
}

export function probe(
  ffprobe: string,
  file: string,
): { streams: ProbedStream[]; format: { duration: string } } {
  return JSON.parse(
    execFileSync(
      ffprobe,
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,width,height,duration,pix_fmt:format=duration',
        '-of',
        'json',
        file,
      ],
      { encoding: 'utf8' },
    ),
  ) as { streams: ProbedStream[]; format: { duration: string } };
}

/** EBU R128 integrated loudness of a file, as FFmpeg's ebur128 filter measures it. */
export function integratedLoudness(ffmpeg: string, file: string): number {
  const { stderr } = spawnSync(
    ffmpeg,
    ['-hide_banner', '-nostats', '-i', file, '-vn', '-af', 'ebur128=framelog=verbose', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderr.slice(stderr.lastIndexOf('Summary:')))![1]);
}

/** The picture at `seconds` as 8-bit luma, one byte a pixel, row by row. */
export function lumaAt(ffmpeg: string, file: string, seconds: number): Buffer {
  return execFileSync(
    ffmpeg,
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Mean absolute difference of two pictures' luma in rows [top, bottom). */
export function meanDifference(a: Buffer, b: Buffer, width: number, top: number, bottom: number): number {
  let sum = 0;
  for (let i = top * width; i < bottom * width; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / ((bottom - top) * width);
}
