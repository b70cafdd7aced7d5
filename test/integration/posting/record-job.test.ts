import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { phpJsonEncode, toCrmDatetime } from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually, webhookIdFor, webhookIdsFor } from '../../support/bridge.js';
import { withPostingBridge } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';

/**
 * Issue #36.2: one job per record, decided once. Every trigger enqueues or joins the record's one
 * job, "bring SocialPost <id> in line"; an item that arrives while that job runs marks it dirty,
 * so it runs once more and reads the record again, and the item's stored outcome is that run's.
 * While the record's lane is busy the webhook answers 202 at once instead of waiting its budget.
 */

const SECRET = 'record-job-secret';
const WEBHOOK_BASE = 'wh-record-job';
const { crm, postsvc, bridge } = await withPostingBridge({
  secret: SECRET,
  // Long enough that an answer given before the record's job ends was not a budget running out.
  bridge: { webhookBudgetMs: 20_000 },
});
afterEach(() => {
  crm.clearWebhookTarget();
  postsvc.faults.clearFaults();
});

const creates = () => postsvc.callCount('/post', 'POST');
const postsOf = (id: string) => postsvc.posts().filter((post) => post.idempotencyKey?.startsWith(`${id}:`));
const deliver = (event: string, items: Record<string, unknown>[]) =>
  callSignedWebhook(bridge.url, event, phpJsonEncode(items), {
    webhookId: webhookIdFor(WEBHOOK_BASE, event),
    secret: SECRET,
  });

function scheduled(name: string) {
  return crm.create('SocialPost', {
    name,
    content: `${name}: first wording https://studio.example/${encodeURIComponent(name)}`,
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(Date.now() + 30 * 3_600_000)),
  });
}

it('an item for a record whose job is running is answered 202 at once, while that job still waits on the provider', async () => {
  postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: 4_000, times: 1 });
  const record = scheduled('Busy lane');
  const before = creates();
  let firstAnswered = false;
  const first = deliver('social-created', [record]).finally(() => (firstAnswered = true));
  await eventually(() => creates() > before);

  const second = await deliver('social-updated', [{ id: record.id, name: 'Busy lane, renamed' }]);
  expect(second.status).toBe(202);
  expect(second.body).toEqual({ success: true, queued: true, results: [{ success: true, queued: true }] });
  // Answered while the record's job still waits on the provider's create.
  expect(firstAnswered).toBe(false);
  expect(postsOf(record.id)).toEqual([]);

  const answered = await first;
  expect(answered.status).toBe(200);
  expect(answered.body.results).toEqual([
    expect.objectContaining({ success: true, postsvcId: expect.any(String) }),
  ]);
});

it('an item that arrives while the record’s job runs marks it dirty: one job, run once more, reading the record again', async () => {
  crm.setWebhookTarget({
    baseUrl: bridge.url,
    secret: SECRET,
    webhookIds: webhookIdsFor(WEBHOOK_BASE),
    deliveryDelayMs: 20,
  });
  await jobsIdle(bridge.url, 'posting.social-post');
  const jobsBefore = (await bridge.call('GET', '/api/jobs?kind=posting.social-post&limit=500')).body.data
    .length;
  postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: 3_000, times: 1 });
  const record = scheduled('Dirty run');
  const before = creates();
  await eventually(() => creates() > before);
  // The record's job waits on the provider's create of the first wording; the CRM changes it now.
  crm.update('SocialPost', record.id, { content: 'Dirty run: second wording https://studio.example/dirty' });
  await webhooksQuiet(crm);
  await jobsIdle(bridge.url, 'posting.social-post');

  const posts = postsOf(record.id);
  expect(posts.filter((post) => post.status === 'scheduled').map((post) => post.post)).toEqual([
    'Dirty run: second wording https://studio.example/dirty',
  ]);
  const live = posts.find((post) => post.status === 'scheduled')!;
  expect(crm.get('SocialPost', record.id)?.postsvcId).toBe(live.id);

  // One job for the record's create and its edit: it ran once more after the edit came in (and
  // again for each echo of its write-backs that came in while it ran).
  const jobs = (await bridge.call('GET', '/api/jobs?kind=posting.social-post&limit=500')).body.data as {
    status: string;
    attempts: number;
  }[];
  const fresh = jobs.slice(0, jobs.length - jobsBefore);
  expect(fresh[fresh.length - 1]).toMatchObject({ status: 'done' });
  expect(fresh[fresh.length - 1]!.attempts).toBeGreaterThanOrEqual(2);
  expect((await bridge.call('GET', '/api/jobs?kind=webhook.item&limit=500')).body.data).toEqual([]);

  // The edit's item was answered by the run that started after it: the one that created the second post.
  const db = new Database(path.join(bridge.dataDir, 'bridge.sqlite'), { readonly: true });
  try {
    const outcomes = db
      .prepare<[string], { event: string; outcome: string }>(
        "SELECT event, outcome FROM processed_events WHERE entity_id = ? AND status = 'done' ORDER BY created_at",
      )
      .all(record.id)
      .map((row) => ({ event: row.event, outcome: JSON.parse(row.outcome) as { postsvcId?: string } }));
    expect(
      outcomes.find((row) => row.event === 'social-updated' && row.outcome.postsvcId === live.id),
    ).toBeTruthy();
  } finally {
    db.close();
  }
});
