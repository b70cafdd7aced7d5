import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { callSignedWebhook, eventually, webhookIdFor, type TestBridge } from '../../support/bridge.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { jobsIdle, webhooksQuiet } from '../../support/settle.js';
import { tempDir, type TempDir } from '../../support/temp-dir.js';

/**
 * The social-* webhooks end to end: the sandbox CRM delivers real signed, batched EspoCRM
 * webhooks to a real bridge, and the sandbox provider counts what was posted.
 */

const SECRET = 'posting-webhook-secret';
const WEBHOOK_ID = 'wh-posting-test';
const hoursAhead = (h: number) => toCrmDatetime(new Date(Date.now() + h * 3_600_000));

const peers = await withPostingPeers({ secret: SECRET });
const { crm, postsvc } = peers;
let bridge: TestBridge;
let data: TempDir;
let dataDir: string;

const startBridge = () =>
  peers.startBridge({
    dataDir,
    tuning: { peers: { postsvc: { timeoutMs: 1_000 } } },
    webhooks: { ids: WEBHOOK_ID },
  });

/** Replays a body exactly as the CRM signs it (a redelivery). */
async function deliver(event: string, rawBody: string) {
  const { status, body } = await callSignedWebhook(bridge.url, event, rawBody, {
    webhookId: webhookIdFor(WEBHOOK_ID, event),
    secret: SECRET,
  });
  return { status, body: body as Record<string, unknown> };
}

/** Lets the CRM send what it has gathered (and the echoes of the bridge's write-backs) until quiet. */
const settle = () => webhooksQuiet(crm);

const creates = () => postsvc.callCount('/post', 'POST');
const deletes = () => postsvc.callCount('/post', 'DELETE');
const livePosts = () => postsvc.posts().filter((p) => p.status !== 'deleted');

function newPost(attrs: Record<string, unknown> = {}) {
  return crm.create('SocialPost', {
    name: 'Episode 12 promo',
    content: 'Episode 12 is out: https://studio.example/ep12',
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: hoursAhead(24),
    mediaUrl: 'https://cdn.example/ep12.png',
    ...attrs,
  });
}

beforeEach(async () => {
  data = tempDir('posting-webhooks');
  dataDir = data.path;
  bridge = await startBridge();
});
afterEach(async () => {
  crm.clearWebhookTarget();
  postsvc.faults.clearFaults();
  await bridge.close();
  data.remove();
});

