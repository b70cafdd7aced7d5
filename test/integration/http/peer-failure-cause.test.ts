import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Issue #30 (words, sandbox rehearsal): a route that failed because of a peer says which peer and
 * why in its error envelope's `peer` ({name, cause, status?, retryAfterS?}), so the dashboard can
 * say "the CRM could not be reached" or "the gateway is limiting requests" instead of one advice
 * per peer ("check the API user's key") whatever happened. Each peer's failure is rehearsed on a
 * sandbox bridge, as the Settings panel does.
 */
let bridge: TestBridge;
const inADay = () => new Date(Date.now() + 26 * 3_600_000).toISOString();

async function rehearse(peer: string, fault: string): Promise<void> {
  const answer = await bridge.call('POST', '/api/sandbox/rehearsal', { body: { peer, fault } });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  bridge = await startTestBridge({ BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none', POSTSVC_PLAN: 'premium' });
});
afterAll(async () => {
  await bridge.close();
});

describe("a peer's failure names the peer and its cause (issue #30)", () => {
  it('the CRM offline: unreachable; failing: its 5xx status', async () => {
    await rehearse('crm', 'offline');
    try {
      const guests = await bridge.call('GET', '/api/guests');
      expect(guests.status).toBe(500);
      expect(guests.body).toMatchObject({ code: 'CRM_ERROR', peer: { name: 'crm', cause: 'unreachable' } });
      await rehearse('crm', 'fail');
      const failing = await bridge.call('GET', '/api/guests');
      expect(failing.body).toMatchObject({
        code: 'CRM_ERROR',
        peer: { name: 'crm', cause: 'failing', status: 500 },
      });
      // Last: the CRM's Retry-After 60 holds the bridge's CRM calls back for a minute.
      await rehearse('crm', 'throttle');
      const throttled = await bridge.call('GET', '/api/guests');
      expect(throttled.status).toBe(429);
      expect(throttled.body).toMatchObject({
        code: 'RATE_LIMIT',
        peer: { name: 'crm', cause: 'throttled', status: 429, retryAfterS: 60 },
      });
    } finally {
      await rehearse('crm', 'none');
    }
  });

  it('the gateway offline: unreachable; throttling: 429 RATE_LIMIT with its Retry-After, and held back at once after', async () => {
    const body = { name: 'Rehearsed broadcast', scheduledAt: inADay(), settings: {} };
    await rehearse('gateway', 'offline');
    try {
      const offline = await bridge.call('POST', '/streamhost/create-broadcast', { body });
      expect(offline.body).toMatchObject({
        code: 'STREAMHOST_ERROR',
        peer: { name: 'gateway', cause: 'unreachable' },
      });
      await rehearse('gateway', 'throttle');
      const throttled = await bridge.call('POST', '/streamhost/create-broadcast', { body });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('60');
      expect(throttled.body).toMatchObject({
        code: 'RATE_LIMIT',
        peer: { name: 'gateway', cause: 'throttled', status: 429, retryAfterS: 60 },
      });
    } finally {
      await rehearse('gateway', 'none');
    }
    // The gateway asked for 60 s: the operator's next action is told at once how long is left,
    // instead of hanging for a minute (it used to wait in the limiter).
    const heldBack = await bridge.call('POST', '/streamhost/create-broadcast', { body });
    expect(heldBack.status).toBe(429);
    expect(heldBack.body).toMatchObject({
      code: 'RATE_LIMIT',
      peer: { name: 'gateway', cause: 'throttled' },
    });
    expect(heldBack.body.error).toMatch(/wait \d+ s more/);
    expect(Number(heldBack.headers.get('retry-after'))).toBeGreaterThan(50);
  });

  it('the posting provider offline: unreachable; a refusal of the post itself carries no peer cause', async () => {
    await rehearse('postsvc', 'offline');
    try {
      const offline = await bridge.call('POST', '/postsvc/schedule', {
        body: { post: 'Rehearsed offline', platforms: ['microblog'], scheduleDate: inADay() },
      });
      expect(offline.status).toBe(500);
      expect(offline.body).toMatchObject({ peer: { name: 'postsvc', cause: 'unreachable' } });
    } finally {
      await rehearse('postsvc', 'none');
    }
    const refused = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'x'.repeat(300), platforms: ['microblog'], scheduleDate: inADay() },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.peer).toBeUndefined();
  });

  it('a platform refusing the post: its reason is the message, no peer cause; the provider throttling: throttled', async () => {
    const answer = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'postsvc', fault: 'refuse-platform', platform: 'photogram' },
    });
    expect(answer.status).toBe(200);
    try {
      const partly = await bridge.call('POST', '/postsvc/schedule', {
        body: {
          post: 'Rehearsed partly',
          platforms: ['microblog', 'photogram'],
          mediaUrls: ['https://cdn.example.com/a.png'],
          scheduleDate: inADay(),
        },
      });
      expect(partly.body.error).toMatch(/^Posted on Microblog\. Photogram refused it/);
      expect(partly.body.peer).toBeUndefined();
      // Last: the provider's Retry-After 60 holds posting back for the rest of this bridge's life.
      await rehearse('postsvc', 'throttle');
      const throttled = await bridge.call('POST', '/postsvc/schedule', {
        body: { post: 'Rehearsed throttled', platforms: ['microblog'], scheduleDate: inADay() },
      });
      expect(throttled.status).toBe(429);
      expect(throttled.body).toMatchObject({
        code: 'RATE_LIMIT',
        peer: { name: 'postsvc', cause: 'throttled', status: 429 },
      });
    } finally {
      await rehearse('postsvc', 'none');
    }
  });
});
