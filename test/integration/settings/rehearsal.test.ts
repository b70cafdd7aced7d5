import { afterEach, describe, expect, it } from 'vitest';
import { startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * The sandbox panel's route (DESIGN §8, issue #30.7): a sandbox bridge makes its simulated
 * provider refuse a platform, fail or go offline, and puts it back; with real peers the route is 404.
 */
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const inADay = () => new Date(Date.now() + 26 * 3_600_000).toISOString();

describe('POST /api/sandbox/rehearsal', () => {
  it('in sandbox mode: refuse one platform, then fail, then offline, each put back', async () => {
    const bridge: TestBridge = await startTestBridge({ BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none' });
    cleanup.push(() => bridge.close());

    const refuse = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'postsvc', fault: 'refuse-platform', platform: 'photogram' },
    });
    expect(refuse.status).toBe(200);
    expect(refuse.body.peers).toContainEqual({
      peer: 'postsvc',
      fault: 'refuse-platform',
      platform: 'photogram',
    });
    const partly = await bridge.call('POST', '/postsvc/schedule', {
      body: {
        post: 'Rehearsal one',
        platforms: ['microblog', 'photogram'],
        mediaUrls: ['https://cdn.example.com/a.png'],
        scheduleDate: inADay(),
      },
    });
    expect(partly.status).toBe(500);
    expect(partly.body.error).toMatch(
      /^Posted on Microblog\. Photogram refused it: Photogram refused the post/,
    );

    const fail = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'postsvc', fault: 'fail' },
    });
    expect(fail.status).toBe(200);
    // Changing the rehearsal puts the refused platform back first: one rehearsal per peer.
    expect(fail.body.peers).toContainEqual({ peer: 'postsvc', fault: 'fail', platform: null });
    const failed = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'Rehearsal two', platforms: ['microblog'], scheduleDate: inADay() },
    });
    expect(failed.status).toBeGreaterThanOrEqual(500);

    await bridge.call('POST', '/api/sandbox/rehearsal', { body: { peer: 'postsvc', fault: 'offline' } });
    const offline = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: 'Rehearsal three', platforms: ['microblog'], scheduleDate: inADay() },
    });
    expect(offline.status).toBeGreaterThanOrEqual(500);

    const back = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'postsvc', fault: 'none' },
    });
    expect(back.body.peers).toContainEqual({ peer: 'postsvc', fault: 'none', platform: null });
    const ok = await bridge.call('POST', '/postsvc/schedule', {
      body: {
        post: 'Rehearsal four',
        platforms: ['microblog', 'photogram'],
        mediaUrls: ['https://cdn.example.com/a.png'],
        scheduleDate: inADay(),
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuse-platform names its rule: only the provider, and a platform', async () => {
    const bridge: TestBridge = await startTestBridge({ BRIDGE_SANDBOX: '1', RECORDER_OBS_URL: 'none' });
    cleanup.push(() => bridge.close());
    const crm = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'crm', fault: 'refuse-platform', platform: 'photogram' },
    });
    expect(crm.status).toBe(400);
    expect(crm.body.error).toContain('only the posting provider');
    const none = await bridge.call('POST', '/api/sandbox/rehearsal', {
      body: { peer: 'postsvc', fault: 'refuse-platform' },
    });
    expect(none.status).toBe(400);
    expect(none.body.error).toContain('platform');
  });

  it('with real peers the route does not exist (404)', async () => {
    const bridge: TestBridge = await startTestBridge();
    cleanup.push(() => bridge.close());
    const answer = await bridge.call('GET', '/api/sandbox/rehearsal');
    expect(answer.status).toBe(404);
  });
});
