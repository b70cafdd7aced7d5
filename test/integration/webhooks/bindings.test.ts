import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callSignedWebhook, eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/*
 * Issue #24.2, DESIGN §7: the same signed body sent to another webhook route was processed there.
 * EspoCRM gives each webhook (one event, one URL) its own id: an id is bound to the route it was
 * first seen on; a body it signs for another route gets 401 and the log names the binding.
 * Settings lists the bindings and can clear one.
 */

const SECRET = 'whsec-bindings';
let bridge: TestBridge;

beforeAll(async () => {
  bridge = await startTestBridge(
    { CRM_WEBHOOK_SECRETS: SECRET },
    { areas: ['health', 'webhooks'], logLevel: 'info' },
  );
});
afterAll(async () => {
  await bridge?.close();
});

const signed = (event: string, raw: string, webhookId: string) =>
  callSignedWebhook(bridge.url, event, raw, { webhookId, secret: SECRET });

describe('a webhook id', () => {
  it('is bound to its first route: 401 elsewhere, named in the log; cleared, it binds again', async () => {
    const raw = JSON.stringify([{ id: 'guest-bound', name: 'Bound' }]);
    expect((await signed('guest-created', raw, 'wh-guests')).status).toBe(200);
    expect((await signed('guest-created', raw, 'wh-guests')).status).toBe(200);

    const elsewhere = await signed('content-created', raw, 'wh-guests');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    expect(elsewhere.body.error).toContain('/webhooks/guest-created');
    const log = path.join(bridge.dataDir, 'logs', 'bridge.log');
    await eventually(() =>
      readFileSync(log, 'utf8').includes(
        'webhook wh-guests is bound to /webhooks/guest-created: refused on /webhooks/content-created',
      ),
    );
    // Another id is bound where it is first seen.
    expect((await signed('content-created', raw, 'wh-content')).status).toBe(200);

    const listed = await bridge.call('GET', '/api/webhooks/bindings');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { webhookId: 'wh-guests', event: 'guest-created', boundAt: expect.any(String) },
      { webhookId: 'wh-content', event: 'content-created', boundAt: expect.any(String) },
    ]);
    expect((await bridge.call('GET', '/api/webhooks/bindings', { key: null })).status).toBe(401);

    const cleared = await bridge.call('DELETE', '/api/webhooks/bindings/wh-guests');
    expect(cleared).toMatchObject({ status: 200, body: { success: true, webhookId: 'wh-guests' } });
    expect((await bridge.call('DELETE', '/api/webhooks/bindings/wh-guests')).status).toBe(404);
    expect((await signed('content-created', raw, 'wh-guests')).status).toBe(200);
    expect((await signed('guest-created', raw, 'wh-guests')).status).toBe(401);
  });
});
