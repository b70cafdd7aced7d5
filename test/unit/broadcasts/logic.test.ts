import { describe, expect, it } from 'vitest';
import { createBroadcastBody } from '../../../shared/api/broadcasts.js';
import { PeerError } from '../../../main/peers/peer-error.js';
import { AppError } from '../../../main/kernel/app-error.js';
import { httpStatusOf } from '../../../main/http/send-error.js';
import { peerAppError } from '../../../main/peers/peer-app-error.js';
import { maskKey, maskStreamSource, redactText, redactValue } from '../../../main/kernel/secret-mask.js';
import {
  broadcastChange,
  isActiveBroadcast,
  mapPool,
  toBroadcastRecord,
} from '../../../main/areas/broadcasts/records.js';

describe('create-broadcast body', () => {
  const base = { name: 'Live Q&A', scheduledAt: '2026-06-02T17:00:00Z' };

  it('defaults each settings flag to true on its own', () => {
    expect(createBroadcastBody.parse(base).settings).toEqual({
      isPublic: true,
      chatEnabled: true,
      dvr: true,
    });
    expect(createBroadcastBody.parse({ ...base, settings: { dvr: false } }).settings).toEqual({
      isPublic: true,
      chatEnabled: true,
      dvr: false,
    });
    expect(
      createBroadcastBody.parse({ ...base, settings: { isPublic: false, chatEnabled: false } }).settings,
    ).toEqual({
      isPublic: false,
      chatEnabled: false,
      dvr: true,
    });
  });

  it('requires name and an ISO 8601 scheduledAt', () => {
    const issues = (body: unknown) =>
      createBroadcastBody.safeParse(body).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(issues({})).toEqual(['name', 'scheduledAt']);
    expect(issues({ name: '  ', scheduledAt: '2026-06-02 17:00' })).toEqual(['name', 'scheduledAt']);
    expect(issues({ ...base, streamSource: { type: 'rtmp', url: 'not a url' } })).toEqual([
      'streamSource.url',
    ]);
    expect(issues({ ...base, settings: { dvr: 'yes' } })).toEqual(['settings.dvr']);
  });

  it('keeps streamSource absent when it is not given', () => {
    expect('streamSource' in createBroadcastBody.parse(base)).toBe(false);
  });
});

describe('stream key masking', () => {
  it('shows the last four characters of a long key and nothing of a short one', () => {
    expect(maskKey('live_8f3k-29dk-a7c1')).toBe('••••a7c1');
    expect(maskKey('short')).toBe('••••');
    expect(maskStreamSource({ type: 'rtmp', url: 'rtmp://in/app', key: 'abcd-efgh-ijkl' })).toEqual({
      type: 'rtmp',
      url: 'rtmp://in/app',
      key: '••••ijkl',
    });
    expect(maskStreamSource({ type: 'srt', url: 'srt://in:9000' })).toEqual({
      type: 'srt',
      url: 'srt://in:9000',
    });
  });

  it('masks a key wherever a peer echoes it', () => {
    const key = 'abcd-efgh-ijkl';
    expect(redactText(`bad key ${key} for rtmp://in/app/${key}`, [key, undefined, null])).toBe(
      'bad key ••••ijkl for rtmp://in/app/••••ijkl',
    );
    expect(redactValue({ a: [key], b: 3, c: { d: `x${key}` } }, [key])).toEqual({
      a: ['••••ijkl'],
      b: 3,
      c: { d: 'x••••ijkl' },
    });
  });
});

