import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxPostsvc, type SandboxPostsvc } from '../../../main/sandbox/index.js';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';
import { providerThrottle } from '../../support/faults.js';

/**
 * POST /postsvc/schedule is a request the operator waits on (DESIGN §6.2): a provider 429 whose
 * Retry-After is at most 3 s is waited out and the create sent once more inside the request,
 * through the same ledger row and with the same idempotencyKey (a 429 created nothing); a
 * longer one answers 429 RATE_LIMIT with Retry-After, as before. Each test gets its own
 * provider and bridge: a 429 holds back every later request of the profile.
 */

let postsvc: SandboxPostsvc;
let bridge: TestBridge;

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const schedule = (body: Record<string, unknown>) => bridge.call('POST', '/postsvc/schedule', { body });
const createCalls = () => postsvc.calls().filter((call) => call.method === 'POST' && call.path === '/post');

const tooManyRequests = (retryAfterS: number, times: number) =>
  postsvc.faults.injectFault(providerThrottle({ method: 'POST', pathPrefix: '/post', retryAfterS, times }));

/** The bridge's ledger rows for a post text (read from its database, as it is on disk). */
function ledgerRows(post: string) {
  const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    return db
      .prepare<
        [string],
        { id: number; idempotency_key: string; state: string; attempts: number; postsvc_id: string | null }
      >(
        'SELECT id, idempotency_key, state, attempts, postsvc_id FROM social_post_ledger WHERE post = ? ORDER BY id',
      )
      .all(post);
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  postsvc = await startSandboxPostsvc({ plan: 'business', rateLimitPerMinute: 10_000 });
  bridge = await startTestBridge(
    { POSTSVC_URL: postsvc.url, POSTSVC_API_KEY: postsvc.apiKey, POSTSVC_PLAN: 'business' },
    { areas: ['health', 'posting'], tuning: { peers: { postsvc: { timeoutMs: 1_000 } } } },
  );
});
afterEach(async () => {
  await bridge.close();
  await postsvc.stop();
});

describe('POST /postsvc/schedule and a provider 429', () => {
  it('Retry-After 2: waited out, the create sent once more with the same key, the answer is the one post', async () => {
    tooManyRequests(2, 1);
    const response = await schedule({
      post: 'Short rate limit',
      platforms: ['socialnet'],
      scheduleDate: inHours(20),
    });

    expect(response.status).toBe(200);
    const created = postsvc.posts().filter((p) => p.post === 'Short rate limit');
    expect(created).toHaveLength(1);
    expect(response.body).toMatchObject({
      success: true,
      id: created[0]!.id,
      status: 'scheduled',
      reused: false,
    });
    // Two creates reached the provider: the 429, then, after its Retry-After, the one that worked.
    const calls = createCalls();
    expect(calls.map((call) => call.status)).toEqual([429, 200]);
    expect(Date.parse(calls[1]!.at) - Date.parse(calls[0]!.at)).toBeGreaterThanOrEqual(2_000);
    // One ledger row, sent twice under one idempotencyKey: the key the provider holds.
    const rows = ledgerRows('Short rate limit');
    expect(rows).toEqual([
      expect.objectContaining({ state: 'posted', attempts: 2, postsvc_id: created[0]!.id }),
    ]);
    expect(created[0]!.idempotencyKey).toBe(rows[0]!.idempotency_key);
  });

  it('Retry-After 2 twice: sent once more only, then 429 RATE_LIMIT with Retry-After; nothing created', async () => {
    tooManyRequests(2, 2);
    const response = await schedule({
      post: 'Still rate limited',
      platforms: ['socialnet'],
      scheduleDate: inHours(21),
    });

    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({ success: false, code: 'RATE_LIMIT', details: 'Too many requests' });
    expect(response.headers.get('retry-after')).toBe('2');
    expect(createCalls().map((call) => call.status)).toEqual([429, 429]);
    expect(postsvc.posts().filter((p) => p.post === 'Still rate limited')).toEqual([]);
    expect(ledgerRows('Still rate limited')).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 2, postsvc_id: null }),
    ]);
  });

  it('Retry-After 10: answered at once with 429 RATE_LIMIT and Retry-After; one create at the provider, nothing created', async () => {
    tooManyRequests(10, 1);
    const started = Date.now();
    const response = await schedule({
      post: 'Long rate limit',
      platforms: ['socialnet'],
      scheduleDate: inHours(22),
    });

    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({ success: false, code: 'RATE_LIMIT', details: 'Too many requests' });
    expect(response.headers.get('retry-after')).toBe('10');
    // Not waited out inside the request.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(createCalls().map((call) => call.status)).toEqual([429]);
    expect(postsvc.posts().filter((p) => p.post === 'Long rate limit')).toEqual([]);
    expect(ledgerRows('Long rate limit')).toEqual([
      expect.objectContaining({ state: 'failed', attempts: 1, postsvc_id: null }),
    ]);
  });
});
