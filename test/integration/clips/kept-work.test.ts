import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Issue #44.3, work that is kept (found on the operator's day: leaving the Clips page wiped the
 * review, and suggesting again made a second draft of the same moment): the bridge lists recent
 * analyses with their drafts per production, gives one back as it was left (its review nudges, its
 * drafts), names a draft made of the same moment from another analysis, and refuses a second draft
 * of that moment with 409 in words.
 */
const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');

let crm: SandboxCrm;
let bridge: TestBridge;
let episodeId: string;
let otherEpisodeId: string;

beforeAll(async () => {
  crm = await startSandboxCrm();
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey },
    { areas: ['clips', 'health'] },
  );
  episodeId = crm.create('ContentProduction', { name: 'Ep 44: Kept', showName: 'Show' }).id;
  otherEpisodeId = crm.create('ContentProduction', { name: 'Ep 45: Other', showName: 'Show' }).id;
});
afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
});

const analyse = async (contentProductionId: string) => {
  const answer = await bridge.call('POST', '/clips/analyze', {
    body: { contentProductionId, transcript: interview, maxClips: 3 },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { analysisId: string; suggestedClips: Array<{ startTime: number; endTime: number }> };
};

describe('work that is kept', () => {
  let first: Awaited<ReturnType<typeof analyse>>;
  let draftId: string;

  it('an analysis comes back as it was left: its suggestions, the review nudges, the draft made', async () => {
    first = await analyse(episodeId);
    const nudged = await bridge.call('POST', `/clips/analyses/${first.analysisId}/clips/1/nudge`, {
      body: { edge: 'out', sentences: 1 },
    });
    expect(nudged.status, JSON.stringify(nudged.body)).toBe(200);
    const draft = await bridge.call('POST', `/clips/analyses/${first.analysisId}/clips/1/draft`, {
      body: {},
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    draftId = draft.body.id as string;

    const back = await bridge.call('GET', `/clips/analyses/${first.analysisId}`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.analysisId).toBe(first.analysisId);
    expect(back.body.suggestedClips).toEqual(first.suggestedClips);
    expect(back.body.kept[0]).toMatchObject({
      n: 1,
      reviewed: { nudged: true, endTime: nudged.body.clip.endTime },
      draft: { clipId: draftId, analysisId: first.analysisId, n: 1 },
    });
    expect(back.body.kept[1]).toMatchObject({ n: 2, reviewed: null, draft: null });
  });

  it('suggesting again names the draft of the same moment instead of offering another; a second draft is 409', async () => {
    const again = await analyse(episodeId);
    expect(again.analysisId).not.toBe(first.analysisId);
    const back = await bridge.call('GET', `/clips/analyses/${again.analysisId}`);
    expect(back.body.kept[0].draft).toMatchObject({ clipId: draftId, analysisId: first.analysisId, n: 1 });
    const drafts = () => crm.list('Clip').filter((clip) => clip.contentProductionId === episodeId).length;
    const before = drafts();
    const second = await bridge.call('POST', `/clips/analyses/${again.analysisId}/clips/1/draft`, {
      body: {},
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toContain(draftId);
    expect(second.body.error).toMatch(/same moment/);
    expect(drafts()).toBe(before);
    // The same suggestion of the same analysis asked again is the same draft (a retry after a timeout).
    const repeat = await bridge.call('POST', `/clips/analyses/${first.analysisId}/clips/1/draft`, {
      body: {},
    });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ id: draftId, created: false });
  });

  it('lists recent analyses, newest first, with their drafts; by production', async () => {
    await analyse(otherEpisodeId);
    const all = await bridge.call('GET', '/clips/analyses');
    expect(all.status).toBe(200);
    expect(all.body.analyses).toHaveLength(3);
    expect(all.body.analyses[0].contentProductionId).toBe(otherEpisodeId);
    const mine = await bridge.call('GET', `/clips/analyses?contentProductionId=${episodeId}`);
    expect(mine.body.analyses.map((a: { analysisId: string }) => a.analysisId).at(-1)).toBe(first.analysisId);
    expect(mine.body.analyses.at(-1)).toMatchObject({
      suggestions: first.suggestedClips.length,
      drafts: [{ n: 1, clipId: draftId }],
    });
    expect(mine.body.analyses[0].drafts).toEqual([]);
  });

  it('an unknown analysis is 404 naming the field', async () => {
    const missing = await bridge.call('GET', '/clips/analyses/an_AAAAAAAAAAAAAAAA');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/^analysisId: /);
  });
});
