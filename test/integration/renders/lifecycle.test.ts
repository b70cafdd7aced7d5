import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderRecord } from '../../../shared/api/renders.js';
import { npmFfmpeg } from '../../../main/kernel/media-tools.js';
import type { SandboxObs } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { testClock } from '../../support/clock.js';
import {
  analyseTake,
  markedTake,
  probe,
  renderEnded,
  renderOf,
  renderTools,
  startRender,
  startRenderHarness,
  type RenderHarness,
} from '../../support/renders.js';
import { recordTake } from '../../support/takes.js';

/**
 * Issue #43, a render's life: refused in words before any work (the take's file not readable here,
 * a take shorter than the clip, no room on the disk); one at a time, a queued one cancelled at
 * once and a running one stopped with no part of a file left; interrupted by a restart, started
 * again from zero and said so; and one render through the FFmpeg 4.1 shipped in the npm package,
 * with no ffprobe (the take read by FFmpeg itself).
 */
const { ffmpeg, ffprobe, skipped } = renderTools();
const clock = testClock('2026-12-02T09:00:00.000Z');
const { now, advance } = clock;

let harness: RenderHarness;
let dataDir: string;
let obs: SandboxObs;
let bridge: TestBridge;
let analysisId: string;
/** What the disk is said to have free (null: plenty). */
let diskFree: number | null = null;

beforeAll(async () => {
  if (skipped) return;
  harness = await startRenderHarness({
    name: 'render-life',
    clock,
    tools: { ffmpeg: ffmpeg.path!, ffprobe: ffprobe.path! },
    takeName: '20261202_Episode_53',
    tuning: { renders: { freeSpace: async () => diskFree ?? Number.MAX_SAFE_INTEGER } },
  });
  ({ dataDir, obs, bridge, analysisId } = harness);
}, 60_000);
afterAll(() => harness?.close());

const rendersOf = async (id: string) =>
  (await bridge.call('GET', `/api/renders?analysisId=${id}`)).body.renders as RenderRecord[];

