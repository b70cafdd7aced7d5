import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import type { RenderingSetup, RenderRecord } from '../../../shared/api/renders.js';
import type { TestBridge } from '../../support/bridge.js';
import { testClock } from '../../support/clock.js';
import {
  CLIP,
  integratedLoudness,
  lumaAt,
  meanDifference,
  probe,
  renderEnded,
  renderTools,
  startRender,
  startRenderHarness,
  type RenderHarness,
} from '../../support/renders.js';

/**
 * Issue #43 over HTTP with Debian's FFmpeg: a reviewed 2-second clip of a 1080p take (recorded on
 * the simulated OBS, its file made here) rendered to 9:16, 1:1 and 16:9 MP4 with burned captions,
 * each file read back with ffprobe: codec, size, duration within a frame of the clip, audio there,
 * loudness within 1 LU of −14 LUFS; a frame with and without captions differs where the cue is and
 * nowhere else; the files are served with ranges and HEAD behind the key. The data dir's path holds
 * `:`, `'`, `,` and brackets, so every path put in a filter string is escaped for real.
 */
const { ffmpeg, ffprobe, skipped } = renderTools();
const clock = testClock('2026-12-01T09:00:00.000Z');

let harness: RenderHarness;
let bridge: TestBridge;
let take: RecorderTake;
let analysisId: string;
let captioned: RenderRecord;

beforeAll(async () => {
  if (skipped) return;
  harness = await startRenderHarness({
    name: 'renders',
    clock,
    tools: { ffmpeg: ffmpeg.path!, ffprobe: ffprobe.path! },
    takeName: '20261201_Episode_52',
    dataDirName: "data: it's, [here]",
  });
  ({ bridge, take, analysisId } = harness);
}, 60_000);
afterAll(() => harness?.close());

const mp4Of = (render: RenderRecord, format: string) =>
  path.join(bridge.dataDir, 'renders', render.id, `${format}.mp4`);

