import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/** The gateway's clock (and the bridges' that watch broadcasts by time). Broadcasts go live only when their encoder starts. */
const START = Date.parse('2026-06-01T18:00:00Z');
let clock = START;
let crm: SandboxCrm;
let gateway: SandboxGateway;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  gateway = await startSandboxGateway({ now: () => new Date(clock) });
  // The 30 s timer stays out of the way here; the last test runs a bridge with a fast one.
  bridge = await startTestBridge(peerEnv());
});
afterAll(async () => {
  await bridge?.close();
  await gateway?.stop();
  await crm?.stop();
});
beforeEach(() => {
  gateway.setSessionExpired(false);
  gateway.setHostFailure(null);
  gateway.setEndSupported(true);
});

const peerEnv = () => ({
  CRM_URL: crm.url,
  CRM_API_KEY: crm.apiKey,
  GATEWAY_URL: gateway.url,
  GATEWAY_API_KEY: gateway.apiKey,
});

let slot = 0;
/** A start time on its own half hour, so broadcasts of one channel never conflict by accident. */
const nextSlot = () => new Date(Date.parse('2026-07-01T10:00:00Z') + ++slot * 3_600_000).toISOString();
const create = (body: Record<string, unknown>) =>
  bridge.call('POST', '/streamhost/create-broadcast', {
    body: { name: 'Live', scheduledAt: nextSlot(), ...body },
  });
const records = () => crm.list('StreamhostBroadcast');
const activity = async (type: string) =>
  (await bridge.call('GET', `/api/activity?type=${type}&limit=500`)).body.data as Array<{
    message: string;
    data: Record<string, unknown>;
  }>;

describe('POST /streamhost/create-broadcast', () => {
  it('creates the broadcast at the host and its StreamhostBroadcast record, settings defaulting to true one by one', async () => {
    clock = START;
    const scheduledAt = nextSlot();
    const response = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: {
        name: 'Live Q&A',
        description: 'questions',
        scheduledAt,
        channelId: 'backup',
        settings: { dvr: false },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      broadcastId: expect.any(String),
      embedUrl: expect.stringContaining('/streamhost/embed/'),
      dashboardUrl: expect.stringContaining('/streamhost/dashboard/'),
      recordId: expect.any(String),
    });
    const remote = gateway.broadcasts().find((b) => b.id === response.body.broadcastId);
    expect(remote).toMatchObject({
      name: 'Live Q&A',
      description: 'questions',
      channelId: 'backup',
      settings: { isPublic: true, chatEnabled: true, dvr: false },
    });
    const record = crm.get('StreamhostBroadcast', response.body.recordId);
    expect(record).toMatchObject({
      name: 'Live Q&A',
      streamhostId: response.body.broadcastId,
      status: 'created',
      viewerCount: 0,
      scheduledAt: scheduledAt.replace('T', ' ').slice(0, 19),
      channelId: 'backup',
      embedUrl: response.body.embedUrl,
      dashboardUrl: response.body.dashboardUrl,
    });
    const listed = await bridge.call('GET', '/api/broadcasts');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({
        id: response.body.recordId,
        streamhostId: response.body.broadcastId,
        status: 'created',
      }),
    );
  });

  it('forwards the stream source, and never shows or records its key in full', async () => {
    const key = 'live_8f3k-29dk-a7c1-x0x0';
    const response = await create({ streamSource: { type: 'rtmp', url: 'rtmps://ingest.example/app', key } });
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toContain(key);
    const created = (await activity('broadcast.created')).find(
      (e) => e.data.broadcastId === response.body.broadcastId,
    );
    expect(created?.data.streamSource).toEqual({
      type: 'rtmp',
      url: 'rtmps://ingest.example/app',
      key: '••••x0x0',
    });
    const everything = await bridge.call('GET', '/api/activity?limit=500');
    expect(JSON.stringify(everything.body)).not.toContain(key);

    // A bad source reaches the gateway (it is forwarded) and its code comes back; the key stays hidden.
    const bad = await create({ streamSource: { type: 'rtmp', url: 'http://ingest.example/app', key } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'RTMP_INVALID', details: expect.any(String) });
    expect(JSON.stringify(bad.body)).not.toContain(key);
  });

  it('requires name and scheduledAt, naming the fields', async () => {
    const response = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: { description: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.error).toContain('body.name');
    expect(response.body.error).toContain('body.scheduledAt');
    const badDate = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: { name: 'x', scheduledAt: 'tomorrow' },
    });
    expect(badDate.status).toBe(400);
  });

  it('a scheduledAt before 2000 or more than 5 years ahead is 400 INVALID_DATE; nothing reaches the host or the CRM', async () => {
    const hosted = gateway.broadcasts().length;
    const before = records().length;
    const ancient = await create({ scheduledAt: '0026-05-01T10:00:00Z' });
    expect(ancient.status).toBe(400);
    expect(ancient.body).toMatchObject({
      success: false,
      code: 'INVALID_DATE',
      error: 'scheduledAt: 0026-05-01T10:00:00Z is before 2000-01-01',
    });
    const sixYears = new Date(Date.now() + 6 * 366 * 86_400_000).toISOString();
    const far = await create({ scheduledAt: sixYears });
    expect(far.status).toBe(400);
    expect(far.body).toMatchObject({
      success: false,
      code: 'INVALID_DATE',
      error: expect.stringMatching(/^scheduledAt: \S+ is more than 5 years ahead \(latest /),
    });
    expect(gateway.broadcasts().length).toBe(hosted);
    expect(records().length).toBe(before);
  });

  it("passes the gateway's codes through: CHANNEL_NOT_FOUND 404, CONFLICT 409, AUTH_EXPIRED 500, STREAMHOST_ERROR 500 with details", async () => {
    const before = records().length;
    const channel = await create({ channelId: 'nope' });
    expect([channel.status, channel.body.code]).toEqual([404, 'CHANNEL_NOT_FOUND']);
    expect(channel.body.details).toContain('known channels');

    const scheduledAt = nextSlot();
    expect((await create({ scheduledAt })).status).toBe(200);
    const conflict = await create({ scheduledAt });
    expect([conflict.status, conflict.body.code]).toEqual([409, 'CONFLICT']);
    expect(conflict.body.details).toContain('conflicts with broadcast');

    gateway.setSessionExpired(true);
    const expired = await create({});
    expect([expired.status, expired.body.code]).toEqual([500, 'AUTH_EXPIRED']);
    gateway.setSessionExpired(false);

    gateway.setHostFailure('ingest cluster down');
    const failing = await create({});
    expect(failing.status).toBe(500);
    expect(failing.body).toEqual({
      success: false,
      error: 'streamhost API error',
      code: 'STREAMHOST_ERROR',
      details: 'ingest cluster down',
      // Which peer failed and why, for the dashboard's words (issue #30).
      peer: { name: 'gateway', cause: 'failing', status: 502 },
    });
    // Only the one broadcast that was created got a record.
    expect(records().length).toBe(before + 1);
  });
});