describe('social-created', () => {
  it('schedules a Scheduled post once, writes postsvcId back, and the echo of that write causes nothing', async () => {
    const before = creates();
    const record = newPost();
    await settle();
    const stored = crm.get('SocialPost', record.id)!;
    expect(stored.postsvcId).toEqual(expect.any(String));
    expect(stored.status).toBe('Scheduled');
    expect(creates() - before).toBe(1);
    const post = postsvc.posts().find((p) => p.id === stored.postsvcId)!;
    expect(post).toMatchObject({
      post: 'Episode 12 is out: https://studio.example/ep12',
      platforms: ['microblog'],
      mediaUrls: ['https://cdn.example/ep12.png'],
      status: 'scheduled',
    });
    // The CRM datetime reached the provider as ISO 8601.
    expect(post.scheduleDate).toBe(
      new Date(`${String(record.scheduledAt).replace(' ', 'T')}Z`).toISOString(),
    );
    expect(post.idempotencyKey).toMatch(new RegExp(`^${record.id}:[0-9a-f]+$`));

    // The write-back came back as social-updated; it was answered and posted nothing.
    const echoes = crm.deliveries().filter((d) => d.event === 'social-updated' && d.body.includes(record.id));
    expect(echoes.length).toBeGreaterThanOrEqual(1);
    expect(echoes.every((d) => d.status === 200)).toBe(true);
    await settle();
    expect(creates() - before).toBe(1);
    expect(deletes()).toBe(0);
  });

  it('skips a post that is not Scheduled: nothing sent', async () => {
    const before = creates();
    const record = newPost({ status: 'Draft' });
    await settle();
    const delivery = crm
      .deliveries()
      .find((d) => d.event === 'social-created' && d.body.includes(record.id))!;
    expect(delivery.status).toBe(200);
    const replay = await deliver('social-created', delivery.body);
    expect(replay.body).toMatchObject({ success: true, results: [{ success: true, skipped: true }] });
    expect(creates()).toBe(before);
    expect(crm.get('SocialPost', record.id)?.postsvcId).toBeNull();
  });

  it('the same delivery three times in a row, three times at once and twice in one batch: one provider post', async () => {
    const before = creates();
    const record = newPost();
    await settle();
    const original = crm
      .deliveries()
      .find((d) => d.event === 'social-created' && d.body.includes(record.id))!;
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId;

    for (let i = 0; i < 3; i++) {
      const replay = await deliver('social-created', original.body);
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ success: true, results: [{ success: true, postsvcId }] });
    }
    const together = await Promise.all([1, 2, 3].map(() => deliver('social-created', original.body)));
    expect(together.map((r) => r.status)).toEqual([200, 200, 200]);
    const items = JSON.parse(original.body) as unknown[];
    const batch = await deliver('social-created', JSON.stringify([...items, ...items]));
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ results: [{ postsvcId }, { postsvcId }] });

    expect(creates() - before).toBe(1);
    expect(livePosts().filter((p) => p.idempotencyKey?.startsWith(record.id))).toHaveLength(1);
  });

  it('a re-fired create of the same record (another item, past the intake dedupe) gets the stored postsvcId from the ledger', async () => {
    const before = creates();
    const record = newPost();
    await settle();
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId;
    const full = crm.get('SocialPost', record.id)!;
    // Same record, a later snapshot: a different item hash, so the webhook intake does not recognise it.
    const refired = await deliver(
      'social-created',
      JSON.stringify([{ ...full, modifiedAt: hoursAhead(0.01) }]),
    );
    expect(refired.body).toMatchObject({ success: true, results: [{ success: true, postsvcId }] });
    expect(creates() - before).toBe(1);
  });

  it('the same delivery after a bridge restart on the same data dir: still one provider post', async () => {
    const before = creates();
    const record = newPost();
    await settle();
    const original = crm
      .deliveries()
      .find((d) => d.event === 'social-created' && d.body.includes(record.id))!;
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId;

    await bridge.stop();
    bridge = await startBridge();
    // A delivery that finds its record's job running (the start's catch-up reads the same record)
    // is answered 202 queued and joins that job (issue #36.2); otherwise with the job's outcome.
    const answeredWith = (body: { queued?: boolean }) =>
      body.queued ? { success: true, queued: true } : { success: true, results: [{ postsvcId }] };
    const replay = await deliver('social-created', original.body);
    expect(replay.body).toMatchObject(answeredWith(replay.body));
    const refired = await deliver(
      'social-created',
      JSON.stringify([{ ...crm.get('SocialPost', record.id)!, modifiedAt: hoursAhead(0.02) }]),
    );
    expect(refired.body).toMatchObject(answeredWith(refired.body));
    await jobsIdle(bridge.url, 'posting.social-post');
    await settle();
    expect(crm.get('SocialPost', record.id)!.postsvcId).toBe(postsvcId);
    expect(creates() - before).toBe(1);
  });

  it('a crash between the provider call and recording its answer: the next start settles the row from the history', async () => {
    const before = creates();
    const record = newPost({ content: 'Crash after the call' });
    await settle();
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId;
    await bridge.stop();
    // What the ledger holds when the process died mid-call: a claim by a process that is gone, no answer.
    const db = new Database(path.join(dataDir, 'bridge.sqlite'));
    db.prepare(
      "UPDATE social_post_ledger SET state = 'claimed', claim_token = 'dead-process', postsvc_id = NULL WHERE social_post_id = ?",
    ).run(record.id);
    db.close();
    crm.update('SocialPost', record.id, { postsvcId: null });

    bridge = await startBridge();
    await eventually(() => crm.get('SocialPost', record.id)?.postsvcId === postsvcId, 5_000);
    await deliver(
      'social-created',
      JSON.stringify([{ ...crm.get('SocialPost', record.id)!, modifiedAt: hoursAhead(0.04) }]),
    );
    expect(creates() - before).toBe(1);
  });

  it('a provider that accepts the post but never answers gets no second post: reconciled from its history', async () => {
    const before = creates();
    postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', hang: true, times: 1 });
    const record = newPost({ content: 'Hanging provider test' });
    await settle();
    await eventually(() => crm.get('SocialPost', record.id)?.postsvcId, 10_000);
    const stored = crm.get('SocialPost', record.id)!;
    const posts = postsvc.posts().filter((p) => p.post === 'Hanging provider test');
    expect(posts).toHaveLength(1);
    expect(stored.postsvcId).toBe(posts[0]!.id);
    expect(creates() - before).toBe(1);
    // A redelivery afterwards still finds it.
    await deliver('social-created', JSON.stringify([{ ...stored, modifiedAt: hoursAhead(0.03) }]));
    expect(creates() - before).toBe(1);
  });
});

