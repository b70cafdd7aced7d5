import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxObs,
  toCrmDatetime,
  type SandboxCrm,
  type SandboxObs,
} from '../../../main/sandbox/index.js';
import type { SearchResponse, SearchResult } from '../../../shared/api/search.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * GET /api/search (issue #42.3): one search over productions, guests, posts, takes and broadcasts,
 * against a real (sandbox) CRM behind a counting proxy and a simulated OBS that records the takes.
 * "Where is episode 12?" is answered in one call: the production with its stage and date, its
 * guest, its take, its post and its broadcast.
 */
const NOW = new Date('2026-12-01T09:00:00.000Z');
let crm: SandboxCrm;
let obs: SandboxObs;
let bridge: TestBridge;
let proxy: Server;
const crmCalls: string[] = [];
const ids: Record<string, string> = {};

const at = (iso: string) => toCrmDatetime(new Date(iso));

async function record(filename: string): Promise<void> {
  await bridge.call('POST', '/api/recorder/filename', { body: { filename } });
  const before = ((await bridge.call('GET', '/api/recorder/takes')).body.takes as unknown[]).length;
  obs.startRecording();
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.recording.active);
  obs.stopRecording();
  await eventually(async () => {
    const takes = (await bridge.call('GET', '/api/recorder/takes')).body.takes as Array<{
      stoppedAt: string;
    }>;
    return takes.length > before && takes[0]!.stoppedAt !== null;
  });
}

