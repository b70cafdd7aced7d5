import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxPostsvc,
  type SandboxCrm,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, type TestBridge } from '../../support/bridge.js';

/**
 * Issue #41.4: Analytics said "8 of 8 published posts measured" while Posts said "Published 4":
 * the provider's history holds posts published by other means. The published posts are defined
 * once (those a collection found published at the provider), and both GET /analytics/runs and
 * GET /api/posts say how many of them Posts lists and which ones it does not.
 */
const DAY = 86_400_000;
const clock = { at: Date.parse('2026-03-10T12:00:00.000Z') };
const now = () => new Date(clock.at);

let postsvc: SandboxPostsvc;
let crm: SandboxCrm;
let bridge: TestBridge;
const outside: string[] = [];
let fromCrm = '';
let fromBridge = '';

async function collected() {
  // The start-up catch-up may still run: one run at a time.
  await eventually(async () => {
    const runs = await bridge.call('GET', '/analytics/runs');
    return (
      runs.body.data.length > 0 && runs.body.data.every((r: { status: string }) => r.status !== 'running')
    );
  }, 20_000);
  const started = await bridge.call('POST', '/analytics/collect');
  expect(started.status).toBe(200);
  return eventually(async () => {
    const runs = await bridge.call('GET', '/analytics/runs');
    const run = runs.body.data.find((r: { id: number }) => r.id === started.body.runId);
    return run && run.status !== 'running' ? runs.body : null;
  }, 20_000);
}

beforeAll(async () => {
  postsvc = await startSandboxPostsvc({ now, seed: 41 });
  crm = await startSandboxCrm({ now, warn: () => undefined });
  // Two posts published in the provider's own app: no ledger row, no SocialPost.
  for (const [i, post] of ['Posted in the provider app', 'Another one from the app'].entries())
    outside.push(
      postsvc.importPost({ post, platforms: ['microblog'], created: new Date(clock.at - (i + 2) * DAY) }).id,
    );
  // One the CRM's SocialPost sent (it carries the provider's id).
  fromCrm = postsvc.importPost({
    post: 'Episode 3 is out',
    platforms: ['socialnet'],
    created: new Date(clock.at - DAY),
  }).id;
  crm.create('SocialPost', {
    name: 'Episode 3',
    status: 'Published',
    platform: 'Socialnet',
    content: 'Episode 3 is out',
    postsvcId: fromCrm,
    scheduledAt: new Date(clock.at - DAY).toISOString().replace('T', ' ').slice(0, 19),
  });
  bridge = await startTestBridge(
    {
      POSTSVC_URL: postsvc.url,
      POSTSVC_API_KEY: postsvc.apiKey,
      CRM_URL: crm.url,
      CRM_API_KEY: crm.apiKey,
    },
    { now },
  );
  // One the bridge sent itself, published at once.
  const sent = await bridge.call('POST', '/postsvc/schedule', {
    body: { post: 'Sent from the dashboard', platforms: ['microblog'] },
  });
  expect(sent.status).toBe(200);
  fromBridge = sent.body.id;
});

afterAll(async () => {
  await bridge?.close();
  await crm?.stop();
  await postsvc?.stop();
});

describe('the published posts (issue #41.4)', () => {
  it('Analytics and Posts say the same: four published, two on Posts, two published elsewhere', async () => {
    const runs = await collected();
    const expected = {
      atProvider: 4,
      onPosts: 2,
      elsewhere: [...outside].sort(),
      asOf: runs.lastCollected.posts,
    };
    expect({ ...runs.published, elsewhere: [...runs.published.elsewhere].sort() }).toEqual(expected);
    const posts = await bridge.call('GET', '/api/posts');
    expect({ ...posts.body.published, elsewhere: [...posts.body.published.elsewhere].sort() }).toEqual(
      expected,
    );
    // Posts lists the CRM's and the bridge's own, and none of the others.
    const listed = posts.body.data.map((p: { postsvcId: string | null }) => p.postsvcId);
    expect(listed).toEqual(expect.arrayContaining([fromCrm, fromBridge]));
    for (const id of outside) expect(listed).not.toContain(id);
    // The top posts Analytics ranks are exactly the provider's published posts.
    const top = await bridge.call('GET', '/analytics/top-posts?limit=50');
    expect(new Set(top.body.data.map((r: { postsvc_id: string }) => r.postsvc_id))).toEqual(
      new Set([...outside, fromCrm, fromBridge]),
    );
  });

  it('a window of Posts does not say which posts Posts lists: no count there', async () => {
    const from = new Date(clock.at - 2 * DAY).toISOString();
    const posts = await bridge.call('GET', `/api/posts?from=${encodeURIComponent(from)}`);
    expect(posts.status).toBe(200);
    expect(posts.body.published).toBeNull();
  });
});

describe('content metrics arrive only by POST /analytics/content-ingest (spec §4.2)', () => {
  it('none received before the first; the time of receipt after it, not the figures’ own time', async () => {
    expect((await bridge.call('GET', '/analytics/runs')).body.contentReceived).toBeNull();
    const sent = await bridge.call('POST', '/analytics/content-ingest', {
      body: {
        contentId: 'ep-3',
        platform: 'videosite',
        views: 120,
        watchHours: 4.5,
        likes: 9,
        comments: 1,
        shares: 2,
        collectedAt: new Date(clock.at - 3 * DAY).toISOString(),
      },
    });
    expect(sent.status).toBe(200);
    const runs = (await bridge.call('GET', '/analytics/runs')).body;
    expect(runs.contentReceived).toBe(now().toISOString());
    expect(runs.lastCollected.content).toBe(new Date(clock.at - 3 * DAY).toISOString());
  });
});