describe('failures are visible on the record and in the activity log', () => {
  it('a post over the platform limit: Failed with the rule, 500 {success:false, error}, no provider call', async () => {
    const before = creates();
    const record = newPost({ content: 'x'.repeat(300) });
    await settle();
    const stored = crm.get('SocialPost', record.id)!;
    expect(stored.status).toBe('Failed');
    expect(stored.error).toBe('content: 300 characters, microblog allows 280');
    expect(creates()).toBe(before);
    const delivery = crm
      .deliveries()
      .find((d) => d.event === 'social-created' && d.body.includes(record.id))!;
    expect(delivery.status).toBe(500);
    // The same item again, after the bridge wrote Failed back: a genuine repeat (DESIGN §6.1.2),
    // and reading the record first it finds it Failed: nothing is sent, nothing newly failed.
    const single = await deliver('social-created', JSON.stringify(JSON.parse(delivery.body)[0]));
    expect(single).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true, skipped: true }),
    });
    const activity = await bridge.call('GET', '/api/activity?level=error&limit=50');
    expect(
      activity.body.data.some(
        (e: { type: string; message: string; data: { subject?: { id: string } } }) =>
          e.type === 'posting.failed' &&
          e.data.subject?.id === record.id &&
          e.message.startsWith('CRM post “') &&
          !e.message.includes(record.id),
      ),
    ).toBe(true);
    // The echo of the Failed write-back changed nothing.
    await settle();
    expect(crm.get('SocialPost', record.id)?.status).toBe('Failed');
  });

  it('a scheduledAt more than the grace in the past fails the record, saying how late and why (DESIGN §6.9)', async () => {
    const before = creates();
    const record = newPost({ scheduledAt: toCrmDatetime(new Date(Date.now() - 3_600_000)) });
    await settle();
    expect(crm.get('SocialPost', record.id)).toMatchObject({
      status: 'Failed',
      error: expect.stringMatching(
        /^not posted: 60 min past its time \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) when the CRM's webhook reached the bridge/,
      ),
    });
    expect(creates()).toBe(before);
  });

  it('a scheduledAt before 2000 or more than 5 years ahead: Failed with the bound it breaks, no provider call', async () => {
    const before = creates();
    const ancient = newPost({ content: 'Dated year 0026', scheduledAt: '0026-05-01 10:00:00' });
    const far = newPost({
      content: 'Dated six years out',
      scheduledAt: toCrmDatetime(new Date(Date.now() + 6 * 366 * 86_400_000)),
    });
    await settle();
    expect(crm.get('SocialPost', ancient.id)).toMatchObject({
      status: 'Failed',
      error: 'scheduledAt: 0026-05-01T10:00:00.000Z is before 2000-01-01',
    });
    expect(crm.get('SocialPost', far.id)).toMatchObject({
      status: 'Failed',
      error: expect.stringMatching(/^scheduledAt: \S+ is more than 5 years ahead \(latest /),
    });
    expect(creates()).toBe(before);
    expect(postsvc.posts().filter((p) => p.post.startsWith('Dated '))).toEqual([]);
  });

  it("the provider's refusal: Failed with the provider's message; set back to Scheduled it is retried", async () => {
    postsvc.failPlatform('socialnet', 'Page token expired. Reconnect the page.');
    const record = newPost({ platform: 'Socialnet', content: 'Refused by the provider' });
    await settle();
    expect(crm.get('SocialPost', record.id)).toMatchObject({
      status: 'Failed',
      error: expect.stringContaining('Page token expired'),
    });
    postsvc.failPlatform('socialnet', null);
    crm.update('SocialPost', record.id, { status: 'Scheduled' });
    await settle();
    await eventually(() => crm.get('SocialPost', record.id)?.postsvcId, 5_000);
    expect(crm.get('SocialPost', record.id)?.status).toBe('Scheduled');
    // The refused attempt stays in the provider's history as an error; one post is scheduled.
    const attempts = postsvc.posts().filter((p) => p.post === 'Refused by the provider');
    expect(attempts.map((p) => p.status).sort()).toEqual(['error', 'scheduled']);
    expect(attempts[0]?.idempotencyKey).not.toBe(attempts[1]?.idempotencyKey);
  });

  it('a provider 503 is retried with backoff through the job queue, not answered as a failure', async () => {
    const before = creates();
    postsvc.faults.injectFault({
      method: 'POST',
      pathPrefix: '/post',
      status: 503,
      body: { status: 'error', code: 500, message: 'busy' },
      times: 1,
    });
    const record = newPost({ content: 'Retried after a 503' });
    await settle();
    await eventually(() => crm.get('SocialPost', record.id)?.postsvcId, 10_000);
    expect(crm.get('SocialPost', record.id)?.status).toBe('Scheduled');
    expect(livePosts().filter((p) => p.post === 'Retried after a 503')).toHaveLength(1);
    expect(creates() - before).toBe(2);
  });
});

