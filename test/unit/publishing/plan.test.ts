import { describe, expect, it } from 'vitest';
import { PeerError } from '../../../main/peers/peer-error.js';
import { defaultPublishRoutes } from '../../../main/config/publish-routes.js';
import {
  failureText,
  publishFields,
  resolveDependency,
  toPublishRecord,
  waitingDependents,
  type PublishRecord,
} from '../../../main/areas/publishing/plan.js';
import { nothingSent } from '../../../main/areas/publishing/service.js';
import { groupByProduction, publishView } from '../../../main/areas/publishing/views.js';
import type { LedgerRow } from '../../../main/areas/publishing/repo.js';

const record = (overrides: Partial<PublishRecord> & { id: string }): PublishRecord => ({
  platform: 'Videosite',
  publishType: 'Livestream',
  status: 'Queued',
  contentProductionId: 'cp1',
  streamUrl: null,
  streamKey: null,
  ...overrides,
});

describe('dependencies (DESIGN §6.4)', () => {
  const dependent = record({ id: 'sh', platform: 'Streamhost' });

  it('waits while the primary of the same production has not published, also when it does not exist yet', () => {
    expect(resolveDependency(defaultPublishRoutes, dependent, 'Videosite', [dependent])).toEqual({
      kind: 'wait',
      on: 'Videosite',
      reason: 'waiting for a Videosite publish record of this production',
    });
    const queued = record({ id: 'vs', status: 'Queued' });
    const failed = record({ id: 'vs2', status: 'Failed' });
    expect(
      resolveDependency(defaultPublishRoutes, dependent, 'Videosite', [dependent, queued, failed]),
    ).toEqual({
      kind: 'wait',
      on: 'Videosite',
      reason: 'waiting for Videosite to publish (it is Queued, Failed)',
    });
    // A Videosite record of another production does not count.
    const other = record({
      id: 'vs3',
      status: 'Published',
      contentProductionId: 'cp2',
      streamUrl: 'rtmp://x/y',
    });
    expect(resolveDependency(defaultPublishRoutes, dependent, 'Videosite', [other]).kind).toBe('wait');
  });

  it("is ready once the primary is Published, with the primary's stream details", () => {
    const primary = record({
      id: 'vs',
      status: 'Published',
      streamUrl: 'rtmp://live/app',
      streamKey: 'abcd-efgh',
    });
    const upload = record({ id: 'vs-up', status: 'Published', publishType: 'Upload' });
    expect(
      resolveDependency(defaultPublishRoutes, dependent, 'Videosite', [upload, primary, dependent]),
    ).toEqual({
      kind: 'ready',
      primaryId: 'vs',
      streamUrl: 'rtmp://live/app',
      streamKey: 'abcd-efgh',
    });
    expect(resolveDependency(defaultPublishRoutes, dependent, null, [])).toEqual({ kind: 'none' });
  });

  it('fails a dependent that has no production to look its primary up by', () => {
    const orphan = record({ id: 'sh', platform: 'Streamhost', contentProductionId: null });
    expect(resolveDependency(defaultPublishRoutes, orphan, 'Videosite', [])).toMatchObject({ kind: 'fail' });
  });

  it('releases only the Queued dependents of the same production when a primary publishes', () => {
    const primary = record({ id: 'vs', status: 'Published' });
    const siblings = [
      primary,
      record({ id: 'sh1', platform: 'Streamhost' }),
      record({ id: 'sh2', platform: 'Streamhost', status: 'Draft' }),
      record({ id: 'sh3', platform: 'Streamhost', contentProductionId: 'cp2' }),
      record({ id: 'av', platform: 'Altvideo' }),
      record({ id: 'sh4', platform: 'streamhost' }),
    ];
    expect(waitingDependents(defaultPublishRoutes, primary, siblings).map((r) => r.id)).toEqual([
      'sh1',
      'sh4',
    ]);
    expect(
      waitingDependents(defaultPublishRoutes, record({ id: 'av', platform: 'Altvideo' }), siblings),
    ).toEqual([]);
  });
});

