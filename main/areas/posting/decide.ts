import type { PostsvcPlan } from '../../config/config.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import type { Draft } from './draft.js';
import { bodyHash } from './keys.js';
import { judgeLateness, type PostTrigger } from './late-posts.js';
import { knownLive } from './live-state.js';
import type { LedgerRow } from './repo.js';
import type { SocialPostRecord } from './social-post-record.js';

/**
 * "Bring SocialPost <id> in line", decided once (issue #36.2): a pure function of the record as
 * it is now, its ledger row and the time (DESIGN §6.2, §6.3, §6.9). The record's job carries the
 * decision out through the posting engine; nothing here calls anything.
 */

/** Closer to its time than this (or past it), a post may already be out: it is read, never moved. */
export const MOVE_MARGIN_MS = 2 * 60_000;

export interface DecideInput {
  /** The record as the CRM has it now; null when it is gone (404). */
  record: SocialPostRecord | null;
  /** Its active ledger row. */
  row: LedgerRow | undefined;
  /** The ledger row holding the record's postsvcId, if the bridge scheduled that post. */
  recordPost: LedgerRow | undefined;
  /** The record's post and the rules' verdict; null unless the record is Scheduled. */
  draft: Draft | null;
  now: Date;
  plan: PostsvcPlan;
  /** LATE_POST_GRACE_MINUTES in ms. */
  lateGraceMs: number;
  /** What brought the bridge here: a too-late post's reason names it. */
  trigger: PostTrigger;
  attempt: number;
}

/** After a cancel, or on its own: a create, a failure written onto the record, or nothing. */
export type Then =
  /** `reclaim`: the failed row is sent again under its own key; `lateMinutes`: published now, that late. */
  | { kind: 'send'; reclaim: boolean; lateMinutes: number | null }
  | { kind: 'fail'; message: string; code: string }
  /** `postsvcId`: the provider post that already does what the record asks. */
  | { kind: 'nothing'; reason: string; postsvcId?: string };

export type Decision =
  | Then
  /** A create in flight, an unknown outcome or a move not settled: settle it before anything else. */
  | { kind: 'settle-first' }
  /** Already scheduled; the record lacks the provider's id. */
  | { kind: 'write-id'; postsvcId: string }
  /** The operator marked the held live post Published again. */
  | { kind: 'lift-hold' }
  /** A live post whose record went back to Scheduled: nothing sent, cancelled or written. */
  | { kind: 'wait-for-operator' }
  /** The record went to Draft, or is gone: the one live-safe cancel. */
  | { kind: 'cancel'; why: 'deleted' }
  | { kind: 'cancel'; why: 'draft'; row: boolean; otherId: string | null; clearRecordId: boolean }
  /** Time-only change on a plan that moves in place: PATCH to `to`. */
  | { kind: 'move'; to: string }
  /** Time-only change of a post under 2 min from its time or past it: read it, do not move it. */
  | { kind: 'read-first' }
  /** Content changed (or a move the plan or the time does not allow): cancel, then `then`. */
  | { kind: 'replace'; then: Then };

const nothing = (reason: string): Decision => ({ kind: 'nothing', reason });

export function decide(input: DecideInput): Decision {
  const { record, row } = input;
  if (row && (row.state === 'claimed' || row.state === 'unknown' || row.moving_to !== null))
    return { kind: 'settle-first' };
  if (!record) return whenGone(row);
  switch (record.status) {
    case 'Scheduled':
      return whenScheduled(input, record);
    case 'Draft':
      return whenDraft(input, record);
    case 'Published':
      return row?.live_hold
        ? { kind: 'lift-hold' }
        : nothing('status Published: nothing to do at the provider');
    default:
      return nothing(`status ${record.status || 'empty'}: nothing to do at the provider`);
  }
}

/** A live post: out on a platform by the ledger's own knowledge. */
const isOut = (row: LedgerRow) => knownLive(row).length > 0;
/** A post the provider holds (scheduled or out), that a cancel would act on. */
const holdsPost = (row: LedgerRow | undefined): row is LedgerRow =>
  row?.state === 'posted' && row.postsvc_id !== null && row.provider_status !== 'deleted';

function whenGone(row: LedgerRow | undefined): Decision {
  if (!row || row.state !== 'posted' || !row.postsvc_id)
    return nothing('no provider post for it in the ledger');
  if (row.live_hold === 'crm-deleted')
    return nothing('CRM record deleted, still live: kept for the operator');
  return { kind: 'cancel', why: 'deleted' };
}

