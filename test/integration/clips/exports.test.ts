import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxObs,
  type SandboxCrm,
  type SandboxObs,
} from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { recordTake } from '../../support/takes.js';

/**
 * Issue #28 over HTTP: a take recorded on the simulated OBS with a mark, its transcript analysed
 * (the mark pins a clip), the stored analysis's exports, review nudges and the draft that follows.
 * One clock moves the take and the 30-day retention.
 */
const PASSWORD = 'obs-password-4455';
let clockMs = Date.parse('2026-05-01T10:00:00.000Z');
const now = () => new Date(clockMs);
const advance = (seconds: number) => void (clockMs += seconds * 1000);

const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');
/** The interview, then ten dull minutes from 00:12:00, a line every 6 s. */
function transcriptWithDullPassage(): string {
  const lines: string[] = [];
  for (let i = 0; i < 100; i++) {
    const at = 12 * 60 + i * 6;
    lines.push(
      `[00:${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')}] CLERK: The form for room ${i % 7} goes in the tray by the door.`,
    );
  }
  return `${interview.trimEnd()}\n${lines.join('\n')}\n`;
}
const MARK_AT = 16 * 60 + 33;

let crm: SandboxCrm;
let obs: SandboxObs;
let bridge: TestBridge;
let episodeId: string;
let takeId: number;

beforeAll(async () => {
  crm = await startSandboxCrm();
  obs = await startSandboxObs({ password: PASSWORD, now });
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, RECORDER_OBS_URL: obs.url, RECORDER_OBS_PASSWORD: PASSWORD },
    { areas: ['recorder', 'clips', 'health'], now },
  );
  episodeId = crm.create('ContentProduction', { name: 'Ep 28: The tray', showName: 'Show' }).id;
  const take = await recordTake(bridge, obs, advance, {
    filename: 'ep28',
    seconds: MARK_AT + 400,
    marks: [{ label: 'the tray', at: MARK_AT }],
  });
  expect(take.marks).toEqual([expect.objectContaining({ label: 'the tray', offsetS: MARK_AT })]);
  takeId = take.id;
});
afterAll(async () => {
  await bridge?.close();
  await obs?.stop();
  await crm?.stop();
});

const analyze = (body: Record<string, unknown>) => bridge.call('POST', '/clips/analyze', { body });

