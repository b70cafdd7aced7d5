import { expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * Post now (issue #22.4, DESIGN §6.9): a CRM post that reached the bridge 40 min after its time
 * failed as late; the operator posts it now from the Posts page. It goes out once, at once,
 * through the ledger (a new generation): a second Post now, the CRM's echo and a retried
 * webhook add nothing.
 */

const SECRET = 'post-now-secret';
const { crm, postsvc, bridge } = await withPostingBridge({ secret: SECRET, bridge: { webhooks: {} } });

const postsFor = (id: string) => postsvc.posts().filter((p) => p.idempotencyKey?.startsWith(`${id}:`));

it('a post failed as too late is posted at once, once, and a second Post now is refused', async () => {
  const record = crm.create('SocialPost', {
    name: 'Too late',
    content: 'The studio hour is live now https://studiohour.example/live',
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(Date.now() - 40 * 60_000)),
  });
  await eventually(() => crm.get('SocialPost', record.id)?.status === 'Failed');
  expect(String(crm.get('SocialPost', record.id)!.error)).toMatch(/^not posted: 40 min past its time/);
  expect(postsFor(record.id)).toEqual([]);

  const posted = await bridge.call('POST', '/api/posts/post-now', { body: { socialPostId: record.id } });
  expect(posted.status).toBe(200);
  expect(posted.body).toMatchObject({ success: true, status: 'scheduled', postsvcId: expect.any(String) });
  const [sent, ...more] = postsFor(record.id);
  expect(more).toEqual([]);
  expect(sent!.scheduleDate ?? null).toBeNull(); // published at once, not scheduled
  expect(sent!.status).toBe('success');
  expect(crm.get('SocialPost', record.id)).toMatchObject({ status: 'Scheduled', error: null });

  // The CRM's echoes of the write-backs and a retried delivery of them change nothing.
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'webhook.item');
  const again = await bridge.call('POST', '/api/posts/post-now', { body: { socialPostId: record.id } });
  expect(again.status).toBe(409);
  expect(again.body.error ?? again.body.message).toMatch(
    /only a failed post or one scheduled ahead is posted now/,
  );
  expect(postsFor(record.id)).toHaveLength(1);
});

it('names the field when the body is wrong, and 404s an unknown record', async () => {
  const bad = await bridge.call('POST', '/api/posts/post-now', { body: {} });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toMatch(/socialPostId/);
  const unknown = await bridge.call('POST', '/api/posts/post-now', {
    body: { socialPostId: '0123456789abcdefg' },
  });
  expect(unknown.status).toBe(404);
});

it('a CRM post still scheduled is posted now: its scheduled provider post is called back first, then it goes out once', async () => {
  const record = crm.create('SocialPost', {
    name: 'Early',
    content: 'Doors open early today https://studiohour.example/doors',
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(Date.now() + 3 * 3_600_000)),
  });
  await eventually(() => postsFor(record.id).some((p) => p.status === 'scheduled'));
  const [scheduled] = postsFor(record.id);

  const posted = await bridge.call('POST', '/api/posts/post-now', { body: { socialPostId: record.id } });
  expect(posted.status).toBe(200);
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'webhook.item');
  const posts = postsFor(record.id);
  expect(posts.find((p) => p.id === scheduled!.id)?.status).toBe('deleted');
  const live = posts.filter((p) => p.status !== 'deleted');
  expect(live).toHaveLength(1);
  expect(live[0]!.scheduleDate ?? null).toBeNull(); // published at once, not at its old hour
  expect(live[0]!.status).toBe('success');
});
