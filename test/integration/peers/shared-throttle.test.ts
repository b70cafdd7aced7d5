import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';
import { providerThrottle } from '../../support/faults.js';

/**
 * One provider profile = one client and one limiter, shared by posting, analytics and the
 * health probe (DESIGN §5.2): a 429 seen by any area holds back all of them, and together
 * they stay within the rate the provider announces in its x-ratelimit-* headers.
 */

let postsvc: SandboxPostsvc | undefined;
let bridge: TestBridge | undefined;

afterEach(async () => {
  await bridge?.close();
  await postsvc?.stop();
  bridge = undefined;
  postsvc = undefined;
});

/** A provider and a bridge whose collector starts a catch-up run at once (no run yet). */
async function start(
  options: { rateLimitPerMinute?: number; publishedPosts?: number },
  prepare: (provider: SandboxPostsvc) => void = () => undefined,
) {
  postsvc = await startSandboxPostsvc({ plan: 'business', seed: 11, ...options });
  prepare(postsvc);
  const created = new Date(Date.now() - 3 * 86_400_000);
  for (let i = 0; i < (options.publishedPosts ?? 0); i++) {
    postsvc.importPost({ post: `Episode clip ${i}`, platforms: ['microblog'], created });
  }
  bridge = await startTestBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey, POSTSVC_PLAN: 'business' },
    { areas: ['health', 'analytics', 'posting'] },
  );
  return { provider: postsvc, bridge };
}

const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();

describe('one throttle per provider profile', () => {
  it("a 429 with Retry-After 2 answered to the collector holds back posting's next create for 2 s", async () => {
    const { provider, bridge } = await start({}, (provider) =>
      provider.faults.injectFault(
        providerThrottle({ method: 'POST', pathPrefix: '/analytics/social', retryAfterS: 2, times: 1 }),
      ),
    );
    const limited = await eventually(() => provider.calls().find((call) => call.status === 429));
    expect(limited.path).toBe('/analytics/social');

    const scheduled = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'Right after the 429', platforms: ['socialnet'], scheduleDate: inTenMinutes() },
    });
    expect(scheduled.status).toBe(200);
    const create = provider.calls().find((call) => call.method === 'POST' && call.path === '/post');
    expect(create).toBeDefined();
    expect(Date.parse(create!.at) - Date.parse(limited.at)).toBeGreaterThanOrEqual(2_000);
  });

  it('posting and collection together never send more than the rate the provider announces', async () => {
    const max = 20;
    // The catch-up collection alone needs more than 20 requests (linked accounts, social
    // analytics, history and one call per each of the 24 posts).
    const { provider, bridge } = await start({ rateLimitPerMinute: max, publishedPosts: 24 });
    const posts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        bridge.call('POST', '/postsvc/schedule', {
          body: {
            post: `Posted during a collection ${i}`,
            platforms: ['socialnet'],
            scheduleDate: inTenMinutes(),
          },
        }),
      ),
    );
    // Each answer is a post or the bridge's own RATE_LIMIT (held back, never sent).
    for (const answer of posts) expect([200, 429]).toContain(answer.status);
    // Once the minute's requests are used, a create is held back by the bridge itself.
    await eventually(() => provider.calls().length >= max, 20_000);
    const held = await bridge.call('POST', '/postsvc/schedule', {
      body: {
        post: 'One more than the provider allows',
        platforms: ['socialnet'],
        scheduleDate: inTenMinutes(),
      },
    });
    expect(held.status).toBe(429);
    expect(held.body).toMatchObject({ code: 'RATE_LIMIT' });
    expect(held.body.error).toContain('not sent');

    const calls = provider.calls();
    expect(calls.filter((call) => call.status === 429)).toEqual([]);
    expect(calls.length).toBe(max);
  });
});
