import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { phpJsonEncode, toCrmDatetime } from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';

/**
 * The job queue's slots bound the work that waits on peers (issue #13.1). A new Draft asks
 * nothing of any peer (intake decides it: a new record that is not Scheduled and that the ledger
 * never saw, issue #36.2), so it is answered with its outcome even while every slot waits on a
 * slow provider, where a new Scheduled post, which does need the provider, waits for a slot and
 * is answered 202. Each SocialPost's items join the record's one job (`posting.social-post`).
 */

const SECRET = 'peer-slots-secret';
const WEBHOOK_ID = 'wh-peer-slots';
const BUDGET_MS = 1_500;
const PROVIDER_DELAY_MS = 4_000;
const platforms = ['Microblog', 'Socialnet', 'Photogram', 'Professional'] as const;

const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  bridge: { webhookBudgetMs: BUDGET_MS },
});

const deliver = (records: readonly Record<string, unknown>[]) =>
  callSignedWebhook(bridge.url, 'social-created', phpJsonEncode(records), {
    webhookId: WEBHOOK_ID,
    secret: SECRET,
  });

const scheduledPost = (i: number) =>
  crm.create('SocialPost', {
    name: `Slot post ${i}`,
    content: `Slot post ${i}: the new episode https://studio.com/ep/${i}`,
    platform: platforms[i % platforms.length],
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(Date.now() + (24 + 24 * i) * 3_600_000)),
    mediaUrl: `https://cdn.studio.com/ep/${i}.png`,
  });

it('a new Draft is answered with its outcome while every job slot waits on a slow provider; a new Scheduled post waits for a slot', async () => {
  postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: PROVIDER_DELAY_MS, times: 10 });
  // Four Scheduled posts: their records' jobs take the four slots and wait on the provider.
  const busy = deliver([0, 1, 2, 3].map(scheduledPost));
  await eventually(async () => {
    const running = await bridge.call('GET', '/api/jobs?status=running&kind=posting.social-post');
    return (running.body?.data as unknown[] | undefined)?.length === 4;
  });

  const draft = crm.create('SocialPost', {
    name: 'An idea for later',
    content: 'An idea for later https://studio.com/ideas/1',
    platform: 'Microblog',
    status: 'Draft',
  });
  const draftAnswer = await deliver([draft]);
  expect(draftAnswer.status).toBe(200);
  expect(draftAnswer.body.results).toEqual([expect.objectContaining({ success: true, skipped: true })]);

  const waiting = await deliver([scheduledPost(4)]);
  expect(waiting.status).toBe(202);
  expect(waiting.body.results).toEqual([{ success: true, queued: true }]);

  const first = await busy;
  expect(first.status).toBe(202);
  // Every Scheduled post still ends with exactly one provider post.
  await eventually(() => postsvc.posts().length === 5, 30_000);
  expect(new Set(postsvc.posts().map((post) => post.id)).size).toBe(5);
}, 40_000);

it("a new Draft for a record whose job still waits on the provider is not decided at once: the record's job runs once more, after that run", async () => {
  postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: PROVIDER_DELAY_MS, times: 1 });
  const record = scheduledPost(10);
  const first = deliver([record]);
  await eventually(async () => {
    const running = await bridge.call('GET', '/api/jobs?status=running&kind=posting.social-post');
    return (running.body?.data as unknown[] | undefined)?.length === 1;
  });

  // The same record again, now as a Draft (other bytes: a new item, not a redelivery).
  const draftAnswer = await deliver([{ ...record, status: 'Draft', name: 'Back to the drawing board' }]);
  expect(draftAnswer.status).toBe(202);
  expect(draftAnswer.body.results).toEqual([{ success: true, queued: true }]);
  expect((await first).status).toBe(202);

  const job = await eventually(async () => {
    const list = await bridge.call('GET', '/api/jobs?kind=posting.social-post&limit=1');
    const [latest] = list.body.data as { status: string; attempts: number }[];
    return latest?.status === 'done' ? latest : null;
  }, 30_000);
  // The Draft came in while the record's job ran: the same job ran once more, reading the record again.
  expect(job.attempts).toBe(2);
  expect(postsvc.posts().filter((post) => post.post.includes('Slot post 10'))).toHaveLength(1);
}, 40_000);

it('every delivery is logged with the status it was answered with', async () => {
  const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    const answered = await eventually(() => {
      const rows = db
        .prepare<[], { status: number | null; finished: string | null }>(
          'SELECT response_status AS status, finished_at AS finished FROM webhook_deliveries ORDER BY id',
        )
        .all();
      return rows.every((row) => row.status !== null && row.finished !== null) ? rows : null;
    });
    // The four Scheduled posts, the Draft, the fifth Scheduled post; the record's Scheduled item, its Draft.
    expect(answered.map((row) => row.status)).toEqual([202, 200, 202, 202, 202]);
  } finally {
    db.close();
  }
});
