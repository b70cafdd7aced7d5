import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { toCrmDatetime } from '../../../main/sandbox/index.js';
import { eventually, type TestBridge } from '../../support/bridge.js';
import { ledgerMoveOf } from '../../support/ledger.js';
import { withPostingPeers } from '../../support/posting-bridge.js';
import { webhooksQuiet } from '../../support/settle.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * Issue #36.3: a move is a move where the provider allows it. On the business plan a time-only
 * change (the calendar's drag, an Edit with the same text, a CRM `scheduledAt` change) moves the
 * provider post in place with PATCH /post: the same post, its ledger row and key, no cancel, no
 * new post, no quota. Never to a time under now + 2 min; a post under 2 min from its time, or past
 * it, is read first and not moved; a PATCH refused because the post is out is never followed by a
 * cancel or a create; a move left half-done by a crash (`moving_to`) is settled from GET /post/{id}.
 * The bridge, the CRM and the provider share one test clock (the provider's may run ahead).
 */

const SECRET = 'move-in-place-secret';
let clock = Date.now();
/** How far the provider's clock runs ahead of the bridge's (a skewed provider). */
let skew = 0;
const now = () => new Date(clock);
const data = tempDir('move-in-place');
// Registered before the peers: after-hooks run in reverse, so the dir outlives the bridge.
afterAll(() => data.remove());
const peers = await withPostingPeers({
  secret: SECRET,
  crm: { now },
  postsvc: { now: () => new Date(clock + skew) },
});
const { crm, postsvc } = peers;
let bridge: TestBridge;

async function startBridge() {
  bridge = await peers.startBridge({ dataDir: data.path, now, webhooks: { ids: 'wh-move-in-place' } });
}
await startBridge();

afterEach(() => {
  skew = 0;
  postsvc.faults.clearFaults();
});

/** A whole minute `minutes` from the test clock, ISO. */
const inMinutes = (minutes: number) => {
  const at = new Date(clock + minutes * 60_000);
  at.setUTCSeconds(0, 0);
  return at.toISOString();
};
const calls = () => ({
  creates: postsvc.callCount('/post', 'POST'),
  deletes: postsvc.callCount('/post', 'DELETE'),
  patches: postsvc.callCount('/post', 'PATCH'),
});
const quotaUsed = async () => (await bridge.call('GET', '/api/posts/quota')).body.quota.used as number;
const providerPost = (id: string) => postsvc.posts().find((post) => post.id === id);
const reschedule = (body: Record<string, unknown>) => bridge.call('POST', '/api/posts/reschedule', { body });

async function viewOf(match: (view: { post: string; socialPostId: string | null }) => boolean) {
  const list = await bridge.call('GET', '/api/posts');
  return (
    list.body.data as { post: string; socialPostId: string | null; ledgerId: number; publishAt: string }[]
  ).find(match);
}

async function crmPost(name: string, minutes: number) {
  const record = crm.create('SocialPost', {
    name,
    content: `${name}: the new episode is out https://studio.example/${encodeURIComponent(name)}`,
    platform: 'Microblog',
    status: 'Scheduled',
    scheduledAt: toCrmDatetime(new Date(inMinutes(minutes))),
  });
  const postsvcId = await eventually(() => crm.get('SocialPost', record.id)?.postsvcId as string | undefined);
  await webhooksQuiet(crm);
  return { id: record.id, postsvcId, content: String(record.content) };
}

describe('a time-only move on the business plan is PATCH /post: no cancel, no new post, no quota', () => {
  it('a dashboard post dragged on the calendar keeps its provider post, moved in place', async () => {
    const text = 'Dragged in place';
    const sent = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: text, platforms: ['socialnet'], scheduleDate: inMinutes(20 * 60) },
    });
    expect(sent.status).toBe(200);
    const view = await viewOf((v) => v.post === text);
    const before = calls();
    const used = await quotaUsed();

    const to = inMinutes(26 * 60);
    const moved = await reschedule({ ledgerId: view!.ledgerId, post: text, scheduleDate: to });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'scheduled', postsvcId: sent.body.id, how: 'moved-in-place' });
    expect(moved.body.message).toMatch(/moved in place/);
    expect(calls()).toEqual({ ...before, patches: before.patches + 1 });
    expect(postsvc.posts().filter((p) => p.post === text)).toEqual([
      expect.objectContaining({ id: sent.body.id, status: 'scheduled', scheduleDate: to }),
    ]);
    expect(await quotaUsed()).toBe(used);
    expect(await viewOf((v) => v.post === text)).toMatchObject({ ledgerId: view!.ledgerId, publishAt: to });
  });

  it('a CRM post moved from the dashboard: only {scheduledAt} is written to the record; the answer says its time after the job', async () => {
    const post = await crmPost('Moved from the Edit dialog', 22 * 60);
    const before = calls();
    const deliveriesBefore = crm.deliveries().length;
    const to = inMinutes(28 * 60);
    const moved = await reschedule({ socialPostId: post.id, post: post.content, scheduleDate: to });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      status: 'scheduled',
      postsvcId: post.postsvcId,
      how: 'moved-in-place',
      scheduledAt: to,
    });
    await webhooksQuiet(crm);
    expect(calls()).toEqual({ ...before, patches: before.patches + 1 });
    expect(crm.get('SocialPost', post.id)).toMatchObject({
      scheduledAt: toCrmDatetime(new Date(to)),
      postsvcId: post.postsvcId,
      status: 'Scheduled',
    });
    expect(providerPost(post.postsvcId)).toMatchObject({ status: 'scheduled', scheduleDate: to });
    // The CRM's echo of the bridge's write: the record's time and nothing else changed.
    const echoed = crm
      .deliveries()
      .slice(deliveriesBefore)
      .filter((d) => d.event === 'social-updated')
      .flatMap((d) => JSON.parse(d.body) as Record<string, unknown>[])
      .filter((item) => item.id === post.id);
    expect(echoed.map((item) => Object.keys(item).sort())).toEqual([['id', 'scheduledAt']]);
  });

  it('a scheduledAt changed in the CRM is read as a move by the webhook: the same post and ledger row', async () => {
    const post = await crmPost('Moved in the CRM', 30 * 60);
    const row = await viewOf((v) => v.socialPostId === post.id);
    const before = calls();
    const to = inMinutes(31 * 60);
    crm.update('SocialPost', post.id, { scheduledAt: toCrmDatetime(new Date(to)) });
    await webhooksQuiet(crm);
    await eventually(() => providerPost(post.postsvcId)?.scheduleDate === to);
    expect(calls()).toEqual({ ...before, patches: before.patches + 1 });
    expect(crm.get('SocialPost', post.id)).toMatchObject({ postsvcId: post.postsvcId, status: 'Scheduled' });
    expect(await viewOf((v) => v.socialPostId === post.id)).toMatchObject({ ledgerId: row!.ledgerId });
  });
});

