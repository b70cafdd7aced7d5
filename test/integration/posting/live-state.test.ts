import { expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { webhooksQuiet } from '../../support/settle.js';

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
const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  crm: { now },
  postsvc: { now },
  bridge: { now, webhooks: { ids: 'wh-live-state' } },
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

const deletes = () => postsvc.callCount('/post', 'DELETE');
const viewOf = async (socialPostId: string) =>
  (await bridge.call('GET', '/api/posts')).body.data.find(
    (p: { socialPostId: string }) => p.socialPostId === socialPostId,
  );

it('published before the bridge’s +30 s check: a dashboard Cancel gets 409 and a CRM Draft leaves the post live and the record Published', async () => {
  const byDashboard = await scheduledPost('Cancelled too late', 30);
  const byCrm = await scheduledPost('Drafted too late', 30);
  const deletesBefore = deletes();

  // The provider publishes both at their time; the bridge's own check (+30 s) has not come yet.
  clock = byDashboard.at + 5_000;
  const cancel = await bridge.call('POST', '/api/posts/cancel', { body: { id: byDashboard.postsvcId } });
  expect(cancel.status).toBe(409);
  expect(cancel.body).toMatchObject({
    success: false,
    code: 'ALREADY_PUBLISHED',
    details: { platforms: ['microblog'] },
  });
  expect(cancel.body.error).toMatch(/already published on microblog/);
  expect(providerPost(byDashboard.postsvcId).status).toBe('success');
  expect(crm.get('SocialPost', byDashboard.id)?.status).toBe('Published');

  crm.update('SocialPost', byCrm.id, { status: 'Draft' });
  await webhooksQuiet(crm);
  await eventually(() => crm.get('SocialPost', byCrm.id)?.status === 'Published');
  expect(providerPost(byCrm.postsvcId).status).toBe('success');
  expect(crm.get('SocialPost', byCrm.id)?.postsvcId).toBe(byCrm.postsvcId);
  const warnings = await bridge.call('GET', '/api/activity?type=posting.still-live&limit=10');
  expect(warnings.body.data).toContainEqual(
    expect.objectContaining({
      level: 'warn',
      message: expect.stringMatching(/^CRM post “.+” was set to Draft but it is already live on microblog/),
    }),
  );
  expect(deletes()).toBe(deletesBefore);

  // The spec's /postsvc/delete keeps its meaning: asked for by name, it takes the live post down.
  const removed = await bridge.call('POST', '/postsvc/delete', { body: { id: byDashboard.postsvcId } });
  expect(removed.status).toBe(200);
  expect(providerPost(byDashboard.postsvcId).status).toBe('deleted');
});

it('a CRM record deleted while its post is live: nothing written or deleted, the dashboard says "CRM record deleted, still live"', async () => {
  const post = await scheduledPost('Deleted while live', 30);
  const deletesBefore = deletes();
  clock = post.at + 5_000;
  crm.remove('SocialPost', post.id);
  await webhooksQuiet(crm);
  await eventually(async () => (await viewOf(post.id))?.liveHold === 'crm-deleted');
  expect(providerPost(post.postsvcId).status).toBe('success');
  expect(deletes()).toBe(deletesBefore);
  const activity = await bridge.call('GET', '/api/activity?type=posting.still-live&limit=10');
  expect(activity.body.data).toContainEqual(
    expect.objectContaining({ message: expect.stringMatching(/^CRM record deleted, still live/) }),
  );
});

it('a Published record set back to Scheduled waits for the operator: nothing sent, cancelled or written', async () => {
  const post = await scheduledPost('Back to Scheduled', 30);
  clock = post.at + 31_000;
  await eventually(() => crm.get('SocialPost', post.id)?.status === 'Published', 15_000);
  const creates = postsvc.callCount('/post', 'POST');
  const deletesBefore = deletes();

  crm.update('SocialPost', post.id, { status: 'Scheduled', content: 'Back to Scheduled, edited' });
  await webhooksQuiet(crm);
  await eventually(async () => (await viewOf(post.id))?.liveHold === 'waiting-operator');
  expect(crm.get('SocialPost', post.id)?.status).toBe('Scheduled');
  expect(postsvc.callCount('/post', 'POST')).toBe(creates);
  expect(deletes()).toBe(deletesBefore);
  expect(providerPost(post.postsvcId).status).toBe('success');
});

it('a post past the newest 1,000 in the provider’s history is still confirmed, by id', async () => {
  const post = await scheduledPost('Deep in history', 30);
  // 1,001 newer posts made elsewhere push it out of the deepest history page.
  for (let i = 0; i < 1_001; i++) {
    postsvc.importPost({
      post: `Elsewhere ${i}`,
      platforms: ['socialnet'],
      created: new Date(clock + 1_000),
    });
  }
  const byIdBefore = postsvc.callCount(`/post/${post.postsvcId}`, 'GET');
  clock = post.at + 31_000;
  await eventually(() => crm.get('SocialPost', post.id)?.status === 'Published', 15_000);
  expect(postsvc.callCount(`/post/${post.postsvcId}`, 'GET')).toBeGreaterThan(byIdBefore);
});

it('Sync’s counts match the rows it changed', async () => {
  // What earlier tests left for Sync to bring in line is done first: from here, only these two change.
  await bridge.call('POST', '/postsvc/sync');
  const crmPost = await scheduledPost('Synced by hand', 30);
  const scheduleDate = new Date(crmPost.at + 60_000).toISOString();
  const api = await bridge.call('POST', '/postsvc/schedule', {
    body: {
      post: 'From the dashboard: the new episode https://studio.example/sync',
      platforms: ['microblog'],
      scheduleDate,
    },
  });
  expect(api.status).toBe(200);
  // Both are out at the provider; the bridge's own checks (+30 s) have not come yet.
  clock = Date.parse(scheduleDate) + 5_000;

  const first = await bridge.call('POST', '/postsvc/sync');
  expect(first.status).toBe(200);
  // The CRM record went Published and the API post's ledger row published: two posts changed.
  expect(first.body.updated).toBe(2);
  expect(crm.get('SocialPost', crmPost.id)?.status).toBe('Published');
  const again = await bridge.call('POST', '/postsvc/sync');
  expect(again.body).toMatchObject({ updated: 0, errors: 0 });
});