describe('social-updated and social-deleted', () => {
  it('back to Draft cancels the provider post and clears postsvcId; nothing more on the echo', async () => {
    const record = newPost({ content: 'To be cancelled' });
    await settle();
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId as string;
    const deletesBefore = deletes();
    crm.update('SocialPost', record.id, { status: 'Draft' });
    await settle();
    expect(crm.get('SocialPost', record.id)).toMatchObject({ status: 'Draft', postsvcId: null });
    expect(postsvc.posts().find((p) => p.id === postsvcId)?.status).toBe('deleted');
    expect(deletes() - deletesBefore).toBe(1);
  });

  it('changed content while Scheduled: cancel and reschedule, one live post', async () => {
    const record = newPost({ content: 'First wording' });
    await settle();
    const first = crm.get('SocialPost', record.id)!.postsvcId as string;
    crm.update('SocialPost', record.id, { content: 'Second wording' });
    await settle();
    const second = crm.get('SocialPost', record.id)!.postsvcId as string;
    expect(second).not.toBe(first);
    expect(postsvc.posts().find((p) => p.id === first)?.status).toBe('deleted');
    expect(postsvc.posts().find((p) => p.id === second)).toMatchObject({
      post: 'Second wording',
      status: 'scheduled',
    });
    // An unrelated change does nothing at the provider.
    const callsBefore = creates() + deletes();
    crm.update('SocialPost', record.id, { name: 'Renamed' });
    await settle();
    expect(creates() + deletes()).toBe(callsBefore);
  });

  it('an API cancel while a reschedule is creating the new post: no live post is left for the record', async () => {
    const record = newPost({ content: 'Race: first wording' });
    await settle();
    const first = crm.get('SocialPost', record.id)!.postsvcId as string;
    expect(first).toEqual(expect.any(String));
    // The reschedule cancels the first post, then its create is held at the provider for 500 ms.
    postsvc.faults.injectFault({ method: 'POST', pathPrefix: '/post', delayMs: 500, times: 1 });
    const createsBefore = creates();
    crm.update('SocialPost', record.id, { content: 'Race: second wording' });
    const delivering = crm.flushWebhooks();
    await eventually(() => creates() > createsBefore);
    expect(postsvc.posts().find((p) => p.id === first)?.status).toBe('deleted');

    // The operator cancels the post they see on the record, while the replacement is being created.
    const cancel = await bridge.call('POST', '/postsvc/delete', { body: { id: first } });
    await delivering;
    await settle();

    expect(cancel.status).toBe(200);
    expect(cancel.body.message).toContain('Draft');
    expect(livePosts().filter((p) => p.post.startsWith('Race:'))).toEqual([]);
    expect(crm.get('SocialPost', record.id)).toMatchObject({ status: 'Draft', postsvcId: null });
    expect(creates() - createsBefore).toBe(1);
  });

  it('a stale update (says Scheduled, the record is Draft now) is skipped', async () => {
    const record = newPost({ status: 'Draft', content: 'Stale one' });
    await settle();
    const before = creates();
    const stale = await deliver('social-updated', JSON.stringify([{ id: record.id, status: 'Scheduled' }]));
    expect(stale.body).toMatchObject({
      results: [{ success: true, skipped: true, reason: expect.stringContaining('stale') }],
    });
    expect(creates()).toBe(before);
  });

  it('Draft → Scheduled schedules it like social-created', async () => {
    const record = newPost({ status: 'Draft', content: 'Later promoted' });
    await settle();
    crm.update('SocialPost', record.id, { status: 'Scheduled' });
    await settle();
    expect(crm.get('SocialPost', record.id)?.postsvcId).toEqual(expect.any(String));
    expect(livePosts().filter((p) => p.post === 'Later promoted')).toHaveLength(1);
  });

  it('deleted: the post to cancel comes from the ledger', async () => {
    const record = newPost({ content: 'Deleted in the CRM' });
    await settle();
    const postsvcId = crm.get('SocialPost', record.id)!.postsvcId as string;
    crm.remove('SocialPost', record.id);
    await settle();
    expect(postsvc.posts().find((p) => p.id === postsvcId)?.status).toBe('deleted');
    const delivery = crm
      .deliveries()
      .find((d) => d.event === 'social-deleted' && d.body.includes(record.id))!;
    expect(delivery.status).toBe(200);
  });
});
