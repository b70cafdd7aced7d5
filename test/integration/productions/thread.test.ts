import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxGateway,
  startSandboxObs,
  toCrmDatetime,
  type SandboxCrm,
  type SandboxGateway,
  type SandboxObs,
} from '../../../main/sandbox/index.js';
import type { ProductionThread } from '../../../shared/api/productions.js';
import type { RecorderTake } from '../../../shared/api/recorder.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * The production thread (issue #42 points 1, 2, 4): GET /api/productions and /api/productions/{id}
 * against the sandbox CRM, the links the bridge makes (a take named for a production, a broadcast
 * linked to one), more than 200 records of an entity, and a CRM that is down.
 */
const NOW = new Date('2026-12-01T09:00:00.000Z');
let crm: SandboxCrm;
let obs: SandboxObs;
let gateway: SandboxGateway;
let bridge: TestBridge;
/** Every request the bridge sends the CRM passes here, counted by method and path. */
let proxy: http.Server;
let crmRequests: string[] = [];

const at = (iso: string) => toCrmDatetime(new Date(iso));

beforeAll(async () => {
  crm = await startSandboxCrm({ now: () => NOW });
  obs = await startSandboxObs({ now: () => NOW });
  gateway = await startSandboxGateway({ now: () => NOW });
  proxy = http.createServer((req, res) => {
    crmRequests.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
    const target = new URL(req.url ?? '/', crm.url);
    const forward = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  bridge = await startTestBridge(
    {
      CRM_URL: proxyUrl,
      CRM_API_KEY: crm.apiKey,
      RECORDER_OBS_URL: obs.url,
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: gateway.apiKey,
    },
    { now: () => NOW },
  );
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
});
afterAll(async () => {
  await bridge?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await obs?.stop();
  await gateway?.stop();
  await crm?.stop();
});

const thread = async (id: string): Promise<ProductionThread> => {
  const answer = await bridge.call('GET', `/api/productions/${id}`);
  expect(answer.status).toBe(200);
  return answer.body as ProductionThread;
};

describe('GET /api/productions', () => {
  it('lists by scheduled date, finds by name, filters by show, stage and type, and pages', async () => {
    crm.create('ContentProduction', {
      name: 'The Studio Hour #11',
      showName: 'The Studio Hour',
      contentType: 'Episode',
      stage: 'Published',
      scheduledDate: at('2026-11-24T18:00:00Z'),
    });
    crm.create('ContentProduction', {
      name: 'The Studio Hour #12',
      showName: 'The Studio Hour',
      contentType: 'Episode',
      stage: 'Editing',
      scheduledDate: at('2026-12-01T18:00:00Z'),
    });
    crm.create('ContentProduction', {
      name: 'Makers Live: kilns',
      showName: 'Makers Live',
      contentType: 'Livestream',
      stage: 'Scheduled',
      scheduledDate: at('2026-12-05T18:00:00Z'),
    });
    const all = await bridge.call('GET', '/api/productions');
    expect(all.status).toBe(200);
    expect(all.body.productions.map((p: { name: string }) => p.name)).toEqual([
      'Makers Live: kilns',
      'The Studio Hour #12',
      'The Studio Hour #11',
    ]);
    expect(all.body.productions[1]).toMatchObject({
      contentType: 'Episode',
      stage: 'Editing',
      showName: 'The Studio Hour',
      scheduledDate: '2026-12-01T18:00:00.000Z',
    });

    const byName = await bridge.call('GET', '/api/productions?q=hour%20%2312');
    expect(byName.body.productions.map((p: { name: string }) => p.name)).toEqual(['The Studio Hour #12']);
    const byShow = await bridge.call('GET', '/api/productions?show=Makers%20Live');
    expect(byShow.body.total).toBe(1);
    const byStageAndType = await bridge.call('GET', '/api/productions?stage=Published&type=Episode');
    expect(byStageAndType.body.productions.map((p: { name: string }) => p.name)).toEqual([
      'The Studio Hour #11',
    ]);
    const page = await bridge.call('GET', '/api/productions?limit=1&offset=1');
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.productions.map((p: { name: string }) => p.name)).toEqual(['The Studio Hour #12']);
  });

  it('refuses a bad query with 400 naming the field and the rule', async () => {
    const answer = await bridge.call('GET', '/api/productions?limit=0');
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('limit');
    const blank = await bridge.call('GET', '/api/productions?q=%20');
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain('q');
  });
});

describe('GET /api/productions/{id}', () => {
  it('answers 404 for a production the CRM does not have', async () => {
    const answer = await bridge.call('GET', '/api/productions/nosuchproduction');
    expect(answer.status).toBe(404);
  });

  it('gives the whole thread in one answer with one CRM list per entity, paging past 200 posts', async () => {
    const episode = crm.create('ContentProduction', {
      name: 'Episode 12',
      showName: 'The Studio Hour',
      contentType: 'Episode',
      stage: 'Planning',
      scheduledDate: at('2026-12-01T18:00:00Z'),
    });
    const other = crm.create('ContentProduction', { name: 'Episode 13', stage: 'Planning' });
    const guest = crm.create('GuestBooking', {
      name: 'Nadia Haddad',
      stage: 'Confirmed',
      contentProductionId: episode.id,
    });
    crm.create('GuestBooking', { name: 'Someone else', stage: 'Outreach', contentProductionId: other.id });
    for (let i = 0; i < 230; i++) {
      crm.create('SocialPost', {
        content: `Episode 12 post ${i}`,
        platform: 'Microblog',
        status: i === 0 ? 'Failed' : 'Draft',
        ...(i === 0 ? { error: 'the provider refused it' } : {}),
        contentProductionId: episode.id,
      });
    }
    crm.create('SocialPost', {
      content: 'Episode 13 post',
      platform: 'Microblog',
      contentProductionId: other.id,
    });
    crm.create('Clip', { name: 'The kiln moment', status: 'Draft', contentProductionId: episode.id });
    crm.create('Clip', { name: 'Elsewhere', status: 'Ready', contentProductionId: other.id });
    crm.create('PlatformPublish', {
      name: 'Episode 12 · Videosite',
      platform: 'Videosite',
      publishType: 'Upload',
      status: 'Failed',
      apiResponse: 'AUTH_ERROR: the session expired',
      contentProductionId: episode.id,
    });
    crm.create('StreamhostBroadcast', {
      name: 'The Studio Hour #12 Live',
      status: 'live',
      viewerCount: 140,
      contentProductionId: episode.id,
    });

    crmRequests = [];
    const answer = await thread(episode.id);
    expect(answer.production).toMatchObject({ id: episode.id, name: 'Episode 12', stage: 'Planning' });
    expect(answer.missing).toEqual([]);
    expect(answer.guests).toEqual([
      expect.objectContaining({ id: guest.id, name: 'Nadia Haddad', stage: 'Confirmed' }),
    ]);
    expect(answer.posts).toHaveLength(230);
    expect(answer.posts.find((post) => post.status === 'Failed')).toMatchObject({
      error: 'the provider refused it',
    });
    expect(answer.clips.map((clip) => clip.name)).toEqual(['The kiln moment']);
    expect(answer.publishes).toEqual([
      expect.objectContaining({
        platform: 'Videosite',
        status: 'Failed',
        error: 'AUTH_ERROR: the session expired',
      }),
    ]);
    expect(answer.broadcasts).toEqual([
      expect.objectContaining({ name: 'The Studio Hour #12 Live', onAir: true, viewerCount: 140 }),
    ]);
    // One read of the production, one list per entity (SocialPost in two pages of at most 200).
    const reads = crmRequests.filter((request) => request.startsWith('GET '));
    expect(reads.filter((r) => r.includes('/SocialPost'))).toHaveLength(2);
    expect(reads.filter((r) => r.includes('/ContentProduction'))).toHaveLength(1);
    for (const entity of ['GuestBooking', 'Clip', 'PlatformPublish', 'StreamhostBroadcast']) {
      expect(reads.filter((r) => r.includes(`/${entity}`))).toHaveLength(1);
    }
  });

  it('names the production on a post’s row of GET /api/posts, so the row links back', async () => {
    const episode = crm.create('ContentProduction', { name: 'Episode 20', stage: 'Planning' });
    const post = crm.create('SocialPost', {
      content: 'Episode 20 is out',
      platform: 'Microblog',
      status: 'Failed',
      error: 'the provider refused it',
      contentProductionId: episode.id,
    });
    const posts = await bridge.call('GET', '/api/posts');
    expect(posts.status).toBe(200);
    expect(
      posts.body.data.find((row: { socialPostId: string }) => row.socialPostId === post.id),
    ).toMatchObject({
      contentProductionId: episode.id,
      contentProductionName: 'Episode 20',
    });
  });

  it('shows a take named from the production in its thread, and not in another', async () => {
    const episode = crm.create('ContentProduction', { name: 'Episode 14', stage: 'Recording' });
    const named = await bridge.call('POST', '/api/recorder/filename', {
      body: { filename: '20261201_Episode_14', contentProductionId: episode.id },
    });
    expect(named.status).toBe(200);
    obs.startRecording();
    await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
    await bridge.call('POST', '/api/recorder/marks', { body: { label: 'the kiln story' } });
    obs.stopRecording();
    const take = await eventually(async () => {
      const takes = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
      return takes.find((t) => t.name === '20261201_Episode_14' && t.stoppedAt !== null);
    });
    expect(take.contentProductionId).toBe(episode.id);

    const answer = await thread(episode.id);
    expect(answer.takes).toEqual([
      expect.objectContaining({
        id: take.id,
        name: '20261201_Episode_14',
        marks: [expect.objectContaining({ label: 'the kiln story' })],
      }),
    ]);
    const unrelated = crm.create('ContentProduction', { name: 'Episode 15', stage: 'Planning' });
    expect((await thread(unrelated.id)).takes).toEqual([]);
  });

  it('refuses a contentProductionId that is not an id, naming the field', async () => {
    const answer = await bridge.call('POST', '/api/recorder/filename', {
      body: { filename: '20261201_Episode_16', contentProductionId: '' },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('contentProductionId');
  });

  it('links a broadcast to the production, which then shows it', async () => {
    const episode = crm.create('ContentProduction', { name: 'Episode 17', stage: 'Scheduled' });
    const broadcast = crm.create('StreamhostBroadcast', { name: 'Episode 17 Live', status: 'created' });
    expect((await thread(episode.id)).broadcasts).toEqual([]);
    const linked = await bridge.call('POST', `/api/productions/${episode.id}/broadcasts`, {
      body: { broadcastRecordId: broadcast.id },
    });
    expect(linked.status).toBe(200);
    expect(crm.get('StreamhostBroadcast', broadcast.id)?.contentProductionId).toBe(episode.id);
    expect((await thread(episode.id)).broadcasts).toEqual([
      expect.objectContaining({ id: broadcast.id, onAir: false }),
    ]);
    const unknown = await bridge.call('POST', `/api/productions/${episode.id}/broadcasts`, {
      body: { broadcastRecordId: 'nosuchbroadcast' },
    });
    expect(unknown.status).toBe(404);
  });

  it('says in the activity log what was linked, and from where when it moves', async () => {
    const first = crm.create('ContentProduction', { name: 'Episode 21', stage: 'Scheduled' });
    const second = crm.create('ContentProduction', { name: 'Episode 22', stage: 'Scheduled' });
    const broadcast = crm.create('StreamhostBroadcast', { name: 'Episode 21 Live', status: 'created' });
    const link = (productionId: string) =>
      bridge.call('POST', `/api/productions/${productionId}/broadcasts`, {
        body: { broadcastRecordId: broadcast.id },
      });
    const linkedEvents = async () =>
      (
        (await bridge.call('GET', '/api/activity?type=broadcast.linked&limit=50')).body.data as Array<{
          message: string;
          data: {
            broadcastRecordId: string;
            contentProductionId: string;
            fromContentProductionId: string | null;
          };
        }>
      ).filter((event) => event.data.broadcastRecordId === broadcast.id);

    expect((await link(first.id)).status).toBe(200);
    expect(await linkedEvents()).toEqual([
      expect.objectContaining({
        message: 'Broadcast “Episode 21 Live” linked to episode “Episode 21”',
        data: expect.objectContaining({ contentProductionId: first.id, fromContentProductionId: null }),
      }),
    ]);
    // The same link again changes nothing and says nothing.
    expect((await link(first.id)).status).toBe(200);
    expect(await linkedEvents()).toHaveLength(1);

    expect((await link(second.id)).status).toBe(200);
    const [moved] = await linkedEvents();
    expect(moved).toEqual(
      expect.objectContaining({
        message:
          'Broadcast “Episode 21 Live” linked to episode “Episode 22” (it was linked to episode “Episode 21”)',
        data: expect.objectContaining({ contentProductionId: second.id, fromContentProductionId: first.id }),
      }),
    );
  });
});

describe('a broadcast started for a production', () => {
  it('belongs to it: its StreamhostBroadcast record carries the contentProductionId', async () => {
    const episode = crm.create('ContentProduction', { name: 'Episode 19', stage: 'Scheduled' });
    const created = await bridge.call('POST', '/streamhost/create-broadcast', {
      body: {
        name: 'Episode 19 Live',
        scheduledAt: '2026-12-03T18:00:00.000Z',
        contentProductionId: episode.id,
      },
    });
    expect(created.status).toBe(200);
    expect(crm.get('StreamhostBroadcast', created.body.recordId)?.contentProductionId).toBe(episode.id);
    expect((await thread(episode.id)).broadcasts).toEqual([
      expect.objectContaining({ id: created.body.recordId, name: 'Episode 19 Live' }),
    ]);
  });
});

describe('a CRM that is down', () => {
  it('answers with what the bridge knows and says in words what is missing', async () => {
    const episode = crm.create('ContentProduction', { name: 'Episode 18', stage: 'Recording' });
    await bridge.call('POST', '/api/recorder/filename', {
      body: { filename: '20261201_Episode_18', contentProductionId: episode.id },
    });
    obs.startRecording();
    await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
    obs.stopRecording();
    await eventually(async () => {
      const takes = (await bridge.call('GET', '/api/recorder/takes')).body.takes as RecorderTake[];
      return takes.find((t) => t.name === '20261201_Episode_18' && t.stoppedAt !== null);
    });

    await crm.faults.refuseConnections(true);
    try {
      const answer = await thread(episode.id);
      expect(answer.production).toMatchObject({ id: episode.id, name: null });
      expect(answer.takes.map((take) => take.name)).toEqual(['20261201_Episode_18']);
      const entities = answer.missing.map((part) => part.entity);
      for (const entity of ['ContentProduction', 'GuestBooking', 'SocialPost', 'Clip', 'PlatformPublish']) {
        expect(entities).toContain(entity);
      }
      for (const part of answer.missing) expect(part.reason).toMatch(/CRM/);
      const list = await bridge.call('GET', '/api/productions');
      expect(list.status).toBeGreaterThanOrEqual(500);
      expect(JSON.stringify(list.body)).toMatch(/CRM/);
    } finally {
      await crm.faults.refuseConnections(false);
    }
  });
});