describe('a change said before it is made (POST /api/posts/reschedule-preview)', () => {
  it('a time-only change is a move in place (no quota); new text is a cancel and a create (one post); nothing is sent', async () => {
    const text = 'Previewed first';
    const sent = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: text, platforms: ['socialnet'], scheduleDate: inMinutes(70 * 60) },
    });
    const view = await viewOf((v) => v.post === text);
    const before = calls();
    const preview = (body: Record<string, unknown>) =>
      bridge.call('POST', '/api/posts/reschedule-preview', { body });
    const move = await preview({ ledgerId: view!.ledgerId, post: text, scheduleDate: inMinutes(72 * 60) });
    expect(move.status).toBe(200);
    expect(move.body).toMatchObject({ how: 'moved-in-place', quotaCost: 0, errors: [] });
    const edit = await preview({
      ledgerId: view!.ledgerId,
      post: 'Previewed, reworded',
      scheduleDate: inMinutes(72 * 60),
    });
    expect(edit.body).toMatchObject({ how: 'cancelled-and-created', quotaCost: 1 });
    const tooClose = await preview({ ledgerId: view!.ledgerId, post: text, scheduleDate: inMinutes(1) });
    expect(tooClose.body).toMatchObject({ how: 'not-moved', quotaCost: 0 });
    expect(calls()).toEqual(before);
    expect(providerPost(sent.body.id)).toMatchObject({
      status: 'scheduled',
      scheduleDate: inMinutes(70 * 60),
    });
  });
});

