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

  it('knows a secret by its name however it is spelled, and a numeric one', async () => {
    const { redactPayload } = await import('../../main/areas/webhooks/redact.js');
    const raw =
      '{"stream_key":"a1","Stream-Key":"a2","api_key":"a3","X_API_KEY":"a4","clientSecret":"a5","accessToken":"a6","passwd":7,"name":"kept"}';
    expect(JSON.parse(redactPayload(raw))).toEqual({
      stream_key: '[redacted]',
      'Stream-Key': '[redacted]',
      api_key: '[redacted]',
      X_API_KEY: '[redacted]',
      clientSecret: '[redacted]',
      accessToken: '[redacted]',
      passwd: '[redacted]',
      name: 'kept',
    });
  });

  it('reaches a streamSource key, a name written with escapes and an object under a secret name', async () => {
    const { redactPayload } = await import('../../main/areas/webhooks/redact.js');
    const raw =
      '{"streamSource":{"url":"rtmp:\\/\\/in","key":"k1"},"stream\\u004bey":"k2","password":{"old":"k3"},"key":"not a secret"}';
    const stored = redactPayload(raw);
    for (const secret of ['k1', 'k2', 'k3']) expect(stored).not.toContain(`"${secret}"`);
    expect(JSON.parse(stored)).toEqual({
      streamSource: { url: 'rtmp://in', key: '[redacted]' },
      streamKey: '[redacted]',
      password: '[redacted]',
      key: 'not a secret',
    });
  });
});

describe('queued webhook items', () => {
  it('carry no secret values: the rest of the item is unchanged', async () => {
    const { redactSecrets } = await import('../../main/areas/webhooks/redact.js');
    const item = { id: 'p1', status: 'Published', streamKey: 'live_abc', streamUrl: 'rtmp://x', apiKey: '' };
    expect(redactSecrets(item)).toEqual({ ...item, streamKey: '[redacted]' });
    expect(item.streamKey).toBe('live_abc');
  });
});
