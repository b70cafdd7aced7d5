import { describe, expect, it } from 'vitest';
import { canonicalJson, webhookItemKey } from '../../main/areas/webhooks/idempotency.js';
import { respond } from '../../main/areas/webhooks/intake.js';

describe('webhook idempotency keys', () => {
  it('ignores key order and differs when the item differs', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"e":1,"f":2}]},"b":1}',
    );
    const a = webhookItemKey('SocialPost', 'social-created', { id: 'x', status: 'Scheduled', content: 'hi' });
    const b = webhookItemKey('SocialPost', 'social-created', { content: 'hi', id: 'x', status: 'Scheduled' });
    const c = webhookItemKey('SocialPost', 'social-created', { id: 'x', status: 'Draft', content: 'hi' });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a.startsWith('SocialPost:x:social-created:')).toBe(true);
  });
});

describe('webhook responses (DESIGN §6.1.4)', () => {
  it('single object: spec bodies, 500 with error on failure, 202 while queued', () => {
    expect(respond(true, [{ success: true, postsvcId: 'p1' }])).toEqual({
      status: 200,
      body: { success: true, postsvcId: 'p1' },
    });
    expect(respond(true, [{ success: false, error: 'boom', code: 'PLATFORM_ERROR' }])).toEqual({
      status: 500,
      body: { success: false, error: 'boom', code: 'PLATFORM_ERROR' },
    });
    expect(respond(true, [null])).toEqual({ status: 202, body: { success: true, queued: true } });
  });
  it('array: results per item; 500 when any failed, else 202 when any queued', () => {
    const ok = { success: true };
    expect(respond(false, [ok, ok]).status).toBe(200);
    expect(respond(false, [ok, null])).toEqual({
      status: 202,
      body: { success: true, queued: true, results: [ok, { success: true, queued: true }] },
    });
    expect(respond(false, [ok, { success: false, error: 'x' }, null]).status).toBe(500);
  });
});

describe('delivery log redaction', () => {
  it('replaces secret attribute values, leaving the rest byte for byte', async () => {
    const { redactPayload } = await import('../../main/areas/webhooks/redact.js');
    const raw =
      '[{"id":"p1","streamKey":"live_ab\\"cd\\/ef","streamUrl":"rtmp:\\/\\/x","empty":"","password":""}]';
    expect(redactPayload(raw)).toBe(
      '[{"id":"p1","streamKey":"[redacted]","streamUrl":"rtmp:\\/\\/x","empty":"","password":""}]',
    );
  });
});
