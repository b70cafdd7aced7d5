import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), 'utf8');

let crm: SandboxCrm;
let bridge: TestBridge;
let episodeId: string;

beforeAll(async () => {
  crm = await startSandboxCrm();
  bridge = await startTestBridge({ CRM_URL: crm.url, CRM_API_KEY: crm.apiKey });
  episodeId = crm.create('ContentProduction', {
    name: 'Ep 12: Priya Raman',
    showName: 'The Indie Studio Show',
    stage: 'Editing',
  }).id;
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
});

const analyze = (body: Record<string, unknown>) => bridge.call('POST', '/clips/analyze', { body });

describe('POST /clips/analyze', () => {
  it('suggests clips from a stamped transcript: seconds, confidence, reason, topic, signals, platforms', async () => {
    const response = await analyze({ contentProductionId: episodeId, transcript: fixture('interview.txt') });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      success: true,
      contentProductionId: episodeId,
      timing: 'stamped',
      format: 'stamped',
    });
    expect(body.suggestedClips).toHaveLength(5);
    for (const clip of body.suggestedClips) {
      expect(clip).toEqual(
        expect.objectContaining({
          hookQuote: expect.any(String),
          startTime: expect.any(Number),
          endTime: expect.any(Number),
          confidence: expect.any(Number),
          reason: expect.any(String),
          topic: expect.any(String),
          signals: expect.any(Array),
          fitsPlatforms: expect.arrayContaining([
            'Shortvideo',
            'Photogram Reels',
            'Socialnet Reels',
            'Microblog',
          ]),
        }),
      );
      expect(clip.endTime - clip.startTime).toBeGreaterThanOrEqual(15);
      expect(clip.endTime - clip.startTime).toBeLessThanOrEqual(90);
      expect(clip.fitsPlatforms.includes('Videosite Shorts')).toBe(clip.duration <= 60);
    }
    expect(body.topics.length).toBeGreaterThan(1);
    expect(body.stats.words).toBeGreaterThan(1500);
  });

  it('reads SRT and WebVTT, and estimates plain text at 150 wpm', async () => {
    const srt = await analyze({
      contentProductionId: episodeId,
      transcript: fixture('solo.srt'),
      maxClips: 3,
    });
    expect(srt.body).toMatchObject({ format: 'srt', timing: 'stamped' });
    expect(srt.body.suggestedClips).toHaveLength(3);
    const vtt = await analyze({
      contentProductionId: episodeId,
      transcript: fixture('panel.vtt'),
      maxClips: 20,
    });
    expect(vtt.body).toMatchObject({ format: 'vtt', timing: 'stamped' });
    expect(vtt.body.suggestedClips.length).toBeGreaterThan(5);
    const plain = fixture('interview.txt').replace(/^\[[\d:]+\] /gm, '');
    const estimated = await analyze({ contentProductionId: episodeId, transcript: plain, maxClips: 2 });
    expect(estimated.body).toMatchObject({ format: 'plain', timing: 'estimated' });
  });

  it('answers the same suggestions for the same transcript', async () => {
    const body = { contentProductionId: episodeId, transcript: fixture('panel.vtt'), maxClips: 7 };
    const [a, b] = await Promise.all([analyze(body), analyze(body)]);
    // Each analysis is stored under its own id (issue #28.4); everything it found is the same.
    const found = (answer: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(answer).filter(([key]) => key !== 'analysisId' && key !== 'expiresAt'),
      );
    expect(a.body.analysisId).not.toBe(b.body.analysisId);
    expect(found(a.body)).toEqual(found(b.body));
  });

  it('says which rule a bad request breaks', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ contentProductionId: episodeId, transcript: '  \n ' }, /^body\.transcript: is empty/],
      [
        { contentProductionId: episodeId, transcript: 'WEBVTT\n\nNOTE only a note\n' },
        /^body\.transcript: the WebVTT captions have no cue/,
      ],
      [
        { contentProductionId: episodeId, transcript: '1\n00:00:01 --> soon\nHi\n' },
        /^body\.transcript: line 2 looks like a caption time line/,
      ],
      [
        { contentProductionId: episodeId, transcript: 'x'.repeat(2_000_001) },
        /^body\.transcript: is too long: 2,000,001 characters, the limit is 2,000,000/,
      ],
      [
        { contentProductionId: episodeId, transcript: 'Hello there.', maxClips: 21 },
        /^body\.maxClips: must be at most 20/,
      ],
      [
        { contentProductionId: episodeId, transcript: 'Hello there.', maxClips: 2.5 },
        /^body\.maxClips: must be a whole number/,
      ],
      [{ transcript: 'Hello there.' }, /^body\.contentProductionId: is required/],
      [{ contentProductionId: episodeId, transcript: 42 }, /^body\.transcript: must be a string/],
    ];
    for (const [body, message] of cases) {
      const response = await analyze(body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(response.body.error).toMatch(message);
    }
  });

  it('takes bodies up to 5 MB on this path only, and needs the key', async () => {
    const big = await analyze({ contentProductionId: episodeId, transcript: 'word '.repeat(800_000) });
    expect(big.status).toBe(400); // past the transcript limit, but not refused as too large a body
    const tooBig = await analyze({ contentProductionId: episodeId, transcript: 'x'.repeat(5_300_000) });
    expect(tooBig.status).toBe(413);
    const noKey = await bridge.call('POST', '/clips/analyze', {
      body: { contentProductionId: episodeId, transcript: 'Hello.' },
      key: null,
    });
    expect(noKey.status).toBe(401);
  });

  it('records the analysis in the activity log', async () => {
    const activity = await bridge.call('GET', '/api/activity?type=clips.analyzed&limit=5');
    expect(activity.body.data[0].message).toMatch(/clip suggestions from a [\d:]+ \w+ transcript/);
  });
});