describe('gateway errors as the bridge answers them', () => {
  const gatewayError = (status: number, body: unknown) =>
    new PeerError('gateway', 'http', `gateway POST /streamhost/broadcasts: HTTP ${status}`, { status, body });

  it('passes the spec codes through with sensible statuses', () => {
    const cases: Array<[number, string, number]> = [
      [404, 'CHANNEL_NOT_FOUND', 404],
      [400, 'RTMP_INVALID', 400],
      [409, 'CONFLICT', 409],
      [401, 'AUTH_EXPIRED', 500],
      [502, 'STREAMHOST_ERROR', 500],
    ];
    for (const [status, code, bridgeStatus] of cases) {
      const error = peerAppError(gatewayError(status, { error: `${code} happened`, code, details: 'why' }), {
        action: 'create broadcast',
      });
      expect([httpStatusOf(error), error.code, error.message, error.details]).toEqual([
        bridgeStatus,
        code,
        `${code} happened`,
        'why',
      ]);
    }
  });

  it('gives STREAMHOST_ERROR details even when the gateway sent none', () => {
    const error = peerAppError(gatewayError(502, { error: 'host down', code: 'STREAMHOST_ERROR' }), {
      action: 'x',
    });
    expect(error.details).toBe('host down');
    const bare = peerAppError(gatewayError(500, undefined), { action: 'sync' });
    expect([httpStatusOf(bare), bare.code]).toEqual([500, 'STREAMHOST_ERROR']);
    expect(bare.details).toContain('HTTP 500');
  });

  it('masks the stream key in messages and details', () => {
    const key = 'abcd-efgh-ijkl';
    const error = peerAppError(
      gatewayError(400, { error: `key ${key} rejected`, code: 'RTMP_INVALID', details: { key } }),
      { action: 'create broadcast', secrets: [key] },
    );
    expect(JSON.stringify([error.message, error.details])).not.toContain(key);
    expect(error.message).toBe('key ••••ijkl rejected');
  });

  it('answers 404 for an unknown broadcast, and says so when a create timed out', () => {
    const missing = peerAppError(gatewayError(404, { error: 'broadcast x not found', code: 'NOT_FOUND' }), {
      action: 'read broadcast x',
      notFound: 'broadcastId: no broadcast x at the host',
    });
    expect([httpStatusOf(missing), missing.code, missing.message]).toEqual([
      404,
      'NOT_FOUND',
      'broadcastId: no broadcast x at the host',
    ]);
    const timeout = peerAppError(
      new PeerError('gateway', 'timeout', 'gateway POST: no answer within 15000 ms', {
        outcomeUnknown: true,
      }),
      { action: 'create broadcast' },
    );
    expect(timeout.code).toBe('STREAMHOST_ERROR');
    expect(timeout.message).toMatch(/may have done it anyway/);
    const validation = peerAppError(
      gatewayError(400, { error: 'invalid broadcast', code: 'VALIDATION_ERROR', details: 'name' }),
      {
        action: 'x',
      },
    );
    expect([httpStatusOf(validation), validation.code]).toEqual([400, 'VALIDATION_ERROR']);
    const other = new AppError('conflict', 'CONFLICT', 'mine');
    expect(peerAppError(other, { action: 'x' })).toBe(other);
  });
});

describe('sync rule (spec §3.6)', () => {
  const record = toBroadcastRecord({
    id: 'b1',
    name: 'Live #3',
    streamhostId: 'h1',
    status: 'ready',
    viewerCount: 0,
    startedAt: null,
  });
  const remote = {
    id: 'h1',
    name: 'Live #3',
    status: 'ready',
    viewerCount: 0,
    startedAt: null,
    streamHealth: 'no_data',
  };

  it('writes nothing when status and viewers match', () => {
    expect(broadcastChange(record, remote)).toBeNull();
  });

  it('overwrites status and viewerCount when the status differs', () => {
    expect(
      broadcastChange(record, {
        ...remote,
        status: 'live',
        viewerCount: 120,
        startedAt: '2026-06-01T18:00:00.000Z',
      }),
    ).toEqual({
      changes: { status: 'live', viewerCount: 120, startedAt: '2026-06-01T18:00:00.000Z' },
      statusChangedFrom: 'ready',
    });
  });

  it('overwrites when only the viewers changed, without a status change', () => {
    const live = { ...record, status: 'live', viewerCount: 120, startedAt: '2026-06-01T18:00:00.000Z' };
    expect(
      broadcastChange(live, {
        ...remote,
        status: 'live',
        viewerCount: 150,
        startedAt: '2026-06-01T18:00:00Z',
      }),
    ).toEqual({
      changes: { status: 'live', viewerCount: 150 },
      statusChangedFrom: undefined,
    });
  });

  it('treats complete and revoked as finished, anything else as still to watch', () => {
    expect(['complete', 'revoked'].map(isActiveBroadcast)).toEqual([false, false]);
    expect(['created', 'ready', 'testing', 'live', null, 'paused'].map(isActiveBroadcast)).toEqual(
      Array(6).fill(true),
    );
  });

  it('reads CRM records loosely', () => {
    expect(toBroadcastRecord({ id: 'x', viewerCount: 'lots', embedUrl: '' })).toMatchObject({
      name: '(unnamed)',
      viewerCount: 0,
      embedUrl: null,
      status: null,
    });
  });

  it('runs a bounded number of tasks at once, results in order', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (8 - n)));
      running--;
      return n * 2;
    });
    expect(results).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });
});