describe(`refused in words before any work${skipped}`, () => {
  it('a take whose file the bridge cannot read: 409 naming the file, nothing queued', async (context) => {
    if (skipped) return context.skip();
    const take = await recordTake(
      bridge,
      obs,
      advance,
      markedTake(ffmpeg.path!, '20261202_Elsewhere', 6, null),
    );
    const id = await analyseTake(bridge, take.id);
    const answer = await bridge.call('POST', `/clips/analyses/${id}/clips/1/render`, {
      body: { formats: ['9x16'], captions: true },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('CONFLICT');
    expect(answer.body.error).toContain(take.filePath);
    expect(answer.body.error).toContain('cannot be read');
    expect(await rendersOf(id)).toEqual([]);
  });

  it('a take shorter than the clip: 409 naming both lengths', async (context) => {
    if (skipped) return context.skip();
    const take = await recordTake(bridge, obs, advance, markedTake(ffmpeg.path!, '20261202_Cut_Short', 6, 1));
    const id = await analyseTake(bridge, take.id);
    const answer = await bridge.call('POST', `/clips/analyses/${id}/clips/1/render`, {
      body: { formats: ['1x1'], captions: false },
    });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/lasts 0:01 \(1(\.0\d*)? s\)/);
    expect(answer.body.error).toContain('ends at 0:02 (2.5 s)');
    expect(answer.body.error).toContain(take.filePath);
    expect(await rendersOf(id)).toEqual([]);
  });

  it('a disk without room for it: 507 STORAGE_FULL saying how much it needs, nothing queued', async (context) => {
    if (skipped) return context.skip();
    diskFree = 50 * 1024 * 1024;
    try {
      const answer = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/render`, {
        body: { formats: ['9x16', '16x9'], captions: true },
      });
      expect(answer.status).toBe(507);
      expect(answer.body.code).toBe('STORAGE_FULL');
      expect(answer.body.error).toMatch(/needs about \d+ MB .* 50 MB free/);
      expect(await rendersOf(analysisId)).toEqual([]);
    } finally {
      diskFree = null;
    }
  });
});

describe(`a render's life${skipped}`, () => {
  it('one at a time: a queued render is cancelled at once, a running one stopped with no part of a file left', async (context) => {
    if (skipped) return context.skip();
    const running = await startRender(bridge, analysisId, { formats: ['1x1', '16x9'], captions: true });
    const waiting = await startRender(bridge, analysisId, { formats: ['9x16'], captions: false });
    await eventually(async () => (await renderOf(bridge, running.id)).state === 'rendering', 30_000, 20);
    expect((await renderOf(bridge, waiting.id)).state).toBe('queued');

    const cancelledWaiting = await bridge.call('POST', `/api/renders/${waiting.id}/cancel`);
    expect(cancelledWaiting.body.render).toMatchObject({ state: 'cancelled', startedAt: null });
    const cancelledRunning = await bridge.call('POST', `/api/renders/${running.id}/cancel`);
    expect(cancelledRunning.status).toBe(200);
    const ended = await renderEnded(bridge, running.id);
    expect(ended.state).toBe('cancelled');
    expect(ended.files).toEqual([]);
    expect(existsSync(path.join(dataDir, 'renders', running.id))).toBe(false);
    // A render that is over is answered as it is.
    expect((await bridge.call('POST', `/api/renders/${running.id}/cancel`)).body.render.state).toBe(
      'cancelled',
    );
    expect((await renderOf(bridge, waiting.id)).state).toBe('cancelled');
  }, 90_000);

  it('interrupted by a restart: starts again from zero and says so', async (context) => {
    if (skipped) return context.skip();
    const asked = await startRender(bridge, analysisId, { formats: ['1x1'], captions: true });
    await eventually(async () => (await renderOf(bridge, asked.id)).state === 'rendering', 30_000, 20);
    await bridge.stop();
    // Stopped mid-render: the part written is gone with it.
    const dir = path.join(dataDir, 'renders', asked.id);
    expect(existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.part')) : []).toEqual([]);
    bridge = await harness.startBridge();
    const done = await renderEnded(bridge, asked.id);
    expect(done.state, done.error ?? '').toBe('done');
    expect(done.restarts).toBe(1);
    expect(done.notes.join(' ')).toMatch(/interrupted by a restart of the bridge.*started again from zero/);
    expect(
      probe(ffprobe.path!, path.join(dir, '1x1.mp4'))
        .streams.map((s) => s.codec_type)
        .sort(),
    ).toEqual(['audio', 'video']);
  }, 120_000);
});

describe(`the FFmpeg shipped in the npm package (4.1, no ffprobe)${skipped}`, () => {
  it('renders 9:16 with captions, the take read by FFmpeg itself', async (context) => {
    const shipped = npmFfmpeg();
    if (skipped || (!shipped && process.env.CI !== 'true')) return context.skip();
    expect(shipped, '@ffmpeg-installer/ffmpeg has no binary for this platform').not.toBeNull();
    const npmBridge = await startTestBridge(
      { RECORDER_OBS_URL: obs.url },
      {
        areas: ['recorder', 'clips', 'renders'],
        now,
        tuning: { renders: { tools: { ffmpeg: { path: shipped!, source: 'npm' }, ffprobe: null } } },
      },
    );
    try {
      const setup = (await npmBridge.call('GET', '/api/settings/rendering')).body;
      expect(setup.ffmpeg).toMatchObject({ path: shipped, source: 'npm' });
      expect(setup.ffprobe).toBeNull();
      // Its own take: the simulated OBS does not write over the first one's file.
      const take = await recordTake(
        npmBridge,
        obs,
        advance,
        markedTake(ffmpeg.path!, '20261202_Npm_Take', 6),
      );
      const id = await analyseTake(npmBridge, take.id);
      const render = await renderEnded(
        npmBridge,
        (await startRender(npmBridge, id, { formats: ['9x16'], captions: true })).id,
      );
      expect(render.state, render.error ?? '').toBe('done');
      const { streams } = probe(
        ffprobe.path!,
        path.join(npmBridge.dataDir, 'renders', render.id, '9x16.mp4'),
      );
      expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({
        codec_name: 'h264',
        width: 1080,
        height: 1920,
      });
      expect(streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    } finally {
      await npmBridge.close();
    }
  }, 120_000);
});
