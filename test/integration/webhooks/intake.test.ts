import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEspoBody } from '../../../main/http/espo-signature.js';
import { eventually, startTestBridge, webhookIdFor, type TestBridge } from '../../support/bridge.js';

const SECRET = 'whsec-foundation-test';
let bridge: TestBridge;

beforeAll(async () => {
  bridge = await startTestBridge({ CRM_WEBHOOK_SECRETS: `old-secret,${SECRET}` }, { webhookBudgetMs: 400 });
});
afterAll(() => bridge.close());

/** Body as EspoCRM's PHP json_encode writes it: "/" and non-ASCII escaped. */
const phpBody = (items: Record<string, unknown>[]) =>
  JSON.stringify(items)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Signs as the CRM's webhook for this route would: each route's webhook has its own id. */
const signed = (
  path: string,
  raw: string,
  header: 'signature' | 'x-signature' = 'signature',
  secret = SECRET,
) =>
  bridge.call('POST', path, {
    key: null,
    rawBody: raw,
    headers: {
      [header]: signEspoBody(
        raw,
        secret,
        webhookIdFor('wh-1', path.split('/').pop()!),
        header === 'x-signature',
      ),
    },
  });

describe('webhook intake (DESIGN §5.1, §6.1)', () => {
  it('verifies the EspoCRM signature on the raw bytes of a PHP-encoded array', async () => {
    const raw = phpBody([
      { id: 'g00000000000000a1', name: 'Zoë Ünal', bio: 'https://zoe.example/about', stage: 'Outreach' },
    ]);
    expect(raw).toContain('\\/');
    expect(raw).toContain('\\u00eb');
    const response = await signed('/webhooks/guest-created', raw);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, results: [expect.objectContaining({ success: true })] });
  });

  it('accepts the legacy X-Signature header', async () => {
    const raw = phpBody([{ id: 'c00000000000000a1', name: 'Épisode 1' }]);
    expect((await signed('/webhooks/content-created', raw, 'x-signature')).status).toBe(200);
  });

  it('refuses unsigned and wrongly signed webhooks with 401 (never 410)', async () => {
    const raw = phpBody([{ id: 'c00000000000000a2' }]);
    const unsigned = await bridge.call('POST', '/webhooks/content-updated', { key: null, rawBody: raw });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toContain('not signed');
    const wrong = await signed('/webhooks/content-updated', raw, 'signature', 'not-the-secret');
    expect(wrong.status).toBe(401);
    // The CRM signed its PHP-escaped bytes; the same JSON re-serialised does not match them.
    const phpRaw = phpBody([{ id: 'c00000000000000a3', name: 'Café', url: 'https://x.example/a' }]);
    const reserialised = JSON.stringify(JSON.parse(phpRaw));
    expect(reserialised).not.toBe(phpRaw);
    const hex = createHmac('sha256', SECRET).update(phpRaw).digest('hex');
    const tampered = await bridge.call('POST', '/webhooks/content-updated', {
      key: null,
      rawBody: reserialised,
      headers: {
        signature: Buffer.from(`${webhookIdFor('wh-1', 'content-updated')}:${hex}`).toString('base64'),
      },
    });
    expect(tampered.status).toBe(401);
  });

  it('accepts a single object (the spec form) with the spec response', async () => {
    const raw = JSON.stringify({ id: 'k00000000000000a1', name: 'Clip', status: 'Draft' });
    const response = await signed('/webhooks/clip-created', raw);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true });
  });

  it('answers a redelivered item from the idempotency store, running it once', async () => {
    const raw = phpBody([{ id: 'p00000000000000a1', status: 'Draft', modifiedAt: '2026-11-22 10:00:00' }]);
    const first = await signed('/webhooks/platform-updated', raw);
    const second = await signed('/webhooks/platform-updated', raw);
    expect(second.body).toEqual(first.body);
    const activity = await bridge.call('GET', '/api/activity?type=webhook.received&limit=500');
    const messages = activity.body.data.map((e: { message: string }) => e.message);
    expect(messages).toContain('platform-updated: 1 item (1 already seen)');
    const jobs = await bridge.call('GET', '/api/jobs?kind=webhook.item&limit=500');
    const forItem = jobs.body.data.filter((j: { kind: string }) => j.kind === 'webhook.item');
    expect(forItem.length).toBe(new Set(forItem.map((j: { id: number }) => j.id)).size);
  });

  it('processes two items for the same record inside one batch, in order', async () => {
    const raw = phpBody([
      { id: 's00000000000000a1', status: 'Scheduled', modifiedAt: '2026-11-22 10:00:00' },
      { id: 's00000000000000a1', status: 'Draft', modifiedAt: '2026-11-22 10:00:05' },
    ]);
    const response = await signed('/webhooks/social-updated', raw);
    expect(response.status).toBe(200);
    expect(response.body.results).toHaveLength(2);
  });

  it('refuses a bad body naming the field: no id, over 50 items', async () => {
    const noId = await signed('/webhooks/guest-updated', JSON.stringify([{ name: 'x' }]));
    expect(noId.status).toBe(400);
    expect(noId.body.error).toContain('body');
    const many = JSON.stringify(
      Array.from({ length: 51 }, (_, i) => ({ id: `g${String(i).padStart(16, '0')}` })),
    );
    const tooMany = await signed('/webhooks/guest-updated', many);
    expect(tooMany.status).toBe(400);
  });

  it('continues past the time budget in the durable queue and answers 202', async () => {
    const raw = JSON.stringify({ delayMs: 1_200, marker: 'slow' });
    const response = await signed('/webhooks/test', raw);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({
      success: true,
      received: true,
      queued: true,
      echo: { marker: 'slow' },
    });
    const deliveryId = response.body.deliveryId as number;
    await eventually(async () => {
      const activity = await bridge.call('GET', '/api/activity?type=webhook.test');
      return activity.body.data.some(
        (e: { data: { deliveryId: number } }) => e.data.deliveryId === deliveryId,
      );
    });
  });

  it('lets the dashboard call /webhooks/test with the bridge key even when signatures are on', async () => {
    const response = await bridge.call('POST', '/webhooks/test', { body: { test: true } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, received: true, echo: { test: true } });
  });
});
