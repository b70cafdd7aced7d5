import { describe, expect, it } from 'vitest';
import { decide, type DecideInput } from '../../../main/areas/posting/decide.js';
import { draftOf, type Draft } from '../../../main/areas/posting/draft.js';
import type { SocialPostRecord } from '../../../main/areas/posting/social-post-record.js';
import type { LedgerRow } from '../../../main/areas/posting/repo.js';

/**
 * The decision of "bring SocialPost <id> in line" (issue #36.2): a pure function of the record as
 * it is now, its ledger row and the time. One case per row of DESIGN §6.2, §6.3 and §6.9.
 */

const NOW = new Date('2026-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const GRACE = 15 * 60_000;

function record(overrides: Partial<SocialPostRecord> = {}): SocialPostRecord {
  return {
    id: 'sp1',
    name: 'Episode 12 promo',
    status: 'Scheduled',
    content: 'Episode 12 is out https://studio.example/12',
    platform: 'Microblog',
    mediaUrl: null,
    scheduledAt: at(24 * 60),
    postsvcId: null,
    error: null,
    ...overrides,
  };
}

/** The draft as the rules would leave it: no problem but its own unless said. */
function draft(of: SocialPostRecord, problem?: Draft['problem']): Draft {
  const built = draftOf(of);
  return { ...built, problem: problem === undefined ? built.problem : problem, warnings: [] };
}

/** The ledger row of `of` as it was sent (posted, scheduled at the provider), then `overrides`. */
function row(of: SocialPostRecord, overrides: Partial<LedgerRow> = {}): LedgerRow {
  const sent = draftOf(of);
  return {
    id: 7,
    social_post_id: of.id,
    active: 1,
    source: 'crm',
    idempotency_key: `${of.id}:${sent.contentHash}`,
    content_hash: sent.contentHash!,
    body_hash: sent.bodyHash,
    state: 'posted',
    claim_token: null,
    attempts: 1,
    post: sent.outgoing!.post,
    platforms: sent.outgoing!.platforms,
    media_urls: [...sent.outgoing!.mediaUrls],
    schedule_date: sent.outgoing!.scheduleDate,
    publish_at: sent.outgoing!.scheduleDate,
    quota_day: NOW.toISOString().slice(0, 10),
    postsvc_id: 'P1',
    provider_status: 'scheduled',
    published_at: null,
    error: null,
    error_code: null,
    refused: 0,
    claimed_at: at(-60),
    created_at: at(-60),
    updated_at: at(-60),
    platform_states: {
      microblog: { status: 'scheduled', error: null, postId: null },
    },
    retry_of: null,
    confirm_at: null,
    confirm_until: null,
    live_hold: null,
    moving_to: null,
    content_production_id: null,
    clip_id: null,
    ...overrides,
  };
}

function input(
  now: SocialPostRecord | null,
  ledger: LedgerRow | undefined,
  more: Partial<DecideInput> = {},
): DecideInput {
  return {
    record: now,
    row: ledger,
    recordPost: now?.postsvcId && ledger?.postsvc_id === now.postsvcId ? ledger : undefined,
    draft: now?.status === 'Scheduled' ? draft(now) : null,
    now: NOW,
    plan: 'business',
    lateGraceMs: GRACE,
    trigger: 'webhook',
    attempt: 1,
    ...more,
  };
}

const live = {
  microblog: { status: 'published' as const, error: null, postId: 'x', postUrl: 'https://mb/x' },
};

describe('DESIGN §6.2: no double posts', () => {
  it('a Scheduled record with no ledger row is sent', () => {
    expect(decide(input(record(), undefined))).toEqual({ kind: 'send', reclaim: false, lateMinutes: null });
  });

  it('a second delivery finds the row: nothing is sent; the record gets the stored postsvcId if it lacks it', () => {
    const sent = record();
    expect(decide(input(sent, row(sent)))).toEqual({ kind: 'write-id', postsvcId: 'P1' });
    const told = record({ postsvcId: 'P1' });
    expect(decide(input(told, row(told)))).toMatchObject({
      kind: 'nothing',
      reason: 'already scheduled at the provider',
    });
  });

  it('a create whose outcome is unknown (or in flight, or a move not settled) is settled before anything else', () => {
    const sent = record();
    for (const state of ['claimed', 'unknown'] as const)
      expect(decide(input(sent, row(sent, { state, postsvc_id: null })))).toEqual({ kind: 'settle-first' });
    expect(decide(input(sent, row(sent, { moving_to: at(30 * 60) })))).toEqual({ kind: 'settle-first' });
    expect(decide(input(record({ status: 'Draft' }), row(sent, { state: 'unknown' })))).toEqual({
      kind: 'settle-first',
    });
    expect(decide(input(null, row(sent, { state: 'claimed' })))).toEqual({ kind: 'settle-first' });
  });

  it('a failed create the provider never saw is sent again with the same key; one it refused, under a new one', () => {
    const sent = record();
    expect(decide(input(sent, row(sent, { state: 'failed', postsvc_id: null })))).toEqual({
      kind: 'send',
      reclaim: true,
      lateMinutes: null,
    });
    expect(decide(input(sent, row(sent, { state: 'failed', refused: 1, postsvc_id: null })))).toEqual({
      kind: 'send',
      reclaim: false,
      lateMinutes: null,
    });
  });

  it('a post that breaks a rule (length, media, date bounds) fails on the record with the rule, nothing sent', () => {
    const tooLong = record({ content: 'x'.repeat(300) });
    const problem = { message: 'content: 300 characters, microblog allows 280', code: 'VALIDATION_ERROR' };
    expect(decide(input(tooLong, undefined, { draft: draft(tooLong, problem) }))).toEqual({
      kind: 'fail',
      message: problem.message,
      code: 'VALIDATION_ERROR',
    });
    expect(decide(input(record({ platform: 'Fax' }), undefined))).toMatchObject({
      kind: 'fail',
      message: 'platform: "Fax" is not a platform the provider knows',
    });
    expect(decide(input(record({ scheduledAt: null }), undefined))).toMatchObject({
      kind: 'fail',
      message: 'scheduledAt: required for a Scheduled post',
    });
  });
});

describe('DESIGN §6.3: SocialPost updates', () => {
  it('social-deleted: the record is gone, the post to cancel comes from the ledger', () => {
    const sent = record();
    expect(decide(input(null, row(sent)))).toEqual({ kind: 'cancel', why: 'deleted' });
    expect(decide(input(null, undefined))).toMatchObject({ kind: 'nothing' });
    expect(decide(input(null, row(sent, { state: 'cancelled' })))).toMatchObject({ kind: 'nothing' });
  });

  it('→ Draft with a postsvcId: cancel at the provider, clear postsvcId', () => {
    const sent = record({ postsvcId: 'P1' });
    expect(decide(input({ ...sent, status: 'Draft' }, row(sent)))).toEqual({
      kind: 'cancel',
      why: 'draft',
      row: true,
      otherId: null,
      clearRecordId: true,
    });
  });

  it('→ Draft naming a post the row does not hold: that post is cancelled too; one already cancelled is only cleared', () => {
    const drafted = record({ status: 'Draft', postsvcId: 'ELSEWHERE' });
    expect(decide(input(drafted, undefined))).toEqual({
      kind: 'cancel',
      why: 'draft',
      row: false,
      otherId: 'ELSEWHERE',
      clearRecordId: true,
    });
    const cancelled = row(record(), { state: 'cancelled', postsvc_id: 'ELSEWHERE' });
    expect(decide(input(drafted, cancelled, { recordPost: cancelled }))).toEqual({
      kind: 'cancel',
      why: 'draft',
      row: false,
      otherId: null,
      clearRecordId: true,
    });
    expect(decide(input(record({ status: 'Draft' }), undefined))).toEqual({
      kind: 'nothing',
      reason: 'nothing at the provider to cancel',
    });
  });

  it('Draft → Scheduled: scheduled as social-created does (a cancelled row makes way for a new generation)', () => {
    const sent = record();
    expect(decide(input(sent, row(sent, { state: 'cancelled' })))).toEqual({
      kind: 'send',
      reclaim: false,
      lateMinutes: null,
    });
  });

  it('Scheduled with changed content, media or platform: cancel and reschedule', () => {
    const sent = record();
    for (const change of [
      { content: 'New wording' },
      { mediaUrl: 'https://cdn.example/new.png' },
      { platform: 'Socialnet' },
    ]) {
      expect(decide(input({ ...sent, ...change }, row(sent)))).toEqual({
        kind: 'replace',
        then: { kind: 'send', reclaim: false, lateMinutes: null },
      });
    }
  });

  it('Scheduled with only scheduledAt changed, premium or business: a move in place (PATCH)', () => {
    const sent = record();
    const moved = { ...sent, scheduledAt: at(30 * 60) };
    for (const plan of ['premium', 'business'] as const)
      expect(decide(input(moved, row(sent), { plan }))).toEqual({ kind: 'move', to: at(30 * 60) });
  });

  it('the same move on the free plan is cancel + create', () => {
    const sent = record();
    expect(decide(input({ ...sent, scheduledAt: at(30 * 60) }, row(sent), { plan: 'free' }))).toEqual({
      kind: 'replace',
      then: { kind: 'send', reclaim: false, lateMinutes: null },
    });
  });

  it('never a PATCH to a time under now + 2 min: such a move is cancel + create (a time past: the late rule)', () => {
    const sent = record();
    expect(decide(input({ ...sent, scheduledAt: at(1) }, row(sent)))).toEqual({
      kind: 'replace',
      then: { kind: 'send', reclaim: false, lateMinutes: null },
    });
    expect(decide(input({ ...sent, scheduledAt: at(-5) }, row(sent)))).toEqual({
      kind: 'replace',
      then: { kind: 'send', reclaim: false, lateMinutes: 5 },
    });
    expect(decide(input({ ...sent, scheduledAt: at(-40) }, row(sent)))).toMatchObject({
      kind: 'replace',
      then: { kind: 'fail', code: 'INVALID_DATE' },
    });
    // Two minutes ahead exactly is far enough.
    expect(decide(input({ ...sent, scheduledAt: at(2) }, row(sent)))).toEqual({ kind: 'move', to: at(2) });
  });

  it('a post under 2 min from its time, or past it, is read first and not moved', () => {
    const soon = record({ scheduledAt: at(1) });
    expect(decide(input({ ...soon, scheduledAt: at(60) }, row(soon)))).toEqual({ kind: 'read-first' });
    const due = record({ scheduledAt: at(-3) });
    expect(decide(input({ ...due, scheduledAt: at(60) }, row(due)))).toEqual({ kind: 'read-first' });
  });

  it('anything else changes nothing at the provider', () => {
    const sent = record({ postsvcId: 'P1' });
    expect(decide(input({ ...sent, name: 'Renamed' }, row(sent)))).toMatchObject({ kind: 'nothing' });
    for (const status of ['Failed', 'Published', ''])
      expect(decide(input({ ...sent, status }, row(sent)))).toMatchObject({ kind: 'nothing' });
  });
});

describe('DESIGN §6.9: keeping up with the world', () => {
  it('state-driven: the same content and time is nothing, whichever way the record came (webhook, retry, catch-up)', () => {
    const sent = record({ postsvcId: 'P1' });
    for (const trigger of ['webhook', 'retry', 'catch-up', 'dashboard'] as const)
      expect(decide(input(sent, row(sent), { trigger }))).toMatchObject({ kind: 'nothing' });
  });

  it('a late post that never reached the provider goes out now within the grace, not later than it', () => {
    const late = record({ scheduledAt: at(-10) });
    expect(decide(input(late, undefined))).toEqual({ kind: 'send', reclaim: false, lateMinutes: 10 });
    const tooLate = record({ scheduledAt: at(-40) });
    expect(decide(input(tooLate, undefined, { trigger: 'catch-up' }))).toEqual({
      kind: 'fail',
      code: 'INVALID_DATE',
      message: expect.stringMatching(
        /^not posted: 40 min past its time \(2026-06-01 11:20 UTC\) when the bridge caught up with the CRM after being away; more than 15 min late/,
      ),
    });
    expect(decide(input(tooLate, undefined, { trigger: 'retry', attempt: 4 }))).toMatchObject({
      message: expect.stringContaining('at try 4: the provider kept failing until then'),
    });
  });

  it('a post the provider already holds is never re-sent for being late (its hash keeps the record’s time)', () => {
    const late = record({ scheduledAt: at(-10) });
    const sentNow = row(late, {
      schedule_date: null,
      publish_at: at(-1),
      provider_status: 'published',
      platform_states: live,
    });
    expect(decide(input(late, sentNow))).not.toMatchObject({ kind: 'send' });
    const scheduled = record({ scheduledAt: at(-10), postsvcId: 'P1' });
    expect(decide(input(scheduled, row(scheduled)))).toMatchObject({ kind: 'nothing' });
  });

  it('a record naming a provider post this bridge never scheduled is not scheduled again', () => {
    expect(decide(input(record({ postsvcId: 'NOT-OURS' }), undefined))).toMatchObject({
      kind: 'nothing',
      reason: 'postsvcId NOT-OURS was not scheduled by this bridge: not scheduling it again',
    });
  });

  it('a live post whose record went back to Scheduled (edited or not) waits for the operator', () => {
    const sent = record({ postsvcId: 'P1' });
    const out = row(sent, { provider_status: 'published', platform_states: live });
    expect(decide(input(sent, out))).toEqual({ kind: 'wait-for-operator' });
    expect(decide(input({ ...sent, content: 'Edited' }, out))).toEqual({ kind: 'wait-for-operator' });
    expect(decide(input({ ...sent, scheduledAt: at(90) }, out))).toEqual({ kind: 'wait-for-operator' });
    // The mark holds it on every path, also once the ledger no longer says published.
    expect(decide(input(sent, row(sent, { live_hold: 'waiting-operator' })))).toEqual({
      kind: 'wait-for-operator',
    });
  });

  it('Draft or deleted with a live post: the one live-safe cancel (it keeps what is out)', () => {
    const sent = record({ postsvcId: 'P1' });
    const out = row(sent, { provider_status: 'published', platform_states: live });
    expect(decide(input({ ...sent, status: 'Draft' }, out))).toMatchObject({
      kind: 'cancel',
      why: 'draft',
      row: true,
    });
    expect(decide(input(null, out))).toEqual({ kind: 'cancel', why: 'deleted' });
    expect(
      decide(input(null, row(sent, { live_hold: 'crm-deleted', ...{ provider_status: 'published' } }))),
    ).toEqual({
      kind: 'nothing',
      reason: 'CRM record deleted, still live: kept for the operator',
    });
  });

  it('the operator marking a held live post Published again lifts the hold', () => {
    const sent = record({ postsvcId: 'P1' });
    expect(
      decide(input({ ...sent, status: 'Published' }, row(sent, { live_hold: 'waiting-operator' }))),
    ).toEqual({
      kind: 'lift-hold',
    });
  });

  it('a post the provider no longer has (gone, 186) is not live: set back to Scheduled it is sent anew', () => {
    const sent = record({ postsvcId: 'P1' });
    expect(decide(input(sent, row(sent, { provider_status: 'deleted' })))).toEqual({
      kind: 'send',
      reclaim: false,
      lateMinutes: null,
    });
  });
});
