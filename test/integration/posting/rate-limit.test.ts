import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * The provider client throttles itself (DESIGN §5.2: a profile with 1,000 429s a day is
 * suspended). The sandbox provider allows 5 requests a minute (x-ratelimit-max) and answers
 * 429 with Retry-After beyond that. Since the client keeps to the announced limit itself
 * (issue #10: the provider never sees more than it announces), the 6th request is held back
 * by the bridge instead of being sent to meet a 429.
 */

let postsvc: SandboxPostsvc;
let bridge: TestBridge;

const tooManyAtProvider = () => postsvc.calls().filter((call) => call.status === 429).length;
const history = () => bridge.call('GET', '/postsvc/history?limit=10');

beforeAll(async () => {
  postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 5 });
  bridge = await startTestBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey, POSTSVC_PLAN: 'business' },
    { areas: ['health', 'webhooks', 'posting'], tuning: { peers: { postsvc: { timeoutMs: 1_000 } } } },
  );
});
afterAll(async () => {
  await bridge.close();
  await postsvc.stop();
});

describe('provider rate limit', () => {
  it("keeps to the announced limit: the window's requests go through, the rest are held back, no 429 is collected", async () => {
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await history());
    const statuses = answers.map((answer) => answer.status);
    const used = postsvc.callCount('/history');

    // The window's 5 requests went through; none of the others was sent.
    expect(tooManyAtProvider()).toBe(0);
    expect(used).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 200)).toHaveLength(used);
    const held = answers.filter((answer) => answer.status === 429);
    expect(held.length).toBe(12 - used);
    for (const answer of held) {
      expect(answer.body).toMatchObject({ success: false, code: 'RATE_LIMIT' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(held.at(-1)!.body.error).toContain('not sent');

    // A burst at once, and a create, are held back too: nothing more reaches the provider.
    const calls = postsvc.calls().length;
    const burst = await Promise.all(Array.from({ length: 8 }, () => history()));
    expect(burst.every((answer) => answer.status === 429)).toBe(true);
    const create = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'Held back by the rate limit', platforms: ['socialnet'] },
    });
    expect(create.status).toBe(429);
    expect(create.body).toMatchObject({ success: false, code: 'RATE_LIMIT' });
    expect(postsvc.calls().length).toBe(calls);
    expect(tooManyAtProvider()).toBe(0);
  });
});
