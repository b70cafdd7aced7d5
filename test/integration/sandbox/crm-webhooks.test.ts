import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxCrm, type SandboxCrm } from '../../../main/sandbox/index.js';
import { eventually } from '../../support/wait.js';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

/** A webhook receiver: records raw bodies; answers from a script of statuses (then 200). */
async function startReceiver(script: number[] = [], hangMs = 0) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) });
      const answer = () => res.writeHead(script.shift() ?? 200).end();
      if (hangMs) setTimeout(answer, hangMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const SECRET = 'webhook-secret-123';

describe('sandbox CRM: webhooks as EspoCRM sends them', () => {
  let crm: SandboxCrm;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const warnings: string[] = [];

  beforeEach(async () => {
    warnings.length = 0;
    crm = await startSandboxCrm({ warn: (message) => warnings.push(message) });
  });
  afterEach(async () => {
    await crm.stop();
    await receiver.close();
  });

  it('batches per event: an array with full create items, sparse update items and id-only deletes', async () => {
    receiver = await startReceiver();
    crm.setWebhookTarget({
      baseUrl: receiver.url,
      secret: SECRET,
      webhookIds: { 'social-created': 'wh1' },
      deliveryDelayMs: 60_000,
    });
    const post = crm.create('SocialPost', { content: 'first', status: 'Draft', platform: 'Microblog' });
    crm.update('SocialPost', post.id, { status: 'Scheduled' });
    crm.update('SocialPost', post.id, { status: 'Scheduled' }); // no change: no event
    crm.update('SocialPost', post.id, { content: 'second' });
    crm.remove('SocialPost', post.id);
    expect(receiver.received).toHaveLength(0);
    await crm.flushWebhooks();

    const byPath = Object.fromEntries(receiver.received.map((r) => [r.path, JSON.parse(r.raw.toString())]));
    expect(Object.keys(byPath).sort()).toEqual([
      '/webhooks/social-created',
      '/webhooks/social-deleted',
      '/webhooks/social-updated',
    ]);
    const created = byPath['/webhooks/social-created'];
    expect(Array.isArray(created)).toBe(true);
    expect(created[0]).toMatchObject({
      id: post.id,
      content: 'first',
      status: 'Draft',
      platform: 'Microblog',
      postsvcId: null,
    });
    expect(created[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const updated = byPath['/webhooks/social-updated'];
    expect(updated).toHaveLength(2);
    expect(Object.keys(updated[0]).sort()).toEqual(['id', 'status']);
    expect(updated[0].status).toBe('Scheduled');
    expect(Object.keys(updated[1]).sort()).toEqual(['content', 'id']);
    expect(byPath['/webhooks/social-deleted']).toEqual([{ id: post.id }]);
    expect(crm.deliveries().every((d) => d.attempt === 1 && d.outcome === 'delivered')).toBe(true);
  });

  it('signs the raw PHP-style body: Signature = base64("<webhookId>:" + hex HMAC)', async () => {
    receiver = await startReceiver();
    crm.setWebhookTarget({
      baseUrl: receiver.url,
      secret: SECRET,
      webhookIds: { 'guest-created': 'wh-sig' },
      deliveryDelayMs: 20,
    });
    crm.create('GuestBooking', {
      name: 'Tomás Ferreira',
      topics: 'sound walks / radio 🎙️',
      email: 'tomas@example.com',
    });
    await eventually(() => receiver.received.length === 1, 3000, 10);

    const { raw, headers } = receiver.received[0]!;
    const text = raw.toString('latin1');
    expect(text).toContain('Tom\\u00e1s Ferreira');
    expect(text).toContain('sound walks \\/ radio \\ud83c\\udf99\\ufe0f');
    expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
    const expected = Buffer.from(`wh-sig:${createHmac('sha256', SECRET).update(raw).digest('hex')}`).toString(
      'base64',
    );
    expect(headers.signature).toBe(expected);
    // Re-serialising the parsed body gives other bytes, so its HMAC would not match.
    const reserialised = JSON.stringify(JSON.parse(text));
    expect(reserialised).not.toBe(text);
    expect(JSON.parse(text)[0].name).toBe('Tomás Ferreira');
  });

  it('older servers: X-Signature = base64("<webhookId>:" + raw HMAC bytes)', async () => {
    receiver = await startReceiver();
    crm.setWebhookTarget({
      baseUrl: receiver.url,
      secret: SECRET,
      webhookIds: { 'clip-created': 'wh-old' },
      legacySignature: true,
    });
    crm.create('Clip', { name: 'clip' });
    await crm.flushWebhooks();
    const { raw, headers } = receiver.received[0]!;
    const mac = createHmac('sha256', SECRET).update(raw).digest();
    expect(headers['x-signature']).toBe(Buffer.concat([Buffer.from('wh-old:'), mac]).toString('base64'));
    expect(headers.signature).toBeUndefined();
  });

  it('sends at most 50 items per request', async () => {
    receiver = await startReceiver();
    crm.setWebhookTarget({ baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 60_000 });
    for (let i = 0; i < 120; i++) crm.create('Clip', { name: `clip ${i}` });
    await crm.flushWebhooks();
    const sizes = receiver.received.map((r) => JSON.parse(r.raw.toString()).length);
    expect(sizes).toEqual([50, 50, 20]);
  });

  it('retries 500 after retryDelayMs: 500 then 200 is two attempts of the same body', async () => {
    receiver = await startReceiver([500]);
    crm.setWebhookTarget({ baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 10, retryDelayMs: 50 });
    crm.create('ContentProduction', { name: 'retry me' });
    await eventually(() => crm.deliveries().length === 2, 3000, 10);
    const [first, second] = crm.deliveries();
    expect(first).toMatchObject({ event: 'content-created', attempt: 1, status: 500, outcome: 'retry' });
    expect(second).toMatchObject({ event: 'content-created', attempt: 2, status: 200, outcome: 'delivered' });
    expect(second!.body).toBe(first!.body);
  });

  it('gives up after 4 attempts of a retried status; drops 400, 502 and 504 at once', async () => {
    receiver = await startReceiver([503, 503, 503, 503, 400, 502, 504]);
    crm.setWebhookTarget({
      baseUrl: receiver.url,
      secret: SECRET,
      deliveryDelayMs: 60_000,
      retryDelayMs: 60_000,
    });
    crm.create('ContentProduction', { name: 'unlucky' });
    for (let i = 0; i < 4; i++) await crm.flushWebhooks();
    expect(crm.deliveries().map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'retry'],
      [4, 'gave-up'],
    ]);
    for (const name of ['a', 'b', 'c']) {
      crm.create('ContentProduction', { name });
      await crm.flushWebhooks();
    }
    expect(
      crm
        .deliveries()
        .slice(4)
        .map((d) => [d.status, d.outcome]),
    ).toEqual([
      [400, 'dropped'],
      [502, 'dropped'],
      [504, 'dropped'],
    ]);
    await crm.flushWebhooks();
    expect(receiver.received).toHaveLength(7);
  });

  it('410 deletes the webhook (loudly): no more events of that type', async () => {
    receiver = await startReceiver([410]);
    crm.setWebhookTarget({ baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 60_000 });
    crm.create('GuestBooking', { name: 'Gone' });
    await crm.flushWebhooks();
    expect(crm.deliveries()[0]).toMatchObject({ status: 410, outcome: 'webhook-deleted' });
    expect(crm.webhookSubscriptions().find((s) => s.event === 'guest-created')).toMatchObject({
      active: false,
    });
    expect(warnings.join('\n')).toMatch(/410.*DELETED/);
    crm.create('GuestBooking', { name: 'Never sent' });
    await crm.flushWebhooks();
    expect(receiver.received).toHaveLength(1);
    // Other events still flow.
    crm.create('Clip', { name: 'still sent' });
    await crm.flushWebhooks();
    expect(receiver.received.map((r) => r.path)).toEqual([
      '/webhooks/guest-created',
      '/webhooks/clip-created',
    ]);
  });

  it('counts a receiver slower than the sender timeout as 408 (retried); a closed port as 0', async () => {
    receiver = await startReceiver([], 400);
    crm.setWebhookTarget({ baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 60_000, timeoutMs: 100 });
    crm.create('Clip', { name: 'slow' });
    await crm.flushWebhooks();
    expect(crm.deliveries()[0]).toMatchObject({ status: 408, outcome: 'retry' });

    crm.setWebhookTarget({ baseUrl: 'http://127.0.0.1:9', secret: SECRET, deliveryDelayMs: 60_000 });
    crm.create('Clip', { name: 'nobody home' });
    await crm.flushWebhooks();
    expect(crm.deliveries()[1]).toMatchObject({ status: 0, outcome: 'retry' });
  });

  it('echoes writes made over REST (the bridge’s own write-backs) and hook writes', async () => {
    receiver = await startReceiver();
    crm.setWebhookTarget({ baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 60_000 });
    const content = crm.create('ContentProduction', { name: 'echo' });
    const res = await fetch(`${crm.url}/api/v1/Clip`, {
      method: 'POST',
      headers: { 'X-Api-Key': crm.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'from the bridge', contentProductionId: content.id }),
    });
    expect(res.status).toBe(200);
    await crm.flushWebhooks();
    const contentUpdated = receiver.received.find((r) => r.path === '/webhooks/content-updated');
    expect(JSON.parse(contentUpdated!.raw.toString())[0]).toMatchObject({
      id: content.id,
      ampClipsCut: 1,
      ampClipsStatus: 'Clips Available',
    });
    expect(receiver.received.some((r) => r.path === '/webhooks/clip-created')).toBe(true);
  });

  it('can be driven over HTTP under /__sandbox', async () => {
    receiver = await startReceiver();
    const post = (path: string, body?: unknown) =>
      fetch(`${crm.url}/__sandbox${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Sandbox-Key': crm.controlKey },
        body: JSON.stringify(body ?? {}),
      });
    expect(
      (await post('/webhook-target', { baseUrl: receiver.url, secret: SECRET, deliveryDelayMs: 60_000 }))
        .status,
    ).toBe(200);
    crm.create('GuestBooking', { name: 'Over HTTP' });
    expect((await post('/flush-webhooks')).status).toBe(200);
    const withKey = { headers: { 'X-Sandbox-Key': crm.controlKey } };
    const deliveries = (await (await fetch(`${crm.url}/__sandbox/deliveries`, withKey)).json()) as {
      deliveries: unknown[];
    };
    expect(deliveries.deliveries).toHaveLength(1);
    const state = (await (await fetch(`${crm.url}/__sandbox/state`, withKey)).json()) as {
      records: Record<string, number>;
    };
    expect(state.records.GuestBooking).toBe(1);
  });
});