describe('status, delete and sync', () => {
  it('reads the status from the host and answers 404 for an unknown broadcast', async () => {
    clock = START;
    const { body } = await create({ name: 'Status check' });
    gateway.startEncoder(body.broadcastId);
    clock = START + 50_000;
    const status = await bridge.call('GET', `/streamhost/status/${body.broadcastId}`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      success: true,
      broadcast: {
        id: body.broadcastId,
        name: 'Status check',
        status: 'live',
        viewerCount: expect.any(Number),
        startedAt: new Date(START).toISOString(),
        streamHealth: expect.any(String),
      },
    });
    expect(status.body.broadcast.viewerCount).toBeGreaterThan(0);
    const unknown = await bridge.call('GET', '/streamhost/status/nope');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('deletes at the host and removes the record; an unknown id is 404', async () => {
    const { body } = await create({ name: 'To delete' });
    const deleted = await bridge.call('POST', '/streamhost/delete-broadcast', {
      body: { broadcastId: body.broadcastId },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      success: true,
      message: expect.stringContaining('1 CRM record(s) removed'),
    });
    expect(gateway.broadcasts().find((b) => b.id === body.broadcastId)?.status).toBe('revoked');
    expect(crm.get('StreamhostBroadcast', body.recordId)).toBeUndefined();
    const unknown = await bridge.call('POST', '/streamhost/delete-broadcast', {
      body: { broadcastId: 'nope' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const missing = await bridge.call('POST', '/streamhost/delete-broadcast', { body: {} });
    expect(missing.status).toBe(400);
  });

  it('syncs every record with a streamhostId, paging past 200, counting exactly and going on past failures', async () => {
    for (const record of records()) crm.remove('StreamhostBroadcast', record.id);
    clock = START;
    const ids: string[] = [];
    for (const name of ['Sync A', 'Sync B']) ids.push((await create({ name })).body.broadcastId);
    // 205 records: two real broadcasts many times over (one read each), one the host does not know, one without an id.
    for (let i = 0; i < 203; i++) {
      crm.create('StreamhostBroadcast', {
        name: `Copy ${i}`,
        streamhostId: ids[i % 2],
        status: 'created',
        viewerCount: 0,
      });
    }
    crm.create('StreamhostBroadcast', {
      name: 'Gone',
      streamhostId: 'unknown-at-host',
      status: 'live',
      viewerCount: 3,
    });
    crm.create('StreamhostBroadcast', { name: 'Not at the host yet', status: 'created' });

    for (const id of ids) gateway.startEncoder(id);
    clock = START + 50_000;
    const sync = await bridge.call('POST', '/streamhost/sync');
    expect(sync.status).toBe(200);
    expect(sync.body).toEqual({ success: true, synced: 206, updated: 205, errors: 1 });
    const live = records().filter((r) => r.status === 'live' && r.name !== 'Gone');
    expect(live).toHaveLength(205);
    expect(live.every((r) => Number(r.viewerCount) > 0 && r.startedAt !== null)).toBe(true);
    expect(records().find((r) => r.name === 'Not at the host yet')?.status).toBe('created');

    const changes = await activity('broadcast.status');
    expect(changes.some((e) => e.data.from === 'created' && e.data.to === 'live')).toBe(true);
    const summary = (await activity('broadcast.sync'))[0];
    expect(summary?.message).toContain('"Gone": no longer exists at the host');

    // Nothing changed at the host: nothing to write.
    const again = await bridge.call('POST', '/streamhost/sync');
    expect(again.body).toEqual({ success: true, synced: 206, updated: 0, errors: 1 });
  });

  it('reads every 5 s from 10 min before a start until the broadcast is over or 6 h past it, else at the slow pace', async () => {
    for (const record of records()) crm.remove('StreamhostBroadcast', record.id);
    await bridge.close();
    clock = START;
    // Slow pace an hour, close watch 150 ms: a live broadcast seen within seconds is the close watch's doing.
    bridge = await startTestBridge(peerEnv(), {
      now: () => new Date(clock),
      tuning: { broadcasts: { autoSyncMs: 3_600_000, watchSyncMs: 150 } },
    });
    const autoSync = async () => (await bridge.call('GET', '/api/broadcasts')).body.autoSync;
    const far = await create({ name: 'Far', scheduledAt: new Date(START + 2 * 86_400_000).toISOString() });
    expect(far.status).toBe(200);
    expect(await autoSync()).toMatchObject({ active: true, intervalS: 3600 });

    const soon = await create({ name: 'Soon', scheduledAt: new Date(START + 5 * 60_000).toISOString() });
    expect(await autoSync()).toMatchObject({ active: true, intervalS: 0.15 });
    gateway.startEncoder(soon.body.broadcastId);
    await eventually(() => crm.get('StreamhostBroadcast', soon.body.recordId)?.status === 'live', 5_000);
    expect(crm.get('StreamhostBroadcast', far.body.recordId)?.status).toBe('created');

    // 6 h past its start the close watch ends, though the host still says live.
    clock = START + 6 * 3_600_000 + 60_000;
    await eventually(async () => (await autoSync()).intervalS === 3600, 5_000);
    clock = START + 60_000;
    // Back inside: End makes it complete, and a complete broadcast leaves the close watch.
    await eventually(async () => (await autoSync()).intervalS === 0.15, 5_000);
    const ended = await bridge.call('POST', '/streamhost/end-broadcast', {
      body: { broadcastId: soon.body.broadcastId },
    });
    expect(ended.status).toBe(200);
    await eventually(async () => (await autoSync()).intervalS === 3600, 5_000);
    const moves = (await activity('broadcast.status'))
      .filter((e) => e.data.id === soon.body.recordId)
      .map((e) => e.data.to);
    expect(moves.reverse()).toEqual(['live']);
  });
});

describe('POST /streamhost/end-broadcast', () => {
  it('ends a live broadcast at the host through the gateway; it stays listed as complete', async () => {
    const { body } = await create({ name: 'To end' });
    gateway.startEncoder(body.broadcastId);
    await bridge.call('POST', '/streamhost/sync');
    expect(crm.get('StreamhostBroadcast', body.recordId)?.status).toBe('live');

    const ended = await bridge.call('POST', '/streamhost/end-broadcast', {
      body: { broadcastId: body.broadcastId },
    });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({
      success: true,
      broadcastId: body.broadcastId,
      status: 'complete',
      message: expect.stringContaining('Broadcast “To end” ended'),
    });
    expect(gateway.broadcasts().find((b) => b.id === body.broadcastId)?.status).toBe('complete');
    const listed = await bridge.call('GET', '/api/broadcasts');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ id: body.recordId, streamhostId: body.broadcastId, status: 'complete' }),
    );
    const entry = (await activity('broadcast.ended')).find((e) => e.data.broadcastId === body.broadcastId);
    expect(entry?.data.recordIds).toEqual([body.recordId]);

    const unknown = await bridge.call('POST', '/streamhost/end-broadcast', { body: { broadcastId: 'nope' } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const notLive = await create({ name: 'Not live yet' });
    const early = await bridge.call('POST', '/streamhost/end-broadcast', {
      body: { broadcastId: notLive.body.broadcastId },
    });
    expect([early.status, early.body.code]).toEqual([409, 'CONFLICT']);
  });

  it('says the gateway cannot end broadcasts when it lacks End, and deletes nothing instead', async () => {
    gateway.setEndSupported(false);
    const { body } = await create({ name: 'Old gateway' });
    gateway.startEncoder(body.broadcastId);
    const ended = await bridge.call('POST', '/streamhost/end-broadcast', {
      body: { broadcastId: body.broadcastId },
    });
    expect(ended.status).toBe(501);
    expect(ended.body).toMatchObject({
      success: false,
      code: 'END_NOT_SUPPORTED',
      error: expect.stringContaining('cannot end broadcasts'),
    });
    expect(gateway.broadcasts().find((b) => b.id === body.broadcastId)?.status).toBe('live');
    expect(crm.get('StreamhostBroadcast', body.recordId)).toBeDefined();
  });
});

describe('what the bridge keeps of a broadcast it watched live (issue #41.3)', () => {
  it('keeps its peak and average viewers and when it ended, though the host reports 0 viewers and no end', async () => {
    clock = START;
    const { body } = await create({ name: 'Watched' });
    gateway.startEncoder(body.broadcastId);
    const viewers: number[] = [];
    const read = async () =>
      viewers.push(
        (await bridge.call('GET', `/streamhost/status/${body.broadcastId}`)).body.broadcast
          .viewerCount as number,
      );
    // The host's viewers climb for two minutes after it goes live: each read is a sample.
    for (const step of [10, 60, 60]) {
      clock += step * 1000;
      await read();
      expect((await bridge.call('POST', '/streamhost/sync')).status).toBe(200);
    }
    clock += 2000;
    await read();
    const ended = await bridge.call('POST', '/streamhost/end-broadcast', {
      body: { broadcastId: body.broadcastId },
    });
    expect(ended.status).toBe(200);

    const listed = (await bridge.call('GET', '/api/broadcasts')).body.data as Array<Record<string, unknown>>;
    const record = listed.find((r) => r.streamhostId === body.broadcastId)!;
    expect(record.status).toBe('complete');
    expect(record.viewerCount).toBe(0);
    const run = record.run as {
      peakViewers: number;
      averageViewers: number;
      endedAt: string;
      firstLiveAt: string;
      lastLiveAt: string;
      samples: number;
    };
    expect(run.peakViewers).toBe(Math.max(...viewers));
    expect(run.peakViewers).toBeGreaterThan(0);
    // Weighted by time: each sample stands until the next (10 s, 70 s, 130 s live; ended at 132 s).
    const [v1, v2, v3] = viewers as [number, number, number, number];
    expect(run.averageViewers).toBe(Math.round((60 * v1 + 60 * v2 + 2 * v3) / 122));
    expect(run.samples).toBeGreaterThanOrEqual(4);
    expect(run.firstLiveAt).toBe(new Date(START + 10_000).toISOString());
    expect(run.lastLiveAt).toBe(new Date(clock).toISOString());
    expect(run.endedAt).toBe(new Date(clock).toISOString());

    // Read again once finished: the figures stay as they were.
    await bridge.call('POST', '/streamhost/sync');
    const again = (await bridge.call('GET', '/api/broadcasts')).body.data as Array<Record<string, unknown>>;
    expect(again.find((r) => r.streamhostId === body.broadcastId)!.run).toEqual(run);
  });

  it('a broadcast never seen live has no run', async () => {
    const { body } = await create({ name: 'Never live' });
    const listed = (await bridge.call('GET', '/api/broadcasts')).body.data as Array<Record<string, unknown>>;
    expect(listed.find((r) => r.streamhostId === body.broadcastId)!.run).toBeNull();
  });
});