describe(`rendering a reviewed clip (issue #43)${skipped}`, () => {
  it('renders 9:16, 1:1 and 16:9 with captions: H.264/AAC at each size, the clip’s length, −14 LUFS', async (context) => {
    if (skipped) return context.skip();
    const asked = await startRender(bridge, analysisId, { formats: ['9x16', '1x1', '16x9'], captions: true });
    expect(asked).toMatchObject({
      analysisId,
      n: 1,
      state: 'queued',
      formats: ['9x16', '1x1', '16x9'],
      captions: true,
      cropX: 0.5,
      ...CLIP,
      take: { id: take.id, name: '20261201_Episode_52' },
    });
    captioned = await renderEnded(bridge, asked.id);
    expect(captioned.state, captioned.error ?? '').toBe('done');
    expect(captioned.notes).toContain(
      '9:16: a 608×1080 window of the 1920×1080 take is upscaled 1.78× to 1080×1920',
    );
    expect(captioned.loudness).toMatchObject({ targetLufs: -14 });
    const sizes = { '9x16': [1080, 1920], '1x1': [1080, 1080], '16x9': [1920, 1080] } as const;
    for (const format of ['9x16', '1x1', '16x9'] as const) {
      const file = captioned.files.find((f) => f.format === format)!;
      expect(file).toMatchObject({ width: sizes[format][0], height: sizes[format][1] });
      expect(file.url).toBe(`/api/renders/${captioned.id}/${format}.mp4`);
      const { streams } = probe(ffprobe.path!, mp4Of(captioned, format));
      const video = streams.find((s) => s.codec_type === 'video')!;
      const audio = streams.find((s) => s.codec_type === 'audio');
      expect(video).toMatchObject({
        codec_name: 'h264',
        width: sizes[format][0],
        height: sizes[format][1],
        pix_fmt: 'yuv420p',
      });
      expect(Math.abs(Number(video.duration) - (CLIP.endTime - CLIP.startTime))).toBeLessThanOrEqual(
        1 / 30 + 1e-6,
      );
      expect(audio?.codec_name).toBe('aac');
      expect(Math.abs(integratedLoudness(ffmpeg.path!, mp4Of(captioned, format)) - -14)).toBeLessThanOrEqual(
        1,
      );
    }
    // Nothing left beside the files: no part, no caption script.
    expect(readdirSync(path.join(bridge.dataDir, 'renders', captioned.id)).sort()).toEqual([
      '16x9.mp4',
      '1x1.mp4',
      '9x16.mp4',
    ]);
  }, 120_000);

  it('serves a file with byte ranges and HEAD, behind the key', async (context) => {
    if (skipped || !captioned) return context.skip();
    const url = `${bridge.url}/api/renders/${captioned.id}/1x1.mp4`;
    const auth = { authorization: `Bearer ${bridge.apiKey}` };
    const size = captioned.files.find((file) => file.format === '1x1')!.bytes;
    const whole = await fetch(url, { headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect((await whole.arrayBuffer()).byteLength).toBe(size);
    const part = await fetch(url, { headers: { ...auth, range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    // An MP4 with its index first (faststart): its first box is ftyp, then moov.
    const head = Buffer.from(await part.arrayBuffer());
    expect(head.subarray(4, 8).toString()).toBe('ftyp');
    const past = await fetch(url, { headers: { ...auth, range: `bytes=${size + 10}-` } });
    expect(past.status).toBe(416);
    const headOnly = await fetch(url, { method: 'HEAD', headers: auth });
    expect(headOnly.status).toBe(200);
    expect(headOnly.headers.get('content-length')).toBe(String(size));
    expect((await fetch(url)).status).toBe(401);
    // A <video> element sends no headers: the key may come as ?key= on this route, as on /events only.
    const keyed = await fetch(`${url}?key=${encodeURIComponent(bridge.apiKey)}`, {
      headers: { range: 'bytes=0-9' },
    });
    expect(keyed.status).toBe(206);
    expect((await fetch(`${url}?key=wrong-key-0123456789`)).status).toBe(401);
    expect((await fetch(`${bridge.url}/api/renders?key=${encodeURIComponent(bridge.apiKey)}`)).status).toBe(
      401,
    );
    expect((await bridge.call('GET', `/api/renders/${captioned.id}/4x5.mp4`)).status).toBe(400);
  });

  it('says which FFmpeg renders, its version, and the disk renders use', async (context) => {
    if (skipped || !captioned) return context.skip();
    const setup = (await bridge.call('GET', '/api/settings/rendering')).body as RenderingSetup;
    expect(setup.ffmpeg).toMatchObject({ path: ffmpeg.path, source: 'setting' });
    expect(setup.ffmpeg?.version).toMatch(/^\S+$/);
    expect(setup.ffprobe).toMatchObject({ path: ffprobe.path, source: 'setting' });
    expect(setup.font.family).toBe('DejaVu Sans');
    const bytes = captioned.files.reduce((sum, file) => sum + file.bytes, 0);
    expect(setup.storage.bytes).toBeGreaterThanOrEqual(bytes);
    expect(setup.storage.keptDays).toBe(30);
    const listed = (await bridge.call('GET', `/api/renders?analysisId=${analysisId}`)).body;
    expect(listed.renders.map((render: RenderRecord) => render.id)).toContain(captioned.id);
    expect(listed.usage.bytes).toBe(setup.storage.bytes);
  });

  it('reports progress on /events while it renders, and its end', async (context) => {
    if (skipped || !captioned) return context.skip();
    const activity = (await bridge.call('GET', '/api/activity?typePrefix=render&limit=500')).body
      .data as Array<{
      type: string;
      data: { renderId?: string; percent?: number; state?: string };
    }>;
    const mine = activity.filter((event) => event.data?.renderId === captioned.id);
    expect(mine.some((event) => event.type === 'render.progress' && (event.data.percent ?? 0) > 0)).toBe(
      true,
    );
    expect(mine.some((event) => event.type === 'render.state' && event.data.state === 'done')).toBe(true);
  });

  it('burns the captions in: a frame with and without them differs where the cue is, and only there; the newer render replaces the older’s file', async (context) => {
    if (skipped || !captioned) return context.skip();
    const at = 0.5;
    const withCaptions = lumaAt(ffmpeg.path!, mp4Of(captioned, '9x16'), at);
    const plain = await renderEnded(
      bridge,
      (await startRender(bridge, analysisId, { formats: ['9x16'], captions: false })).id,
    );
    expect(plain.state, plain.error ?? '').toBe('done');
    const without = lumaAt(ffmpeg.path!, mp4Of(plain, '9x16'), at);
    expect(withCaptions.length).toBe(1080 * 1920);
    // The cue sits above the bottom quarter (480 px up); the top half holds no caption.
    expect(meanDifference(withCaptions, without, 1080, 1920 - 480 - 160, 1920 - 480)).toBeGreaterThan(8);
    expect(meanDifference(withCaptions, without, 1080, 0, 960)).toBeLessThan(2);
    // The newer render of the clip replaces the earlier one's file of its format; the others stay.
    const earlier = (await bridge.call('GET', `/api/renders/${captioned.id}`)).body.render as RenderRecord;
    expect(earlier.files.map((file) => file.format)).toEqual(['1x1', '16x9']);
    expect(readdirSync(path.join(bridge.dataDir, 'renders', captioned.id)).sort()).toEqual([
      '16x9.mp4',
      '1x1.mp4',
    ]);
  }, 90_000);
});
