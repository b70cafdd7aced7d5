import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';

/**
 * What the bridge's catch-up (DESIGN §6.9) relies on in the simulated EspoCRM: listing by
 * `modifiedAt` as the real one does (§5.1), and deliveries refused while the bridge is away,
 * given up after EspoCRM's four tries.
 */

let clock = Date.parse('2026-03-02T09:00:00.000Z');
const now = () => new Date(clock);
const advance = (ms: number) => (clock += ms);

let crm: SandboxCrm;
beforeEach(async () => {
  clock = Date.parse('2026-03-02T09:00:00.000Z');
  crm = await startSandboxCrm({ now, warn: () => undefined });
});
afterEach(async () => {
  await crm.stop();
});

async function list(query: string) {
  const res = await fetch(`${crm.url}/api/v1/SocialPost?${query}`, { headers: { 'X-Api-Key': crm.apiKey } });
  return {
    status: res.status,
    reason: res.headers.get('X-Status-Reason'),
    body:
      res.status === 200 ? ((await res.json()) as { total: number; list: Record<string, string>[] }) : null,
  };
}

const since = (type: string, value: string) =>
  `where[0][type]=${type}&where[0][attribute]=modifiedAt&where[0][value]=${encodeURIComponent(value)}`;

describe('sandbox CRM: listing by modifiedAt', () => {
  it('lists records modified after / at or after a CRM time, oldest first, paged by maxSize and offset', async () => {
    const a = crm.create('SocialPost', { name: 'a', status: 'Draft', platform: 'Microblog' });
    advance(60_000);
    const b = crm.create('SocialPost', { name: 'b', status: 'Draft', platform: 'Microblog' });
    advance(60_000);
    const c = crm.create('SocialPost', { name: 'c', status: 'Draft', platform: 'Microblog' });
    advance(60_000);
    crm.update('SocialPost', a.id, { name: 'a2' }); // a is now the newest

    const order = '&orderBy=modifiedAt&order=asc';
    const after = await list(`${since('after', '2026-03-02 09:01:00')}${order}`);
    expect(after.body!.list.map((r) => r.id)).toEqual([c.id, a.id]);
    const atOrAfter = await list(`${since('greaterThanOrEquals', '2026-03-02 09:01:00')}${order}`);
    expect(atOrAfter.body!.list.map((r) => r.id)).toEqual([b.id, c.id, a.id]);
    expect(atOrAfter.body!.list.map((r) => r.modifiedAt)).toEqual([
      '2026-03-02 09:01:00',
      '2026-03-02 09:02:00',
      '2026-03-02 09:03:00',
    ]);

    const page2 = await list(
      `${since('greaterThanOrEquals', '2026-03-02 09:00:00')}${order}&maxSize=2&offset=2`,
    );
    expect(page2.body).toMatchObject({ total: 3 });
    expect(page2.body!.list.map((r) => r.id)).toEqual([a.id]);
    const newest = await list('orderBy=modifiedAt&order=desc&maxSize=1&select=modifiedAt');
    expect(newest.body!.list).toEqual([{ id: a.id, modifiedAt: '2026-03-02 09:03:00' }]);
  });

  it('refuses a page above 200 with 403 and the reason in X-Status-Reason', async () => {
    const refused = await list(`${since('after', '2026-03-02 09:00:00')}&maxSize=201`);
    expect(refused.status).toBe(403);
    expect(refused.reason).toMatch(/Max size/);
    expect((await list('maxSize=200')).status).toBe(200);
  });
});

describe('sandbox CRM: the bridge is away', () => {
  let receiver: { url: string; bodies: string[]; close(): Promise<void> };
  beforeEach(async () => {
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString());
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bodies,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('refuses every attempt while away; EspoCRM gives up after four tries and nothing arrives', async () => {
    crm.setWebhookTarget({
      baseUrl: receiver.url,
      secret: 's',
      webhookIds: { 'social-created': 'wh' },
      deliveryDelayMs: 60_000,
    });
    crm.setReceiverAway(true);
    crm.create('SocialPost', { name: 'while away', status: 'Scheduled', platform: 'Microblog' });
    for (let i = 0; i < 5; i++) await crm.flushWebhooks();
    const attempts = crm.deliveries();
    expect(attempts.map((d) => [d.attempt, d.status, d.outcome])).toEqual([
      [1, 0, 'retry'],
      [2, 0, 'retry'],
      [3, 0, 'retry'],
      [4, 0, 'gave-up'],
    ]);
    expect(attempts[0]!.error).toMatch(/connection refused/);
    crm.setReceiverAway(false);
    await crm.flushWebhooks();
    expect(receiver.bodies).toEqual([]);
  });

  it('a bridge back inside the retry window on another address gets the waiting retries', async () => {
    crm.setWebhookTarget({
      baseUrl: 'http://127.0.0.1:9',
      secret: 's',
      webhookIds: { 'social-created': 'wh' },
      deliveryDelayMs: 60_000,
    });
    crm.setReceiverAway(true);
    const post = crm.create('SocialPost', { name: 'retried', status: 'Scheduled', platform: 'Microblog' });
    await crm.flushWebhooks();
    await crm.flushWebhooks();
    crm.setReceiverAway(false);
    crm.retargetWebhooks(receiver.url);
    await crm.flushWebhooks();
    expect(crm.deliveries().map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'delivered'],
    ]);
    expect(receiver.bodies).toHaveLength(1);
    expect(receiver.bodies[0]).toContain(post.id);
  });
});