describe('marks of a take pin clips (issue #28.1)', () => {
  it('analyses a take: the marked moment is the first clip, the analysis stored 30 days', async () => {
    const response = await analyze({
      contentProductionId: episodeId,
      transcript: transcriptWithDullPassage(),
      maxClips: 3,
      takeId,
    });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.analysisId).toMatch(/^an_[A-Za-z0-9_-]{16}$/);
    expect(body.expiresAt).toBe(new Date(clockMs + 30 * 86_400_000).toISOString());
    expect(body.take).toEqual({ id: takeId, name: 'ep28', fileName: 'ep28.mkv' });
    const [pinned] = body.suggestedClips;
    expect(pinned.startTime).toBeLessThanOrEqual(MARK_AT);
    expect(pinned.endTime).toBeGreaterThanOrEqual(MARK_AT);
    expect(pinned.reason).toMatch(/^Marked live at 00:16:33 \("the tray"\)/);
    expect(body.suggestedClips).toHaveLength(3);
  });

  it('refuses a takeId that is not a number (400) or not a take (404), naming the field', async () => {
    const base = { contentProductionId: episodeId, transcript: interview };
    const bad = await analyze({ ...base, takeId: 'ep28' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('body.takeId: must be a number');
    const unknown = await analyze({ ...base, takeId: 9999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('body.takeId: no take 9999 (GET /api/recorder/takes lists them)');
  });
});

describe('exports of a stored analysis (issue #28.4)', () => {
  let analysisId: string;
  let clips: Array<{ startTime: number; endTime: number; hookQuote: string; duration: number }>;
  beforeAll(async () => {
    const body = (
      await analyze({
        contentProductionId: episodeId,
        transcript: transcriptWithDullPassage(),
        maxClips: 3,
        takeId,
      })
    ).body;
    analysisId = body.analysisId;
    clips = body.suggestedClips;
  });

  it('SRT and WebVTT of each suggestion, re-timed to start at 0, as files', async () => {
    const srt = await bridge.call('GET', `/clips/analyses/${analysisId}/clips/1/srt`);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    // Named after the take and the clip (issue #39.7), no longer the analysis id.
    expect(srt.headers.get('content-disposition')).toBe('attachment; filename="ep28-clip-1.srt"');
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\n/);
    const last = [...(srt.body as string).matchAll(/--> (\d\d):(\d\d):(\d\d),(\d{3})/g)].at(-1)!;
    const [, h, m, s, ms] = last.map(Number);
    expect(h! * 3600 + m! * 60 + s! + ms! / 1000).toBeCloseTo(clips[0]!.endTime - clips[0]!.startTime, 2);

    const vtt = await bridge.call('GET', `/clips/analyses/${analysisId}/clips/3/vtt`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> /);
  });

  it('a CMX3600 EDL of all suggestions at the fps asked, drop-frame at 29.97', async () => {
    const edl = await bridge.call('GET', `/clips/analyses/${analysisId}/edl?fps=29.97`);
    expect(edl.status).toBe(200);
    expect(edl.headers.get('content-disposition')).toBe('attachment; filename="ep28-29_97fps.edl"');
    expect(edl.headers.get('x-frame-rate')).toBe('29.97; source=request');
    const lines = (edl.body as string).split('\n');
    expect(lines.slice(0, 2)).toEqual(['TITLE: ep28', 'FCM: DROP FRAME']);
    const events = lines.filter((line) => /^\d{3} {2}/.test(line));
    expect(events).toHaveLength(3);
    // Issue #39: the take's own reel (was EP28, the name's first letters) and audio (AA/V: OBS's
    // stereo, assumed as the bridge cannot read the simulated OBS's file).
    expect(events[0]).toMatch(
      /^001 {2}26050101 AA\/V {2}C {8}\d\d:\d\d:\d\d;\d\d \d\d:\d\d:\d\d;\d\d 01:00:00;00 /,
    );
    expect(lines.filter((line) => line === '* FROM CLIP NAME: ep28.mkv')).toHaveLength(3);
    // By default the take's own rate: the simulated OBS records at 30/1 (GetVideoSettings).
    const byDefault = await bridge.call('GET', `/clips/analyses/${analysisId}/edl`);
    expect(byDefault.body).toContain('FCM: NON-DROP FRAME');
    expect(byDefault.headers.get('x-frame-rate')).toBe('30; source=take');
  });

  it('a download answers a byte range of it (206), 416 past its end, and HEAD without a body (issue #37.3)', async () => {
    const url = `/clips/analyses/${analysisId}/edl?fps=25`;
    const whole = await bridge.call('GET', url);
    const edl = whole.body as string;
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const part = await bridge.call('GET', url, { headers: { Range: 'bytes=0-10' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-10/${edl.length}`);
    expect(part.headers.get('content-disposition')).toBe('attachment; filename="ep28-25fps.edl"');
    expect(part.body).toBe('TITLE: ep28');
    const refused = await bridge.call('GET', url, { headers: { Range: `bytes=${edl.length}-` } });
    expect(refused.status).toBe(416);
    expect(refused.headers.get('content-range')).toBe(`bytes */${edl.length}`);
    expect(refused.body).toMatchObject({ success: false, code: 'RANGE_NOT_SATISFIABLE' });
    const head = await bridge.call('HEAD', url);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(edl.length));
    expect(head.headers.get('x-frame-rate')).toBe('25; source=request');
    expect(head.body).toBeUndefined();
  });

  it.each([
    [`/clips/analyses/an_short/edl`, 400, 'params.analysisId: is not an analysis id'],
    [`/clips/analyses/an_AAAAAAAAAAAAAAAA/edl`, 404, 'analysisId: no analysis an_AAAAAAAAAAAAAAAA'],
    [
      '/clips/analyses/{id}/edl?fps=26',
      400,
      'query.fps: must be one of 23.976, 24, 25, 29.97, 30, 50, 59.94, 60',
    ],
    ['/clips/analyses/{id}/clips/0/srt', 400, 'params.n: must be at least 1'],
    ['/clips/analyses/{id}/clips/x/vtt', 400, 'params.n: must be a number'],
    ['/clips/analyses/{id}/clips/4/srt', 404, 'n: analysis {id} has 3 suggestions, not 4'],
  ])('GET %s → %i naming the field', async (path, status, message) => {
    const response = await bridge.call('GET', path.replace('{id}', analysisId));
    expect(response.status).toBe(status);
    expect(response.body.error).toContain(message.replace('{id}', analysisId));
  });

  it('nudges by whole sentences; the exports and the draft follow the reviewed in/out', async () => {
    const path = `/clips/analyses/${analysisId}/clips/2/nudge`;
    const later = await bridge.call('POST', path, { body: { edge: 'out', sentences: 1 } });
    expect(later.status).toBe(200);
    expect(later.body.clip).toMatchObject({ n: 2, startTime: clips[1]!.startTime, nudged: true });
    expect(later.body.clip.endTime).toBeGreaterThan(clips[1]!.endTime);
    const reviewed = later.body.clip;

    for (const [body, message] of [
      [{ edge: 'middle', sentences: 1 }, 'body.edge: must be "in" or "out"'],
      [{ edge: 'in', sentences: 1.5 }, 'body.sentences: must be a whole number of sentences'],
      [{ edge: 'out', sentences: 20 }, 'body.sentences: would make the clip'],
    ] as const) {
      const refused = await bridge.call('POST', path, { body });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain(message);
    }

    const edl = (await bridge.call('GET', `/clips/analyses/${analysisId}/edl?fps=25`)).body as string;
    const second = edl.split('\n').find((line) => line.startsWith('002'))!;
    const frames = (tc: string) =>
      tc
        .split(':')
        .map(Number)
        .reduce((sum, part, i) => sum + part * [90000, 1500, 25, 1][i]!, 0);
    expect(frames(second.slice(41, 52))).toBe(Math.round(reviewed.endTime * 25));

    const draft = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/2/draft`, { body: {} });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      duration: Math.round(reviewed.duration),
      hookQuote: reviewed.hookQuote,
      created: true,
    });
    expect(crm.get('Clip', draft.body.id)).toMatchObject({
      duration: Math.round(reviewed.duration),
      hookQuote: reviewed.hookQuote,
    });
  });

  it('a draft says whether it fits in the words of the activity feed, quotes not doubled', async () => {
    const draft = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/draft`, {
      body: { targetPlatforms: ['Microblog', 'Shortvideo'] },
    });
    // The CRM made it portrait (its default): Microblog prefers 16:9 or 1:1.
    expect(draft.body.fit).toEqual({
      fits: false,
      problems: ['Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only'],
      message: `Clip ${draft.body.name} does not fit: Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only`,
    });
    expect(draft.body.name.startsWith('"')).toBe(true);
    expect(draft.body.fit.message).not.toContain('""');
    const activity = await bridge.call('GET', '/api/activity?type=clips.draft-created&limit=1');
    expect(activity.body.data[0].message).toBe(
      `Draft clip ${draft.body.name} (${draft.body.duration} s) created for "Ep 28: The tray"`,
    );
  });

  it('refuses a draft of a suggestion the analysis does not have, or a bad name, naming the field', async () => {
    const missing = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/4/draft`, { body: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`n: analysis ${analysisId} has 3 suggestions, not 4`);
    const blank = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/draft`, {
      body: { name: ' ' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toContain('body.name: must not be empty');
    const platform = await bridge.call('POST', `/clips/analyses/${analysisId}/clips/1/draft`, {
      body: { targetPlatforms: ['Fax Reels'] },
    });
    expect(platform.status).toBe(400);
    expect(platform.body.error).toContain('body.targetPlatforms');
  });

  it('is gone after 30 days', async () => {
    advance(30 * 86_400 + 1);
    const gone = await bridge.call('GET', `/clips/analyses/${analysisId}/clips/1/srt`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toContain('older than 30 days');
  });
});