beforeAll(async () => {
  crm = await startSandboxCrm({ now: () => NOW });
  obs = await startSandboxObs({ now: () => NOW });
  const target = new URL(crm.url);
  proxy = createServer((req, res) => {
    crmCalls.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  for (const n of [1, 2, 12, 120]) {
    const production = crm.create('ContentProduction', {
      name: `The Studio Hour #${n}: Episode title ${n}`,
      contentType: 'Episode',
      stage: n === 12 ? 'Scheduled' : 'Published',
      showName: 'The Studio Hour',
      scheduledDate: at(`2026-12-${String(Math.min(n, 28)).padStart(2, '0')}T15:00:00Z`),
    });
    ids[`ep${n}`] = production.id;
  }
  ids.nadia = crm.create('GuestBooking', {
    name: 'Nadia Haddad',
    stage: 'Scheduled',
    scheduledDate: at('2026-12-12T15:00:00Z'),
    contentProductionId: ids.ep12,
  }).id;
  crm.update('ContentProduction', ids.ep12!, { guestBookingId: ids.nadia });
  ids.other = crm.create('GuestBooking', {
    name: 'Marcus Bell',
    stage: 'Published',
    contentProductionId: ids.ep1,
  }).id;
  ids.broadcast = crm.create('StreamhostBroadcast', {
    name: 'The Studio Hour #12 Live',
    status: 'ready',
    scheduledAt: at('2026-12-12T18:00:00Z'),
    contentProductionId: ids.ep12,
  }).id;
  ids.post = crm.create('SocialPost', {
    name: 'Reminder · Microblog',
    content: 'Next week: Nadia Haddad on community radio with a global audience.',
    postType: 'Reminder',
    platform: 'Microblog',
    status: 'Draft',
    scheduledAt: at('2026-12-10T15:00:00Z'),
    contentProductionId: ids.ep12,
  }).id;
  for (let i = 1; i <= 25; i++) crm.create('GuestBooking', { name: `Repeat Guest ${i}`, stage: 'Outreach' });

  bridge = await startTestBridge(
    { CRM_URL: proxyUrl, CRM_API_KEY: crm.apiKey, RECORDER_OBS_URL: obs.url },
    { areas: ['recorder', 'search'], now: () => NOW },
  );
  await eventually(async () => (await bridge.call('GET', '/api/recorder/status')).body.connection.connected);
  await record('20261212_The_Studio_Hour_12_Episode_title_12');
  await record('20261201 episode 12 Nadia Haddad');
  await record('20261120_The_Studio_Hour_120_Episode_title_120');
});

afterAll(async () => {
  await bridge?.close();
  await obs?.stop();
  await crm?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
});

async function search(q: string): Promise<SearchResponse> {
  const answer = await bridge.call('GET', `/api/search?q=${encodeURIComponent(q)}`);
  expect(answer.status).toBe(200);
  return answer.body as SearchResponse;
}
const ofKind = (body: SearchResponse, kind: SearchResult['kind']) =>
  body.results.filter((result) => result.kind === kind);

describe('GET /api/search', () => {
  it('refuses a missing, short or long q with a 400 naming the field and the rule', async () => {
    for (const q of ['', '?q=', '?q=a', `?q=${'x'.repeat(101)}`]) {
      const answer = await bridge.call('GET', `/api/search${q}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(answer.body.error).toMatch(/\bq\b/);
    }
    expect((await bridge.call('GET', '/api/search?q=a')).body.error).toMatch(/2/);
    expect((await bridge.call('GET', `/api/search?q=${'x'.repeat(101)}`)).body.error).toMatch(/100/);
  });

  it('judges q as /openapi.json states it: "j " is 2 characters but 1 besides spaces, refused in words (found by the fuzz test)', async () => {
    const schema = (await bridge.call('GET', '/openapi.json')).body.paths['/api/search'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'q',
    ).schema as { minLength: number; pattern: string };
    const documented = (q: string) => q.length >= schema.minLength && new RegExp(schema.pattern).test(q);
    for (const q of ['j ', '  ', ' j', 'jo', ' j o ', 'a\nb']) {
      const answer = await bridge.call('GET', `/api/search?q=${encodeURIComponent(q)}`);
      expect(answer.status === 200, JSON.stringify(q)).toBe(documented(q));
      if (answer.status === 400) expect(answer.body.error).toMatch(/at least 2 characters other than spaces/);
    }
  });

  it('needs the key', async () => {
    expect((await bridge.call('GET', '/api/search?q=episode', { key: 'wrong' })).status).toBe(401);
  });

  it('answers "episode 12" with the production, its guest, take, post and broadcast, in at most 5 CRM reads', async () => {
    crmCalls.length = 0;
    const body = await search('episode 12');
    expect(crmCalls.length).toBeGreaterThan(0);
    expect(crmCalls.length).toBeLessThanOrEqual(5);
    expect(body.episode).toBe(12);
    expect(body.missing).toEqual([]);

    const productions = ofKind(body, 'production');
    expect(productions.map((p) => p.id)).toEqual([ids.ep12]);
    expect(productions[0]).toMatchObject({
      title: 'The Studio Hour #12: Episode title 12',
      href: `#/productions/${ids.ep12}`,
      productionId: ids.ep12,
    });
    expect(productions[0]!.context).toContain('Scheduled');
    expect(productions[0]!.context).toContain('2026-12-12');

    const guests = ofKind(body, 'guest');
    expect(guests.map((g) => g.id)).toEqual([ids.nadia]);
    expect(guests[0]).toMatchObject({ title: 'Nadia Haddad', productionId: ids.ep12 });
    expect(guests[0]!.href).toMatch(/^#\/guests/);
    expect(guests[0]!.context).toContain('Scheduled');

    expect(ofKind(body, 'broadcast')).toMatchObject([
      { id: ids.broadcast, title: 'The Studio Hour #12 Live', productionId: ids.ep12 },
    ]);
    expect(ofKind(body, 'broadcast')[0]!.href).toMatch(/^#\/broadcasts/);
    expect(ofKind(body, 'post').map((p) => p.id)).toEqual([ids.post]);
    expect(ofKind(body, 'post')[0]!.href).toMatch(/^#\/posts/);

    const takes = ofKind(body, 'take').map((t) => t.title);
    expect(takes.sort()).toEqual([
      '20261201 episode 12 Nadia Haddad',
      '20261212_The_Studio_Hour_12_Episode_title_12',
    ]);
    for (const take of ofKind(body, 'take')) expect(take.href).toMatch(/^#\/recorder/);
  });

  it('finds a guest and a post by their text, a take by its name', async () => {
    const byName = await search('haddad');
    expect(ofKind(byName, 'guest').map((g) => g.id)).toEqual([ids.nadia]);
    expect(ofKind(byName, 'post').map((p) => p.id)).toEqual([ids.post]);
    expect(ofKind(byName, 'take').map((t) => t.title)).toEqual(['20261201 episode 12 Nadia Haddad']);
    const byText = await search('community radio');
    expect(ofKind(byText, 'post').map((p) => p.id)).toEqual([ids.post]);
  });

  it('gives at most 20 results of a kind', async () => {
    const body = await search('repeat guest');
    expect(ofKind(body, 'guest')).toHaveLength(20);
  });

  it('finds nothing for a text nothing holds, and says nothing is missing', async () => {
    const body = await search('zzz-nothing');
    expect(body).toMatchObject({ success: true, results: [], missing: [] });
  });

  it('with the CRM down, answers with the takes the bridge stores and says in words what it could not search', async () => {
    await crm.faults.refuseConnections(true);
    try {
      const body = await search('episode 12');
      expect(ofKind(body, 'take')).toHaveLength(2);
      expect(ofKind(body, 'production')).toEqual([]);
      expect(body.missing).toHaveLength(1);
      expect(body.missing[0]!.kinds).toEqual(expect.arrayContaining(['production', 'guest', 'broadcast']));
      expect(body.missing[0]!.reason).toMatch(/CRM/);
      expect(body.missing[0]!.reason).not.toMatch(/ECONNREFUSED/);
    } finally {
      await crm.faults.refuseConnections(false);
    }
  });
});