function whenDraft(input: DecideInput, record: SocialPostRecord): Decision {
  const { row, recordPost } = input;
  const rowPost = row?.state === 'posted' && row.postsvc_id !== null;
  const other =
    record.postsvcId !== null &&
    record.postsvcId !== (rowPost ? row.postsvc_id : null) &&
    recordPost?.state !== 'cancelled'
      ? record.postsvcId
      : null;
  if (!rowPost && other === null && record.postsvcId === null)
    return nothing('nothing at the provider to cancel');
  return {
    kind: 'cancel',
    why: 'draft',
    row: rowPost,
    otherId: other,
    clearRecordId: record.postsvcId !== null,
  };
}

function whenScheduled(input: DecideInput, record: SocialPostRecord): Decision {
  const { row, draft, now } = input;
  if (row?.state === 'posted' && (row.live_hold === 'waiting-operator' || isOut(row)))
    return { kind: 'wait-for-operator' };
  let replaces = false;
  if (holdsPost(row) && draft) {
    if (draft.contentHash !== null && draft.contentHash === row.content_hash)
      return record.postsvcId === row.postsvc_id
        ? { kind: 'nothing', reason: 'already scheduled at the provider', postsvcId: row.postsvc_id! }
        : { kind: 'write-id', postsvcId: row.postsvc_id! };
    if (draft.outgoing && draft.bodyHash === (row.body_hash ?? bodyHashOfRow(row))) {
      const time = timeChange(row, draft.outgoing.scheduleDate, now, input.plan);
      if (time !== 'replace' && !draft.problem) return time;
    }
    replaces = true;
  }
  const then = afterCancel(input, record);
  return replaces ? { kind: 'replace', then } : then;
}

/**
 * What a new time asks of a post the provider holds (issue #36.3): under 2 min from its time, or
 * past it, it is read and not moved; on premium and business it is moved in place when the new
 * time is at least 2 min ahead; anything else is a cancel and a create (free plan: no PATCH).
 */
export function timeChange(
  row: Pick<LedgerRow, 'schedule_date' | 'publish_at'>,
  to: string,
  now: Date,
  plan: PostsvcPlan,
): { kind: 'move'; to: string } | { kind: 'read-first' } | 'replace' {
  const from = Date.parse(row.schedule_date ?? row.publish_at);
  if (from - now.getTime() < MOVE_MARGIN_MS) return { kind: 'read-first' };
  if (plan !== 'free' && Date.parse(to) - now.getTime() >= MOVE_MARGIN_MS) return { kind: 'move', to };
  return 'replace';
}

/** No post at the provider (or the old one is being cancelled): send, fail in words, or leave it. */
function afterCancel(input: DecideInput, record: SocialPostRecord): Then {
  const { row, draft, now } = input;
  if (record.postsvcId && !input.recordPost)
    return {
      kind: 'nothing',
      reason: `postsvcId ${record.postsvcId} was not scheduled by this bridge: not scheduling it again`,
    };
  if (!draft?.outgoing || draft.contentHash === null)
    return {
      kind: 'fail',
      message: draft?.problem?.message ?? 'not a valid post',
      code: draft?.problem?.code ?? 'VALIDATION_ERROR',
    };
  // A date out of bounds (before 2000, years ahead) is refused by its own rule, not judged late.
  const lateness = dateBoundIssue('scheduledAt', draft.outgoing.scheduleDate, now)
    ? ({ kind: 'on-time' } as const)
    : judgeLateness({
        scheduledAt: draft.outgoing.scheduleDate,
        now,
        graceMs: input.lateGraceMs,
        trigger: input.trigger,
        attempt: input.attempt,
      });
  if (lateness.kind === 'too-late') return { kind: 'fail', message: lateness.message, code: 'INVALID_DATE' };
  if (draft.problem) return { kind: 'fail', ...draft.problem };
  const late = lateness.kind === 'late' ? lateness.minutesLate : null;
  const sendsAt = late === null ? draft.outgoing.scheduleDate : null;
  const reclaim =
    row?.state === 'failed' &&
    row.content_hash === draft.contentHash &&
    !row.refused &&
    row.schedule_date === sendsAt;
  return { kind: 'send', reclaim, lateMinutes: late };
}

function bodyHashOfRow(row: LedgerRow): string {
  return bodyHash({ post: row.post, platforms: row.platforms, mediaUrls: row.media_urls });
}
