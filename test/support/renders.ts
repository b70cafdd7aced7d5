import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { BridgeTuning, StartBridgeOptions } from '../../main/app.js';
import type { RecorderTake } from '../../shared/api/recorder.js';
import type { RenderRecord } from '../../shared/api/renders.js';
import { startSandboxObs, type SandboxObs } from '../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from './bridge.js';
import type { TestClock } from './clock.js';
import { recordTake } from './takes.js';
import { tempDir, type TempDir } from './temp-dir.js';
import { outsideTool } from './tools.js';

/**
 * What the render tests share: a take's file made with FFmpeg (a 1080p test picture and a tone, as
 * OBS would have written it), a take recorded on the simulated OBS with a mark, a short transcript
 * analysed so the mark pins a 2-second clip (a transcript shorter than 15 s pins the sentence
 * around the mark as it is), the harness that opens each render test with those, and ffprobe's
 * reading of what a render wrote.
 */

/** FFmpeg and ffprobe (FFMPEG_PATH, FFPROBE_PATH or PATH), and why the render tests skip without one. */
export function renderTools() {
  const ffmpeg = outsideTool('ffmpeg', 'FFMPEG_PATH');
  const ffprobe = outsideTool('ffprobe', 'FFPROBE_PATH');
  return { ffmpeg, ffprobe, skipped: ffmpeg.skipped || ffprobe.skipped };
}

/** 1920×1080 at 30 fps, a 440 Hz tone in stereo AAC, `seconds` long: made fast (ultrafast). */
function writeTakeFile(ffmpeg: string, file: string, seconds: number): void {
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-ac', '2', '-shortest', file],
  ]);
}

/** One sentence from 0.5 s to 2.5 s: the mark at 1.5 s pins it, a clip of 2 s (kept short: renders are slow). */
const SHORT_TRANSCRIPT = `1
00:00:00,500 --> 00:00:02,500
HOST: Our costs stayed under five percent of sales, and margins went past forty.
`;
export const CLIP = { startTime: 0.5, endTime: 2.5 };
/** The mark the short transcript's sentence is pinned by. */
const MARK = { label: 'prices', at: 1.5 };

/** Analyses the short transcript with its take: suggestion 1 is the 2-second clip the mark pinned. */
export async function analyseTake(
  bridge: TestBridge,
  takeId: number,
  contentProductionId = 'episode-52',
): Promise<string> {
  const answer = await bridge.call('POST', '/clips/analyze', {
    body: { contentProductionId, transcript: SHORT_TRANSCRIPT, maxClips: 1, takeId },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.suggestedClips[0]).toMatchObject(CLIP);
  return answer.body.analysisId as string;
}

/** A take `seconds` long marked at 1.5 s, its file made by FFmpeg `fileSeconds` long (none: no file). */
export const markedTake = (
  ffmpeg: string,
  filename: string,
  seconds: number,
  fileSeconds: number | null = seconds,
): Parameters<typeof recordTake>[3] => ({
  filename,
  seconds,
  marks: [MARK],
  ...(fileSeconds === null ? {} : { writeFile: (file: string) => writeTakeFile(ffmpeg, file, fileSeconds) }),
});

export interface RenderHarness {
  readonly obs: SandboxObs;
  /** The bridge running now: `startBridge` replaces it. */
  readonly bridge: TestBridge;
  readonly dataDir: string;
  /** The 6-second take, its file written, marked at 1.5 s. */
  readonly take: RecorderTake;
  /** Its short transcript's analysis: suggestion 1 is the 2-second clip. */
  readonly analysisId: string;
  /** Starts the bridge (again, once the test stopped it) on the same data dir; `env` changes its environment. */
  startBridge(env?: Record<string, string>): Promise<TestBridge>;
  /** Closes the bridge, stops the simulated OBS and removes the temp dir. */
  close(): Promise<void>;
}

/**
 * How each render test opens: the simulated OBS recording into a temp dir, a bridge on a data dir
 * there with FFmpeg and ffprobe set (and `env`'s peers), a 6-second take recorded with its file,
 * and its short transcript analysed. What was started is stopped again if a step fails.
 */
export async function startRenderHarness(options: {
  /** The temp dir's prefix. */
  name: string;
  clock: TestClock;
  tools: { ffmpeg: string; ffprobe: string };
  takeName: string;
  /** The data dir's name in the temp dir (one test puts characters there that filters must escape). */
  dataDirName?: string;
  /** More of the bridge's environment: other peers. */
  env?: Record<string, string>;
  areas?: StartBridgeOptions['areas'];
  tuning?: BridgeTuning;
  /** The production the transcript is analysed for. */
  contentProductionId?: string;
}): Promise<RenderHarness> {
  const { clock, tools } = options;
  const root: TempDir = tempDir(options.name);
  const videos = path.join(root.path, 'videos');
  const dataDir = path.join(root.path, options.dataDirName ?? 'data');
  mkdirSync(videos);
  mkdirSync(dataDir, { mode: 0o700 });
  let obs: SandboxObs | undefined;
  let bridge: TestBridge | undefined;
  try {
    obs = await startSandboxObs({ now: clock.now, recordingDir: videos });
    const env = {
      RECORDER_OBS_URL: obs.url,
      FFMPEG_PATH: tools.ffmpeg,
      FFPROBE_PATH: tools.ffprobe,
      ...options.env,
    };
    const startBridge = async (more: Record<string, string> = {}) => {
      bridge = await startTestBridge(
        { ...env, ...more },
        {
          areas: options.areas ?? ['recorder', 'clips', 'renders', 'health'],
          now: clock.now,
          dataDir,
          ...(options.tuning ? { tuning: options.tuning } : {}),
        },
      );
      return bridge;
    };
    const first = await startBridge();
    const take = await recordTake(first, obs, clock.advance, markedTake(tools.ffmpeg, options.takeName, 6));
    const analysisId = await analyseTake(first, take.id, options.contentProductionId);
    const started = obs;
    return {
      obs: started,
      get bridge() {
        return bridge!;
      },
      dataDir,
      take,
      analysisId,
      startBridge,
      async close() {
        await bridge?.close();
        await started.stop();
        root.remove();
      },
    };
  } catch (error) {
    await bridge?.close();
    await obs?.stop();
    root.remove();
    throw error;
  }
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