describe('what is sent to the gateway', () => {
  const raw = {
    id: 'pp1',
    name: 'Ep 4 · Videosite',
    platform: 'Videosite',
    publishType: 'Upload',
    title: 'Editing Is Writing',
    description: 'Notes',
    thumbnailUrl: 'https://cdn.example/t.jpg',
    scheduledAt: '2026-06-01T18:00:00.000Z',
    status: 'Queued',
    platformUrl: null,
    apiResponse: 'old failure',
    streamKey: 'stale',
    contentProductionId: 'cp1',
    contentProductionName: 'Ep 4',
    tags: ['a'],
    createdAt: '2026-05-01T00:00:00.000Z',
    modifiedById: 'u1',
    empty: '',
  };

  it('forwards the publish fields and leaves out result, system and empty attributes', () => {
    expect(publishFields(raw)).toEqual({
      id: 'pp1',
      name: 'Ep 4 · Videosite',
      platform: 'Videosite',
      publishType: 'Upload',
      title: 'Editing Is Writing',
      description: 'Notes',
      thumbnailUrl: 'https://cdn.example/t.jpg',
      scheduledAt: '2026-06-01T18:00:00.000Z',
      contentProductionId: 'cp1',
      contentProductionName: 'Ep 4',
      tags: ['a'],
    });
  });

  it("adds the primary's stream for a dependent", () => {
    expect(publishFields(raw, { streamUrl: 'rtmp://live/app', streamKey: 'k-123' })).toMatchObject({
      streamUrl: 'rtmp://live/app',
      streamKey: 'k-123',
    });
  });

  it('writes apiResponse as CODE: message (details)', () => {
    expect(failureText({ code: 'RTMP_INVALID', message: 'bad ingest', details: 'got "x"' })).toBe(
      'RTMP_INVALID: bad ingest (got "x")',
    );
    expect(failureText({ message: 'HTTP 500' })).toBe('HTTP 500');
    expect(failureText({ code: 'X', message: 'm', details: { a: 1 } })).toBe('X: m ({"a":1})');
  });

  it('retries only failures where the gateway surely did nothing', () => {
    const refused = new PeerError(
      'gateway',
      'network',
      'connection refused',
      {},
      {
        cause: Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
        }),
      },
    );
    const reset = new PeerError(
      'gateway',
      'network',
      'reset',
      {},
      {
        cause: Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
        }),
      },
    );
    expect(nothingSent(refused)).toBe(true);
    expect(nothingSent(reset)).toBe(false);
    expect(nothingSent(new PeerError('gateway', 'http', '429', { status: 429 }))).toBe(true);
    expect(nothingSent(new PeerError('gateway', 'http', '503', { status: 503 }))).toBe(true);
    expect(nothingSent(new PeerError('gateway', 'http', '502', { status: 502 }))).toBe(false);
    expect(nothingSent(new PeerError('gateway', 'timeout', 'slow', { outcomeUnknown: true }))).toBe(false);
  });
});

describe('the publishing panel view', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const ledgerRow = (overrides: Partial<LedgerRow>): LedgerRow => ({
    record_id: 'x',
    platform: null,
    content_production_id: null,
    status: 'publishing',
    generation: 1,
    waiting_on: null,
    note: null,
    result: null,
    written_back: 0,
    dependents_released: 0,
    claimed_at: '2026-06-01T11:59:00.000Z',
    updated_at: '2026-06-01T11:59:00.000Z',
    ...overrides,
  });
  const crm = (id: string, attrs: Record<string, unknown>) => ({
    id,
    contentProductionId: 'cp1',
    contentProductionName: 'Live Q&A',
    ...attrs,
  });

  it('shows a Queued dependent as waiting on its primary, and masks stream keys', () => {
    const records = [
      crm('vs', { platform: 'Videosite', publishType: 'Livestream', status: 'Draft' }),
      crm('sh', { platform: 'Streamhost', publishType: 'Livestream', status: 'Queued' }),
      crm('av', {
        platform: 'Altvideo',
        status: 'Published',
        streamKey: 'av_SECRETKEY1234',
        platformUrl: 'https://a/1',
      }),
      crm('pod', { platform: 'Podcast', status: 'Queued' }),
      { id: 'lone', platform: 'Altvideo', status: 'Failed', apiResponse: 'AUTH_ERROR: expired' },
    ];
    const groups = groupByProduction(defaultPublishRoutes, records, new Map(), now);
    expect(groups.map((g) => [g.contentProductionId, g.contentProductionName, g.records.length])).toEqual([
      ['cp1', 'Live Q&A', 4],
      [null, null, 1],
    ]);
    const [vs, sh, av, pod] = groups[0]!.records;
    expect(vs).toMatchObject({ state: 'draft' });
    expect(sh).toMatchObject({
      state: 'waiting',
      waitingOn: 'Videosite',
      note: 'waiting for Videosite to publish (it is Draft)',
    });
    expect(av).toMatchObject({ state: 'published', streamKey: '••••1234', platformUrl: 'https://a/1' });
    expect(pod).toMatchObject({ state: 'queued', note: 'no route for platform Podcast' });
    expect(groups[1]!.records[0]).toMatchObject({ state: 'failed', apiResponse: 'AUTH_ERROR: expired' });
  });

  it('shows a claim in flight, and one that never reported back as unknown', () => {
    const raw = crm('vs', { platform: 'Videosite', status: 'Queued' });
    expect(publishView(defaultPublishRoutes, raw, ledgerRow({}), [], now)).toMatchObject({
      state: 'publishing',
      note: 'publishing since 2026-06-01T11:59:00.000Z',
    });
    const stale = publishView(
      defaultPublishRoutes,
      raw,
      ledgerRow({ claimed_at: '2026-06-01T10:00:00.000Z' }),
      [],
      now,
    );
    expect(stale.note).toMatch(/outcome is unknown/);
    expect(
      publishView(
        defaultPublishRoutes,
        raw,
        ledgerRow({ status: 'retrying', note: 'attempt 1 failed' }),
        [],
        now,
      ),
    ).toMatchObject({ state: 'queued', note: 'attempt 1 failed' });
  });

  it('reads CRM records loosely: missing fields are null', () => {
    expect(toPublishRecord({ id: 'x', platform: '', status: 7 })).toEqual({
      id: 'x',
      platform: null,
      publishType: null,
      status: null,
      contentProductionId: null,
      streamUrl: null,
      streamKey: null,
    });
  });
});