describe('POST /clips/create-draft', () => {
  it('creates a Draft Clip in the CRM (name, hookQuote, whole-second duration, content link) and answers its id', async () => {
    const analysis = await analyze({
      contentProductionId: episodeId,
      transcript: fixture('solo.srt'),
      maxClips: 1,
    });
    const clip = analysis.body.suggestedClips[0];
    const response = await bridge.call('POST', '/clips/create-draft', {
      body: {
        contentProductionId: episodeId,
        hookQuote: clip.hookQuote,
        startTime: clip.startTime,
        endTime: clip.endTime,
        targetPlatforms: clip.fitsPlatforms,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      status: 'Draft',
      created: true,
      contentProductionId: episodeId,
    });
    const record = crm.get('Clip', response.body.id);
    expect(record).toMatchObject({
      status: 'Draft',
      hookQuote: clip.hookQuote,
      duration: Math.round(clip.endTime - clip.startTime),
      contentProductionId: episodeId,
      targetPlatforms: clip.fitsPlatforms,
    });
    expect(String(record!.name)).toContain('Ep 12: Priya Raman');
    expect(Number.isInteger(record!.duration)).toBe(true);
    // The CRM's own hook counted the clip on its content.
    expect(crm.get('ContentProduction', episodeId)).toMatchObject({
      ampClipsCut: 1,
      ampClipsStatus: 'Clips Available',
    });

    const again = await bridge.call('POST', '/clips/create-draft', {
      body: {
        contentProductionId: episodeId,
        hookQuote: clip.hookQuote,
        startTime: clip.startTime,
        endTime: clip.endTime,
      },
    });
    expect(again.body).toMatchObject({ success: true, id: response.body.id, created: false });
    expect(crm.list('Clip').filter((c) => c.hookQuote === clip.hookQuote)).toHaveLength(1);
  });

  it('uses the given name', async () => {
    const response = await bridge.call('POST', '/clips/create-draft', {
      body: {
        contentProductionId: episodeId,
        hookQuote: 'Price is a signal.',
        startTime: 10.4,
        endTime: 41.2,
        name: 'Pricing',
      },
    });
    expect(crm.get('Clip', response.body.id)).toMatchObject({ name: 'Pricing', duration: 31 });
  });

  it('refuses an unknown content record, a backwards time range, and says when the CRM fails', async () => {
    const unknown = await bridge.call('POST', '/clips/create-draft', {
      body: { contentProductionId: 'nosuchrecord00000', hookQuote: 'Q.', startTime: 1, endTime: 20 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('contentProductionId: no ContentProduction nosuchrecord00000 in the CRM');
    const backwards = await bridge.call('POST', '/clips/create-draft', {
      body: { contentProductionId: episodeId, hookQuote: 'Q.', startTime: 20, endTime: 5 },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toBe('body.endTime: must be after startTime');
    // A 500 on a create is not repeated (its outcome is unknown), so the operator sees the failure.
    crm.faults.injectFault({ method: 'POST', pathPrefix: '/api/v1/Clip', status: 500, times: 1 });
    const failed = await bridge.call('POST', '/clips/create-draft', {
      body: { contentProductionId: episodeId, hookQuote: 'Fails once.', startTime: 1, endTime: 20 },
    });
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ success: false, code: 'CRM_ERROR' });
  });
});

describe('POST /clips/create-draft: clip times', () => {
  it.each([
    [{ startTime: 10, endTime: 1e308 }, 'body.endTime: 1e+308 s is past 172800 s (48 h)'],
    [{ startTime: 200_000, endTime: 200_030 }, 'body.startTime: 200000 s is past 172800 s (48 h)'],
    [{ startTime: 30, endTime: 30 }, 'body.endTime: must be after startTime'],
    [{ startTime: -1, endTime: 20 }, 'body.startTime: must be 0 or more'],
  ])('%j → 400 naming %s; no Clip in the CRM', async (times, rule) => {
    const before = crm.list('Clip').length;
    const response = await bridge.call('POST', '/clips/create-draft', {
      body: { contentProductionId: episodeId, hookQuote: 'Out of range.', ...times },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(response.body.error).toContain(rule);
    expect(crm.list('Clip').length).toBe(before);
  });
});

describe('GET /api/crm/content', () => {
  it('lists ContentProduction records newest first, paged, with id, name, showName and stage', async () => {
    for (let i = 0; i < 4; i++) crm.create('ContentProduction', { name: `Extra ${i}`, showName: 'Extras' });
    const first = await bridge.call('GET', '/api/crm/content?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, total: 5, offset: 0, limit: 2 });
    expect(first.body.data).toHaveLength(2);
    expect(Object.keys(first.body.data[0]).sort()).toEqual(['id', 'name', 'showName', 'stage']);
    const all = await bridge.call('GET', '/api/crm/content?limit=200');
    expect(all.body.data.map((c: { name: string }) => c.name)).toContain('Ep 12: Priya Raman');
    const rest = await bridge.call('GET', '/api/crm/content?limit=2&offset=4');
    expect(rest.body.data).toHaveLength(1);
    const bad = await bridge.call('GET', '/api/crm/content?limit=500');
    expect(bad.status).toBe(400);
  });

  it('says clearly when no CRM is configured', async () => {
    const bare = await startTestBridge({});
    try {
      const list = await bare.call('GET', '/api/crm/content');
      expect(list.status).toBe(503);
      expect(list.body).toMatchObject({ success: false, code: 'NOT_CONFIGURED' });
      expect(list.body.error).toMatch(/CRM is not configured: set CRM_URL/);
      const draft = await bare.call('POST', '/clips/create-draft', {
        body: { contentProductionId: 'x', hookQuote: 'Q.', startTime: 1, endTime: 20 },
      });
      expect(draft.status).toBe(503);
      // Analysis needs no CRM: it is offline.
      const analysis = await bare.call('POST', '/clips/analyze', {
        body: { contentProductionId: 'x', transcript: fixture('interview.txt'), maxClips: 1 },
      });
      expect(analysis.status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