describe('what is not moved', () => {
  it('a post under 2 min from its time is read first and not moved ("due now"); one already out is 409 ALREADY_PUBLISHED', async () => {
    const text = 'Nearly due';
    const at = inMinutes(30);
    const sent = await bridge.call('POST', '/postsvc/schedule', {
      body: { post: text, platforms: ['socialnet'], scheduleDate: at },
    });
    const view = await viewOf((v) => v.post === text);
    const before = calls();

    clock = Date.parse(at) - 60_000;
    const due = await reschedule({ ledgerId: view!.ledgerId, post: text, scheduleDate: inMinutes(120) });
    expect(due.status).toBe(409);
    expect(due.body.error).toMatch(/due now.*not moved/);
    expect(providerPost(sent.body.id)).toMatchObject({ status: 'scheduled', scheduleDate: at });

    clock = Date.parse(at) + 5_000;
    const out = await reschedule({ ledgerId: view!.ledgerId, post: text, scheduleDate: inMinutes(120) });
    expect(out.status).toBe(409);
    expect(out.body).toMatchObject({ code: 'ALREADY_PUBLISHED', details: { platforms: ['socialnet'] } });
    expect(providerPost(sent.body.id)?.status).toBe('success');
    expect(calls()).toEqual(before);
  });

  it('a PATCH refused because the post is already out is never followed by a cancel or a create', async () => {
    const post = await crmPost('Out by the provider’s clock', 60);
    const before = calls();
    // The provider's clock is past the post's time: the post is out there, not by the bridge's clock.
    skew = 62 * 60_000;
    crm.update('SocialPost', post.id, { scheduledAt: toCrmDatetime(new Date(inMinutes(4 * 60))) });
    await webhooksQuiet(crm);
    await eventually(() => crm.get('SocialPost', post.id)?.status === 'Published');
    expect(calls()).toMatchObject({
      creates: before.creates,
      deletes: before.deletes,
      patches: before.patches + 1,
    });
    expect(providerPost(post.postsvcId)?.status).toBe('success');
    const warnings = await bridge.call('GET', '/api/activity?type=posting.still-live&limit=20');
    expect(warnings.body.data).toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/already live on microblog/) }),
    );
  });

  it('a post the provider no longer knows (404, code 186) is marked gone and the record Failed; nothing is re-created', async () => {
    const post = await crmPost('Gone at the provider', 5 * 60);
    const removed = await fetch(`${postsvc.url}/post`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${postsvc.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: post.postsvcId }),
    });
    expect(removed.status).toBe(200);
    const before = calls();
    crm.update('SocialPost', post.id, { scheduledAt: toCrmDatetime(new Date(inMinutes(7 * 60))) });
    await webhooksQuiet(crm);
    await eventually(() => crm.get('SocialPost', post.id)?.status === 'Failed');
    expect(String(crm.get('SocialPost', post.id)?.error)).toMatch(/no longer has/);
    expect(calls()).toEqual({ ...before, patches: before.patches + 1 });
  });
});

describe('a move left half-done by a crash (moving_to) is settled from GET /post/{id} at the next start', () => {
  /** Stops the bridge, moves the record in the CRM while it is away, and leaves the row as a crash mid-PATCH would. */
  async function crashMidMove(postsvcId: string, recordId: string, to: string) {
    await bridge.stop();
    crm.setReceiverAway(true);
    crm.update('SocialPost', recordId, { scheduledAt: toCrmDatetime(new Date(to)) });
    const db = new Database(path.join(data.path, 'bridge.sqlite'));
    try {
      db.prepare('UPDATE social_post_ledger SET moving_to = ? WHERE postsvc_id = ? AND active = 1').run(
        to,
        postsvcId,
      );
    } finally {
      db.close();
    }
  }
  const restart = async () => {
    crm.setReceiverAway(false);
    await startBridge();
  };
  const ledgerOf = (postsvcId: string) => ledgerMoveOf(data.path, postsvcId);

  it('the provider has the new date: the move is settled, nothing sent again', async () => {
    const post = await crmPost('Crashed after the PATCH', 40 * 60);
    const to = inMinutes(44 * 60);
    await crashMidMove(post.postsvcId, post.id, to);
    const applied = await fetch(`${postsvc.url}/post`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${postsvc.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: post.postsvcId, scheduleDate: to }),
    });
    expect(applied.status).toBe(200);
    const before = calls();
    await restart();
    await eventually(() => ledgerOf(post.postsvcId)?.moving_to === null);
    expect(ledgerOf(post.postsvcId)).toEqual({ schedule_date: to, moving_to: null });
    await webhooksQuiet(crm);
    expect(calls()).toEqual(before);
    expect(providerPost(post.postsvcId)).toMatchObject({ status: 'scheduled', scheduleDate: to });
  });

  it('the provider still has the old date and the target is ahead: PATCHed again', async () => {
    const post = await crmPost('Crashed before the PATCH', 50 * 60);
    const to = inMinutes(53 * 60);
    await crashMidMove(post.postsvcId, post.id, to);
    const before = calls();
    await restart();
    await eventually(() => ledgerOf(post.postsvcId)?.moving_to === null);
    expect(ledgerOf(post.postsvcId)).toEqual({ schedule_date: to, moving_to: null });
    expect(providerPost(post.postsvcId)).toMatchObject({ status: 'scheduled', scheduleDate: to });
    expect(calls()).toMatchObject({ creates: before.creates, deletes: before.deletes });
  });

  it('the old date and a target now under 2 min away: the move fails in words, the post stays where it was', async () => {
    const post = await crmPost('Crashed, target passed', 60 * 60);
    const from = providerPost(post.postsvcId)!.scheduleDate;
    await crashMidMove(post.postsvcId, post.id, inMinutes(1));
    const before = calls();
    await restart();
    await eventually(() => crm.get('SocialPost', post.id)?.status === 'Failed');
    expect(String(crm.get('SocialPost', post.id)?.error)).toMatch(/not moved/);
    expect(ledgerOf(post.postsvcId)?.moving_to).toBeNull();
    expect(providerPost(post.postsvcId)).toMatchObject({ status: 'scheduled', scheduleDate: from });
    expect(calls()).toMatchObject({ creates: before.creates, deletes: before.deletes });
  });
});
