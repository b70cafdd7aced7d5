import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  type SandboxCrm,
  type SandboxGateway,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/** The gateway's clock: moving it moves every broadcast along created → ready → testing → live → complete. */
const START = Date.parse('2026-06-01T18:00:00Z');
const LIFECYCLE_MS = 100_000;
let clock = START;
let crm: SandboxCrm;
let gateway: SandboxGateway;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm();
  gateway = await startSandboxGateway({ now: () => new Date(clock), lifecycleMs: LIFECYCLE_MS });
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
    });
    // Only the one broadcast that was created got a record.
    expect(records().length).toBe(before + 1);
  });
});

describe('status, delete and sync', () => {
  it('reads the status from the host and answers 404 for an unknown broadcast', async () => {
    clock = START;
    const { body } = await create({ name: 'Status check' });
    clock = START + LIFECYCLE_MS * 0.5;
    const status = await bridge.call('GET', `/streamhost/status/${body.broadcastId}`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      success: true,
      broadcast: {
        id: body.broadcastId,
        name: 'Status check',
        status: 'live',
        viewerCount: expect.any(Number),
        startedAt: new Date(START + LIFECYCLE_MS * 0.25).toISOString(),
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

    clock = START + LIFECYCLE_MS * 0.5;
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

  it('keeps live broadcasts in step by itself while any is not complete', async () => {
    for (const record of records()) crm.remove('StreamhostBroadcast', record.id);
    await bridge.close();
    bridge = await startTestBridge(peerEnv(), {
      tuning: { broadcasts: { autoSyncMs: 150 } },
    });
    clock = START;
    const { body } = await create({ name: 'Auto' });
    clock = START + LIFECYCLE_MS * 0.15;
    await eventually(() => crm.get('StreamhostBroadcast', body.recordId)?.status === 'ready', 5_000);
    clock = START + LIFECYCLE_MS * 0.5;
    await eventually(() => crm.get('StreamhostBroadcast', body.recordId)?.status === 'live', 5_000);
    clock = START + LIFECYCLE_MS;
    await eventually(() => crm.get('StreamhostBroadcast', body.recordId)?.status === 'complete', 5_000);
    const state = await eventually(async () => {
      const listed = await bridge.call('GET', '/api/broadcasts');
      return listed.body.autoSync.active === false ? listed.body.autoSync : null;
    }, 5_000);
    expect(state).toMatchObject({ active: false, lastRun: { scope: 'active', errors: 0 } });
    const moves = (await activity('broadcast.status'))
      .filter((e) => e.data.id === body.recordId)
      .map((e) => e.data.to);
    expect(moves.reverse()).toEqual(['ready', 'live', 'complete']);
  });
});
