import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderRecord } from '../../../shared/api/renders.js';
import {
  startSandboxCrm,
  startSandboxPostsvc,
  type SandboxCrm,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import { eventually, type TestBridge } from '../../support/bridge.js';
import { testClock } from '../../support/clock.js';
import { crmAndPostsvcEnv } from '../../support/peers-env.js';
import {
  renderEnded,
  renderTools,
  startRender,
  startRenderHarness,
  type RenderHarness,
} from '../../support/renders.js';

/**
 * Issue #44.1, make ready: each file of a done render goes to the provider's media store (upload URL,
 * one presigned PUT with no Authorization header, HEAD of the access URL), a frame of it as the
 * thumbnail the same way, then the CRM Clip gets the video URL per format, thumbnailUrl and status
 * Ready. The access URLs' 30-day expiry is stored and answered. Refused in words on the free plan; a
 * PUT that failed gets a new upload URL; a HEAD that finds nothing fails in words.
 */
const { ffmpeg, ffprobe, skipped } = renderTools();
const clock = testClock('2026-12-02T09:00:00.000Z');
const { now } = clock;

let crm: SandboxCrm;
let postsvc: SandboxPostsvc;
let harness: RenderHarness;
let bridge: TestBridge;
let analysisId: string;
let render: RenderRecord;

beforeAll(async () => {
  if (skipped) return;
  crm = await startSandboxCrm({ now });
  postsvc = await startSandboxPostsvc({ now, plan: 'premium' });
  harness = await startRenderHarness({
    name: 'render-ready',
    clock,
    tools: { ffmpeg: ffmpeg.path!, ffprobe: ffprobe.path! },
    takeName: '20261202_Episode_53',
    env: crmAndPostsvcEnv(crm, postsvc, { secret: 'ready-secret', plan: 'premium' }),
    areas: ['recorder', 'clips', 'renders', 'posting', 'health'],
    tuning: { renders: { freeSpace: async () => Number.MAX_SAFE_INTEGER } },
    contentProductionId: crm.create('ContentProduction', { name: 'Episode 53', stage: 'Editing' }).id,
  });
  ({ bridge, analysisId } = harness);
  render = await renderEnded(
    bridge,
    (await startRender(bridge, analysisId, { formats: ['9x16', '1x1'], captions: false })).id,
  );
  expect(render.state).toBe('done');
}, 180_000);
afterAll(async () => {
  await harness?.close();
  await Promise.all([crm?.stop(), postsvc?.stop()]);
});

const ready = (renderId: string) => bridge.call('POST', `/api/renders/${renderId}/ready`, { body: {} });
const readyEnded = (renderId: string) =>
  eventually(
    async () => {
      const record = (await bridge.call('GET', `/api/renders/${renderId}`)).body.render as RenderRecord;
      return record.ready && ['ready', 'failed'].includes(record.ready.state) ? record : null;
    },
    60_000,
    100,
  );
const renderFile = (format: string) => path.join(bridge.dataDir, 'renders', render.id, `${format}.mp4`);

describe(`make ready${skipped}`, () => {
  it('refused before any work without a draft clip of the suggestion: 409 in words', async (context) => {
    if (skipped) return context.skip();
    const answer = await ready(render.id);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/draft clip/i);
    expect(postsvc.callCount('/media')).toBe(0);
  });

  it('uploads each file and a thumbnail, HEADs them, and writes the Clip Ready with its URLs', async (context) => {
    if (skipped) return context.skip();
    const draft = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/draft`, { body: {} });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const answer = await ready(render.id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.render.ready).toMatchObject({ state: 'queued', clipId: draft.body.id });
    const done = await readyEnded(render.id);
    expect(done.ready, JSON.stringify(done.ready)).toMatchObject({
      state: 'ready',
      error: null,
      clipId: draft.body.id,
    });
    const media = done.ready!.media;
    expect(media.map((m) => m.kind).sort()).toEqual(['1x1', '9x16', 'thumbnail']);
    // Stored 30 days from the upload, the earliest said for the whole.
    for (const item of media)
      expect(item.expiresAt).toBe(new Date(now().getTime() + 30 * 86_400_000).toISOString());
    expect(done.ready!.expiresAt).toBe(media[0]!.expiresAt);

    const stored = postsvc.media();
    expect(stored).toHaveLength(3);
    for (const format of ['9x16', '1x1'] as const) {
      const url = media.find((m) => m.kind === format)!.accessUrl;
      expect(postsvc.mediaBytes(url)?.equals(readFileSync(renderFile(format)))).toBe(true);
    }
    const thumb = postsvc.mediaBytes(media.find((m) => m.kind === 'thumbnail')!.accessUrl)!;
    expect(thumb.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    // One upload URL and one PUT per file (the sandbox refuses a PUT with an Authorization header), one HEAD each.
    expect(postsvc.callCount('/media/uploadUrl', 'GET')).toBe(3);
    expect(postsvc.callCount('/presigned-upload', 'PUT')).toBe(3);
    expect(postsvc.callCount('/media-files', 'HEAD')).toBe(3);

    const clip = crm.get('Clip', draft.body.id)!;
    expect(clip).toMatchObject({
      status: 'Ready',
      videoUrlPortrait: media.find((m) => m.kind === '9x16')!.accessUrl,
      videoUrlSquare: media.find((m) => m.kind === '1x1')!.accessUrl,
      thumbnailUrl: media.find((m) => m.kind === 'thumbnail')!.accessUrl,
    });
    expect(clip.videoUrlLandscape ?? null).toBeNull();
  });

  it('a PUT that failed is not repeated: a new upload URL is asked for and PUT once', async (context) => {
    if (skipped) return context.skip();
    const before = {
      urls: postsvc.callCount('/media/uploadUrl'),
      puts: postsvc.callCount('/presigned-upload'),
    };
    postsvc.faults.injectFault({ method: 'PUT', pathPrefix: '/presigned-upload', status: 503, times: 1 });
    expect((await ready(render.id)).status).toBe(202);
    const done = await readyEnded(render.id);
    expect(done.ready?.state).toBe('ready');
    // Asking again uploads every file anew (fresh 30 days); the refused PUT's file got a second upload URL.
    expect(postsvc.callCount('/media/uploadUrl') - before.urls).toBe(4);
    expect(postsvc.callCount('/presigned-upload') - before.puts).toBe(4);
  });

  it('an upload that never arrived (HEAD 404) fails in words, and the Clip stays as it was', async (context) => {
    if (skipped) return context.skip();
    const clipBefore = crm.get(
      'Clip',
      (await bridge.call('GET', `/api/renders/${render.id}`)).body.render.ready.clipId,
    )!;
    postsvc.faults.injectFault({ method: 'HEAD', pathPrefix: '/media-files', status: 404, times: 1 });
    expect((await ready(render.id)).status).toBe(202);
    const done = await readyEnded(render.id);
    expect(done.ready?.state).toBe('failed');
    expect(done.ready?.error).toMatch(/did not arrive/);
    expect(crm.get('Clip', clipBefore.id)!.videoUrlPortrait).toBe(clipBefore.videoUrlPortrait);
  });

  it('the provider on its free plan refuses media uploads: failed in words, nothing put', async (context) => {
    if (skipped) return context.skip();
    postsvc.setPlan('free');
    try {
      const puts = postsvc.callCount('/presigned-upload');
      expect((await ready(render.id)).status).toBe(202);
      const done = await readyEnded(render.id);
      expect(done.ready?.state).toBe('failed');
      expect(done.ready?.error).toMatch(/Premium/);
      expect(done.ready?.error).toMatch(/free plan/);
      expect(postsvc.callCount('/presigned-upload')).toBe(puts);
    } finally {
      postsvc.setPlan('premium');
    }
  });

  it("a post carrying the clip's media is checked by its expiry: scheduled before it, refused after it in words", async (context) => {
    if (skipped) return context.skip();
    const record = (await bridge.call('GET', `/api/renders/${render.id}`)).body.render as RenderRecord;
    const portrait = record.ready!.media.find((m) => m.kind === '9x16')!;
    const at = (days: number) => new Date(Date.parse(portrait.uploadedAt) + days * 86_400_000).toISOString();
    const post = (scheduleDate: string, key: string) =>
      bridge.call('POST', '/postsvc/schedule', {
        body: {
          post: 'Our costs stayed under five percent of sales.',
          platforms: ['shortvideo'],
          mediaUrls: [portrait.accessUrl],
          scheduleDate,
          idempotencyKey: key,
        },
      });
    const late = await post(at(31), 'clip-ready-late-1');
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('INVALID_MEDIA');
    expect(late.body.error).toContain('mediaUrls.0');
    expect(late.body.error).toMatch(/served until/);
    const ok = await post(at(2), 'clip-ready-ok-1');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(postsvc.posts().at(-1)?.mediaUrls).toEqual([portrait.accessUrl]);
  });

  it('the clip table (spec §2.3) judges a clip file per platform: a 1:1 file on a 9:16 platform is said, not refused', async (context) => {
    if (skipped) return context.skip();
    const record = (await bridge.call('GET', `/api/renders/${render.id}`)).body.render as RenderRecord;
    const square = record.ready!.media.find((m) => m.kind === '1x1')!;
    // The clip is 2 s: it fits everywhere; its 1:1 file on a 9:16 platform is said, not refused.
    const preview = await bridge.call('POST', '/api/posts/preview', {
      body: { post: 'Margins went past forty.', platforms: ['shortvideo'], mediaUrls: [square.accessUrl] },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.errors).toEqual([]);
    expect(preview.body.warnings.join(' ')).toMatch(/Shortvideo: prefers 9:16/);
  });

  // Last: it restarts the bridge.
  it('a make ready cut short by a restart goes on where it stopped: a file uploaded and checked is not sent again', async (context) => {
    if (skipped) return context.skip();
    const putsBefore = postsvc.callCount('/presigned-upload');
    // The first PUT goes through; the second is taken by the provider and never answered.
    postsvc.faults.injectFault({ method: 'PUT', pathPrefix: '/presigned-upload', delayMs: 1, times: 1 });
    postsvc.faults.injectFault({ method: 'PUT', pathPrefix: '/presigned-upload', hang: true, times: 1 });
    expect((await ready(render.id)).status).toBe(202);
    await eventually(async () => {
      const record = (await bridge.call('GET', `/api/renders/${render.id}`)).body.render as RenderRecord;
      return record.ready?.progress?.done === 1 && postsvc.callCount('/presigned-upload') === putsBefore + 2;
    });
    await bridge.close();
    bridge = await harness.startBridge();

    const done = await readyEnded(render.id);
    expect(done.ready, JSON.stringify(done.ready)).toMatchObject({ state: 'ready', error: null });
    expect(done.ready!.media.map((m) => m.kind).sort()).toEqual(['1x1', '9x16', 'thumbnail']);
    // 2 files and a thumbnail: the first PUT, the unanswered one, then only the two not yet checked.
    expect(postsvc.callCount('/presigned-upload')).toBe(putsBefore + 4);
    const clip = crm.get('Clip', done.ready!.clipId)!;
    expect(clip.status).toBe('Ready');
    expect(done.ready!.media.map((m) => m.accessUrl)).toEqual(
      expect.arrayContaining([clip.videoUrlPortrait, clip.videoUrlSquare, clip.thumbnailUrl]),
    );
  }, 120_000);

  it('POSTSVC_PLAN free: make ready is refused before any work, in words', async (context) => {
    if (skipped) return context.skip();
    await bridge.close();
    bridge = await harness.startBridge({ POSTSVC_PLAN: 'free' });
    const asked = postsvc.callCount('/media');
    const answer = await ready(render.id);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/Premium plan or above/);
    expect(answer.body.error).toMatch(/POSTSVC_PLAN is free/);
    expect(postsvc.callCount('/media')).toBe(asked);
  });
});
