import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * DESIGN §5.2: "A 404 'post id not found' is the bridge's 404 NOT_FOUND wherever an id was
 * asked for". The provider answers POST /analytics/post for an id it does not know (never
 * created, or deleted) with 404 code 186; GET /postsvc/analytics?postId= answers 404
 * NOT_FOUND for it, as /postsvc/delete does, not 500 PLATFORM_ERROR.
 */

let postsvc: SandboxPostsvc;
let bridge: TestBridge;

beforeAll(async () => {
  postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 10_000 });
  bridge = await startTestBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey, POSTSVC_PLAN: 'business' },
    { areas: ['health', 'posting'], tuning: { peers: { postsvc: { timeoutMs: 1_000 } } } },
  );
});
afterAll(async () => {
  await bridge.close();
  await postsvc.stop();
});

describe('GET /postsvc/analytics?postId= for a post the provider does not know', () => {
  it('an unknown postId is 404 NOT_FOUND naming the id, like /postsvc/delete', async () => {
    const response = await bridge.call('GET', '/postsvc/analytics?postId=no-such-post');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(response.body.error).toContain('postId');
    expect(response.body.error).toContain('no-such-post');
    // The provider was asked (once: a 404 is not retried) and said 404 code 186.
    const asked = postsvc.calls().filter((call) => call.path === '/analytics/post');
    expect(asked.map((call) => call.status)).toEqual([404]);

    const cancel = await bridge.call('POST', '/postsvc/delete', { body: { id: 'no-such-post' } });
    expect(cancel.status).toBe(404);
    expect(cancel.body.code).toBe('NOT_FOUND');
  });

  it('a deleted post is 404 NOT_FOUND too; a published one still answers its analytics', async () => {
    const created = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'Analytics, then taken down', platforms: ['socialnet'] },
    });
    expect(created.status).toBe(200);
    const live = await bridge.call('GET', `/postsvc/analytics?postId=${created.body.id}`);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ success: true, postId: created.body.id });

    const cancel = await bridge.call('POST', '/postsvc/delete', { body: { id: created.body.id } });
    expect(cancel.status).toBe(200);
    const gone = await bridge.call('GET', `/postsvc/analytics?postId=${created.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
