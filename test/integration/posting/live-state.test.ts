import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startSandboxCrm,
  startSandboxPostsvc,
  toCrmDatetime,
  type SandboxCrm,
  type SandboxPostsvc,
} from '../../../main/sandbox/index.js';
import { eventually, startTestBridge, webhookIdsFor, type TestBridge } from '../../support/bridge.js';
import { webhooksQuiet } from '../../support/settle.js';
import { crmAndPostsvcEnv } from '../../support/peers-env.js';

/**
 * Live state (DESIGN §6.9 "Posts follow the provider", "Cancel never deletes a live post
 * unasked"): the provider publishes a scheduled post at its time with no call from the bridge;
 * the bridge must see it by itself (no Sync), and no cancel may take a live post down unasked.
 * The bridge, the CRM and the provider run on one test clock, moved forward by the test (the
 * bridge looks for due checks every few real seconds, so a jump of the clock is seen at once).
 */

const SECRET = 'live-state-secret';
let clock = Date.now();
const now = () => new Date(clock);
let crm: SandboxCrm;
let postsvc: SandboxPostsvc;
let bridge: TestBridge;

beforeAll(async () => {
  crm = await startSandboxCrm({ warn: () => undefined, now });
  postsvc = await startSandboxPostsvc({ plan: 'business', now });
  bridge = await startTestBridge(crmAndPostsvcEnv(crm, postsvc, { secret: SECRET }), {
    areas: ['health', 'webhooks', 'posting'],
    now,
  });
  crm.setWebhookTarget({
    baseUrl: bridge.url,
    secret: SECRET,
    webhookIds: webhookIdsFor('wh-live-state'),
    deliveryDelayMs: 20,
  });
});
afterAll(async () => {
  await bridge.close();
  await crm.stop();
  await postsvc.stop();
});

/** A Scheduled SocialPost `minutes` ahead on the test clock, once the bridge has scheduled it at the provider. */
async function scheduledPost(name: string, minutes: number) {
  const at = new Date(clock + minutes * 60_000);
  at.setUTCSeconds(0, 0);
  const record = crm.create('SocialPost', {
    name,
    content: `${name}: the new episode is out https://studio.example/${encodeURIComponent(name)}`,
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(at),
  });
  const postsvcId = await eventually(() => crm.get('SocialPost', record.id)?.postsvcId as string | undefined);
  await webhooksQuiet(crm);
  return { id: record.id, postsvcId, at: at.getTime() };
}

const providerPost = (id: string) => postsvc.posts().find((post) => post.id === id)!;
const syncCalls = async () =>
  (await bridge.call('GET', '/api/activity?type=posting.sync&limit=50')).body.data.length as number;

it('a post the provider publishes at its time is Published in the CRM, on the Posts page and in activity, with no Sync', async () => {
  const post = await scheduledPost('Follow the provider', 15);
  expect(crm.get('SocialPost', post.id)?.status).toBe('Scheduled');

  // The provider's clock reaches the post's time; the bridge's +30 s check is the first to look.
  clock = post.at + 31_000;
  await eventually(() => crm.get('SocialPost', post.id)?.status === 'Published', 15_000);
  // Within 2.5 min of the provider's change, on the bridge's clock.
  expect(clock - post.at).toBeLessThan(150_000);
  expect(providerPost(post.postsvcId).status).toBe('success');

  const list = await bridge.call('GET', '/api/posts');
  const view = list.body.data.find((p: { socialPostId: string }) => p.socialPostId === post.id);
  const postUrl = providerPost(post.postsvcId).postIds[0]!.postUrl;
  expect(view).toMatchObject({
    status: 'published',
    confirmation: null,
    platformStates: [{ platform: 'microblog', status: 'published', postUrl }],
  });
  const activity = await bridge.call('GET', '/api/activity?type=posting.published&limit=10');
  expect(activity.body.data).toContainEqual(
    expect.objectContaining({
      data: expect.objectContaining({ socialPostId: post.id, postUrls: [postUrl] }),
    }),
  );
  expect(await syncCalls()).toBe(0);
});

it('a platform that fails at its time is Failed in the CRM with the platform’s words', async () => {
  const post = await scheduledPost('Refused at its time', 20);
  postsvc.failPlatform('microblog', 'duplicate content: this text was posted before');
  try {
    clock = post.at + 31_000;
    await eventually(() => crm.get('SocialPost', post.id)?.status === 'Failed', 15_000);
    expect(crm.get('SocialPost', post.id)?.error).toBe(
      'microblog: duplicate content: this text was posted before',
    );
  } finally {
    postsvc.failPlatform('microblog', null);
  }
});
