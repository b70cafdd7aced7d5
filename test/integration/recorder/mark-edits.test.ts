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
 * Issue #41.2: a mark is renamed and deleted over HTTP (PUT and DELETE /api/recorder/marks/:markId),
 * its id, label and guard checked in words (400, 404, 409), and what reads the take follows: the
 * EDL's locator has the new label, a deleted mark pins no clip and leaves the EDL.
 */
let clockMs = Date.parse('2026-12-01T10:00:00.000Z');
const now = () => new Date(clockMs);
const advance = (seconds: number) => void (clockMs += seconds * 1000);
const interview = readFileSync(new URL('../../fixtures/transcripts/interview.txt', import.meta.url), 'utf8');

let crm: SandboxCrm;
let obs: SandboxObs;
let bridge: TestBridge;
let episodeId: string;
let takeId: number;
const marks: Record<string, number> = {};

beforeAll(async () => {
  crm = await startSandboxCrm();
  obs = await startSandboxObs({ now });
  bridge = await startTestBridge(
    { CRM_URL: crm.url, CRM_API_KEY: crm.apiKey, RECORDER_OBS_URL: obs.url },
    { areas: ['recorder', 'clips', 'health'], now },
  );
  episodeId = crm.create('ContentProduction', { name: 'Ep 41: Marks', showName: 'Show' }).id;
  const recorded = await recordTake(bridge, obs, advance, {
    filename: 'ep41_marks',
    seconds: 420,
    marks: [
      { label: 'first', at: 20 },
      { label: 'second', at: 120 },
    ],
  });
  takeId = recorded.id;
  for (const mark of recorded.marks) marks[mark.label!] = mark.id;
});
afterAll(async () => {
  await bridge?.close();
  await obs?.stop();
  await crm?.stop();
});

const take = async () =>
  (
    (await bridge.call('GET', '/api/recorder/takes')).body.takes as Array<{ id: number; marks: unknown[] }>
  ).find((t) => t.id === takeId)!;

describe('renaming a mark', () => {
  it('renames it; the take, the activity and the EDL use the new label', async () => {
    const renamed = await bridge.call('PUT', `/api/recorder/marks/${marks.first}`, {
      body: { label: '  the big reveal ', previousLabel: 'first' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.mark).toMatchObject({
      id: marks.first,
      label: 'the big reveal',
      takeId,
      offsetS: 20,
    });
    expect((await take()).marks).toContainEqual(expect.objectContaining({ label: 'the big reveal' }));

    const analysis = await bridge.call('POST', '/clips/analyze', {
      body: { contentProductionId: episodeId, transcript: interview, maxClips: 3, takeId },
    });
    expect(analysis.status).toBe(200);
    const edl = await bridge.call('GET', `/clips/analyses/${analysis.body.analysisId}/edl?fps=25`);
    expect(edl.status).toBe(200);
    expect(edl.body).toContain('the big reveal');
    expect(edl.body).not.toMatch(/LOC: .* first$/m);
  });

  it('an empty label leaves it unlabelled', async () => {
    const cleared = await bridge.call('PUT', `/api/recorder/marks/${marks.second}`, { body: { label: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.mark.label).toBeNull();
    await bridge.call('PUT', `/api/recorder/marks/${marks.second}`, { body: { label: 'second' } });
  });

  it('409 in words when it was renamed meanwhile, naming the label it has', async () => {
    const stale = await bridge.call('PUT', `/api/recorder/marks/${marks.first}`, {
      body: { label: 'mine', previousLabel: 'first' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('CONFLICT');
    expect(stale.body.error).toContain(`mark ${marks.first} was renamed to "the big reveal" meanwhile`);
  });

  it('404 in words for no such mark; 400 naming the field and rule for a bad id or label', async () => {
    const missing = await bridge.call('PUT', '/api/recorder/marks/999999', { body: { label: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('markId: there is no mark 999999 (deleted, or never made)');
    const notNumber = await bridge.call('PUT', '/api/recorder/marks/abc', { body: { label: 'x' } });
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.error).toContain('markId: must be a number');
    const long = await bridge.call('PUT', `/api/recorder/marks/${marks.first}`, {
      body: { label: 'x'.repeat(201) },
    });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('label');
    const noLabel = await bridge.call('PUT', `/api/recorder/marks/${marks.first}`, { body: {} });
    expect(noLabel.status).toBe(400);
    expect(noLabel.body.error).toContain('label');
  });
});

describe('deleting a mark', () => {
  it('deletes it: gone from the take, pins no clip in a later analysis, not in the EDL; then 404', async () => {
    const deleted = await bridge.call('DELETE', `/api/recorder/marks/${marks.second}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toMatchObject({ id: marks.second, label: 'second' });
    expect((await take()).marks).toHaveLength(1);

    const analysis = await bridge.call('POST', '/clips/analyze', {
      body: { contentProductionId: episodeId, transcript: interview, maxClips: 3, takeId },
    });
    const pinnedBy = (analysis.body.suggestedClips as Array<{ marks: Array<{ id: number }> }>).flatMap(
      (clip) => clip.marks.map((mark) => mark.id),
    );
    expect(pinnedBy).not.toContain(marks.second);
    expect(pinnedBy).toContain(marks.first);
    const edl = await bridge.call('GET', `/clips/analyses/${analysis.body.analysisId}/edl?fps=25`);
    expect(edl.body).not.toMatch(/LOC: .* second$/m);

    const again = await bridge.call('DELETE', `/api/recorder/marks/${marks.second}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(`markId: there is no mark ${marks.second} (deleted, or never made)`);
  });
});
