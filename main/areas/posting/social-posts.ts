import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';
import { postRules } from './post-rules.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { PeerError } from '../../peers/peer-error.js';
import { PostsvcError, type PostsvcClient } from '../../peers/postsvc.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { contentHash, socialPostKey, type OutgoingPost } from './keys.js';
import { quotaMessage, type QuotaTracker } from './quota.js';
import { postsNear } from './spacing.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import { judgeLateness, type Lateness, type PostTrigger } from './late-posts.js';
import type { PostScheduler } from './scheduler.js';
import { named } from '../../kernel/activity/subjects.js';
import { crmPostSubject, crmPostWords, ledgerPostSubject, ledgerPostWords } from './post-subject.js';
import { knownLive, type LiveCancelOutcome, type LiveSafeCancel } from './live-cancel.js';

/**
 * Keeps the provider in line with the CRM's SocialPost records (spec §3.4, §6; DESIGN §6.3).
 * Every decision is made from the record as it is NOW (read before any side effect) and the
 * ledger — never from the webhook item, which is a stale, possibly sparse snapshot. That makes
 * each step idempotent and loop-safe: the CRM's echo of the bridge's own write-back finds the
 * record and the ledger in agreement and does nothing.
 */

export type SocialEvent = 'social-created' | 'social-updated' | 'social-deleted';

export interface RunContext {
  signal?: AbortSignal;
  /** No more attempts after this one: a retryable failure is written onto the record instead of retried. */
  lastAttempt: boolean;
  /** What brought the bridge here (a too-late post's reason names it); default webhook. */
  trigger?: PostTrigger;
  /** The job's attempt, for a retry. */
  attempt?: number;
}

/** A step that may succeed later (provider 429/5xx/unreachable, an unknown outcome not settled yet). */
export class RetryPosting extends Error {
  override name = 'RetryPosting';
  constructor(
    message: string,
    /** null: the queue's backoff decides. */
    readonly delayMs: number | null,
  ) {
    super(message);
  }
}

export interface SocialPostDeps {
  crm: CrmClient;
  client: PostsvcClient;
  scheduler: PostScheduler;
  repo: PostingRepo;
  activity: ActivityLog;
  quota: QuotaTracker;
  now: () => Date;
  /** LATE_POST_GRACE_MINUTES in ms (DESIGN §6.9). */
  lateGraceMs: number;
  /** The one cancel of every path: never deletes a live post (DESIGN §6.9). */
  liveCancel: LiveSafeCancel;
}

const ENTITY = 'SocialPost';

/**
 * A new record that is not Scheduled asks nothing of the provider, whatever it is now: a later
 * move to Scheduled comes as its own social-updated. So no CRM read (and no peer at all) for a
 * new Draft: its outcome is decided from the item alone (undefined: the item needs the peers).
 */
export function decideFromItem(event: SocialEvent, item: WebhookItem): ItemOutcome | undefined {
  if (event === 'social-created' && 'status' in item && item.status !== 'Scheduled')
    return skip(`status is ${text(item.status) || 'empty'}, not Scheduled: nothing sent`);
  return undefined;
}

export class SocialPostWorkflow {
  constructor(private readonly deps: SocialPostDeps) {}

  /** One webhook item, or a retry (`{id}` as a social-updated): does what the record's state asks. */
  async handle(event: SocialEvent, item: WebhookItem, run: RunContext): Promise<ItemOutcome> {
    const decided = decideFromItem(event, item);
    if (decided) return decided;
    const record = await this.deps.crm.find(ENTITY, item.id);
    if (event === 'social-deleted') {
      return record
        ? skip(`SocialPost ${item.id} exists again: not cancelling`)
        : this.onDeleted(item.id, run);
    }
    // Gone (its social-deleted may come later or has come): whatever the ledger still holds is cancelled.
    if (!record) return this.onDeleted(item.id, run);
    const status = text(record.status);
    if ('status' in item && item.status !== status) {
      return skip(`stale event: it says ${String(item.status)}, the record is now ${status}`);
    }
    if (status === 'Scheduled') return this.ensureScheduled(record, run);
    if (event === 'social-created')
      return skip(`status is ${status || 'empty'}, not Scheduled: nothing sent`);
    if (status === 'Draft') return this.ensureCancelled(record, run);
    // The operator settled a held live post by marking it Published again: the hold is lifted.
    const held = this.deps.repo.active(record.id);
    if (status === 'Published' && held?.live_hold) this.deps.repo.setLiveHold(held.id, null, this.deps.now());
    return skip(`status ${status}: nothing to do at the provider`);
  }

  /** Scheduled: exactly one live provider post with the record's current content and time. */
  private async ensureScheduled(record: CrmRecord, run: RunContext): Promise<ItemOutcome> {
    const { repo, scheduler } = this.deps;
    const id = record.id;
    let row = await this.settled(repo.active(id), run);
    // Judged at every provider call, retries included (DESIGN §6.9); a post the provider holds is never late.
    // A date out of bounds (before 2000, years ahead) is refused by its own rule, not judged late.
    const scheduledAt = text(record.scheduledAt);
    const lateness: Lateness = dateBoundIssue('scheduledAt', scheduledAt, this.deps.now())
      ? { kind: 'on-time' }
      : judgeLateness({
          scheduledAt,
          now: this.deps.now(),
          graceMs: this.deps.lateGraceMs,
          trigger: run.trigger ?? 'webhook',
          attempt: run.attempt ?? 1,
        });
    const draft = await this.draftOf(record, lateness.kind === 'late');
    // The hash covers the record's scheduledAt, also when a late post is sent for "now".
    const hash = draft.outgoing ? contentHash(draft.outgoing) : null;

    if (row?.state === 'posted' && (row.live_hold === 'waiting-operator' || knownLive(row).length > 0)) {
      // Published set back to Scheduled, edited or not (DESIGN §6.9): nothing is sent, cancelled
      // or written; the mark holds it for the operator on every path (webhooks, catch-up, late rule).
      return this.waitForOperator(record, row);
    }
    if (row?.state === 'posted') {
      // Same content and time: already done (no rule re-checked: the date may have passed meanwhile).
      if (hash === row.content_hash) return this.alreadyScheduled(record, row);
      const cancel = await this.cancelRow(row, run, 'its content, time or media changed');
      if (cancel.kind === 'live') return this.keptLive(record, row, cancel, 'was edited');
      row = repo.get(row.id);
    }

    const recordPostsvcId = text(record.postsvcId);
    if (recordPostsvcId && !repo.byPostsvcId(recordPostsvcId)) {
      return skip(`postsvcId ${recordPostsvcId} was not scheduled by this bridge: not scheduling it again`);
    }
    if (lateness.kind === 'too-late') return this.fail(record, lateness.message, 'INVALID_DATE');
    if (draft.problem || !draft.outgoing || hash === null) {
      return this.fail(
        record,
        draft.problem?.message ?? 'not a valid post',
        draft.problem?.code ?? 'VALIDATION_ERROR',
      );
    }
    // Late within the grace: published at once (a past scheduleDate would be refused).
    const outgoing = lateness.kind === 'late' ? { ...draft.outgoing, scheduleDate: null } : draft.outgoing;

    const claim =
      row?.state === 'failed' &&
      row.content_hash === hash &&
      !row.refused &&
      row.schedule_date === outgoing.scheduleDate
        ? scheduler.reclaimFailed(row)
        : scheduler.claim({
            socialPostId: id,
            source: 'crm',
            idempotencyKey: socialPostKey(id, hash, repo.generations(id) + 1),
            contentHash: hash,
            ...outgoing,
          });
    if (claim.kind === 'quota') {
      return this.fail(record, quotaMessage(this.deps.quota.snapshot()), 'QUOTA_EXCEEDED');
    }
    if (claim.kind === 'exists') {
      if (claim.row.state === 'posted') return this.alreadyScheduled(record, claim.row);
      throw new RetryPosting(`SocialPost ${id}: another attempt holds the ledger row`, 2_000);
    }

    let outcome;
    try {
      outcome = await scheduler.send(claim.row, run.signal);
    } catch (error) {
      if (!(error instanceof PostsvcError)) throw error;
      if (error.retryable && !run.lastAttempt) {
        throw new RetryPosting(
          error.message,
          error.details.retryAfterS ? error.details.retryAfterS * 1000 : null,
        );
      }
      return this.fail(record, error.message, error.code, repo.get(claim.row.id));
    }
    if (outcome.kind === 'pending') {
      if (!run.lastAttempt) throw new RetryPosting(outcome.reason, outcome.retryInMs);
      return this.fail(
        record,
        `the provider did not confirm the post (${outcome.reason}); the bridge checks its history before any new attempt`,
        'PLATFORM_ERROR',
      );
    }
    await this.writeBack(id, { postsvcId: outcome.row.postsvc_id });
    const subject = crmPostSubject(record, outcome.row);
    this.deps.activity.record(
      'posting.scheduled',
      'info',
      lateness.kind === 'late'
        ? `${crmPostWords(subject)} was ${lateness.minutesLate} min late (within the grace): posted now on ${outgoing.platforms.join(', ')}`
        : `${crmPostWords(subject)} scheduled on ${outgoing.platforms.join(', ')} for ${outgoing.scheduleDate}`,
      { subject, socialPostId: id, postsvcId: outcome.row.postsvc_id, warnings: draft.warnings },
    );
    return {
      success: true,
      postsvcId: outcome.row.postsvc_id,
      ...(draft.warnings.length > 0 ? { warnings: draft.warnings } : {}),
    };
  }

  /** Draft: the provider post (if any) cancelled and postsvcId cleared. */
  private async ensureCancelled(record: CrmRecord, run: RunContext): Promise<ItemOutcome> {
    const { repo } = this.deps;
    const row = await this.settled(repo.active(record.id), run);
    const recordPostsvcId = text(record.postsvcId);
    const cancelled: string[] = [];
    if (row?.state === 'posted' && row.postsvc_id) {
      const cancel = await this.cancelRow(row, run, 'the record went back to Draft');
      if (cancel.kind === 'live') return this.keptLive(record, row, cancel, 'was set to Draft');
      cancelled.push(row.postsvc_id);
    }
    if (recordPostsvcId && !cancelled.includes(recordPostsvcId)) {
      const owned = repo.byPostsvcId(recordPostsvcId);
      if (owned?.state !== 'cancelled') {
        const cancel = await this.providerCall(() =>
          this.deps.liveCancel.cancelId(recordPostsvcId, owned?.publish_at ?? null, owned, run.signal),
        );
        if (cancel.kind === 'live') return this.keptLive(record, owned, cancel, 'was set to Draft');
        if (owned) repo.markCancelled(owned.id, this.deps.now());
        cancelled.push(recordPostsvcId);
      }
    }
    if (recordPostsvcId) await this.writeBack(record.id, { postsvcId: null });
    if (cancelled.length === 0) return skip('nothing at the provider to cancel');
    this.deps.activity.record(
      'posting.cancelled',
      'info',
      `${crmPostWords(crmPostSubject(record, row))} back to Draft: its post at the provider was cancelled`,
      {
        subject: crmPostSubject(record, row),
        socialPostId: record.id,
        postsvcIds: cancelled,
      },
    );
    return { success: true, cancelled };
  }

  /** The record is gone (social-deleted brings only `{id}`): the post to cancel comes from the ledger. */
  private async onDeleted(id: string, run: RunContext): Promise<ItemOutcome> {
    const { repo } = this.deps;
    const row = await this.settled(repo.active(id), run);
    if (!row || row.state !== 'posted' || !row.postsvc_id)
      return skip('no provider post for it in the ledger');
    if (row.live_hold === 'crm-deleted') return skip('CRM record deleted, still live: kept for the operator');
    const cancel = await this.cancelRow(row, run, 'the SocialPost was deleted');
    if (cancel.kind === 'live') {
      // Nothing is written (there is no record); the ledger keeps the live post and the dashboard says so.
      repo.setLiveHold(row.id, 'crm-deleted', this.deps.now());
      const where = cancel.platforms.join(', ');
      this.deps.activity.record(
        'posting.still-live',
        'warn',
        `CRM record deleted, still live: ${named(ledgerPostSubject(row), 'CRM post')} is out on ${where}; nothing was deleted (Delete from ${where} on the Posts page takes it down)`,
        {
          subject: ledgerPostSubject(row),
          ledgerId: row.id,
          postsvcId: row.postsvc_id,
          socialPostId: id,
          platforms: cancel.platforms,
        },
      );
      return skip(`CRM record deleted, still live on ${where}: nothing deleted`);
    }
    this.deps.activity.record(
      'posting.cancelled',
      'info',
      `${ledgerPostWords(row)} deleted in the CRM: cancelled at the provider`,
      {
        subject: ledgerPostSubject(row),
        socialPostId: id,
        postsvcId: row.postsvc_id,
      },
    );
    return { success: true, cancelled: row.postsvc_id };
  }

  /** A row in flight elsewhere or with an unknown outcome is settled from the provider's history first. */
  private async settled(row: LedgerRow | undefined, run: RunContext): Promise<LedgerRow | undefined> {
    if (!row || (row.state !== 'claimed' && row.state !== 'unknown')) return row;
    const resolved = await this.providerCall(() => this.deps.scheduler.resolve(row, run.signal));
    if (resolved.kind === 'pending') throw new RetryPosting(resolved.reason, resolved.retryInMs);
    return resolved.row;
  }

  private async alreadyScheduled(record: CrmRecord, row: LedgerRow): Promise<ItemOutcome> {
    if (text(record.postsvcId) === row.postsvc_id) {
      return {
        success: true,
        skipped: true,
        postsvcId: row.postsvc_id,
        reason: 'already scheduled at the provider',
      };
    }
    await this.writeBack(record.id, { postsvcId: row.postsvc_id });
    return { success: true, postsvcId: row.postsvc_id, reused: true };
  }

  /** The live-safe cancel of the row's post; a live one is left alone (the caller says what follows). */
  private async cancelRow(row: LedgerRow, run: RunContext, why: string): Promise<LiveCancelOutcome> {
    const outcome = await this.providerCall(() => this.deps.liveCancel.cancelRow(row, run.signal));
    if (outcome.kind === 'live') return outcome;
    this.deps.activity.record(
      'posting.cancelled',
      'info',
      `${ledgerPostWords(row)} cancelled at the provider: ${why}`,
      {
        subject: ledgerPostSubject(row),
        socialPostId: row.social_post_id,
        postsvcId: row.postsvc_id,
      },
    );
    return outcome;
  }

  /**
   * A Draft or an edit met a live post (DESIGN §6.9): nothing is deleted, the record is written
   * back to Published (it is out, whatever the CRM says) and a warning names the live post.
   */
  private async keptLive(
    record: CrmRecord,
    row: LedgerRow | undefined,
    live: Extract<LiveCancelOutcome, { kind: 'live' }>,
    what: string,
  ): Promise<ItemOutcome> {
    const postsvcId = row?.postsvc_id ?? text(record.postsvcId);
    await this.writeBack(record.id, { status: 'Published', postsvcId });
    if (row?.live_hold) this.deps.repo.setLiveHold(row.id, null, this.deps.now());
    const where = live.platforms.join(', ');
    const subject = crmPostSubject(record, row);
    const warning = `${crmPostWords(subject)} ${what} but it is already live on ${where}${live.postUrls.length > 0 ? ` (${live.postUrls.join(' ')})` : ''}: nothing was deleted and the record is Published again; Delete from ${where} on the Posts page takes it down`;
    this.deps.activity.record('posting.still-live', 'warn', warning, {
      subject,
      ledgerId: row?.id ?? 0,
      postsvcId,
      socialPostId: record.id,
      platforms: live.platforms,
    });
    return { success: true, skipped: true, reason: `already live on ${where}: kept`, warnings: [warning] };
  }

  /** A live post whose record went back to Scheduled waits for the operator: nothing sent, cancelled or written. */
  private waitForOperator(record: CrmRecord, row: LedgerRow): ItemOutcome {
    const { repo, activity, now } = this.deps;
    const where = (knownLive(row).length > 0 ? knownLive(row) : row.platforms).join(', ');
    if (repo.setLiveHold(row.id, 'waiting-operator', now())) {
      activity.record(
        'posting.still-live',
        'warn',
        `${crmPostWords(crmPostSubject(record, row))} went back to Scheduled but it is live on ${where}: nothing is sent, cancelled or written until the operator decides (mark it Published again, or Delete from ${where} on the Posts page)`,
        {
          subject: crmPostSubject(record, row),
          ledgerId: row.id,
          postsvcId: row.postsvc_id,
          socialPostId: record.id,
          platforms: knownLive(row),
        },
      );
    }
    return skip(`post ${row.postsvc_id} is live on ${where}: waiting for the operator`);
  }

  /** Status Failed with the message on the record (spec §3.4), an error in the activity log, 500 to the sender. */
  private async fail(
    record: CrmRecord,
    message: string,
    code: string,
    row?: LedgerRow,
  ): Promise<ItemOutcome> {
    const changes: Record<string, unknown> = { status: 'Failed', error: message };
    if (row?.postsvc_id && row.state === 'posted') changes.postsvcId = row.postsvc_id;
    await this.writeBack(record.id, changes);
    const subject = crmPostSubject(record, row);
    this.deps.activity.record('posting.failed', 'error', `${crmPostWords(subject)} failed: ${message}`, {
      subject,
      socialPostId: record.id,
      code,
    });
    return { success: false, error: message, code };
  }

  private async writeBack(id: string, changes: Record<string, unknown>): Promise<void> {
    try {
      await this.deps.crm.update(ENTITY, id, changes);
    } catch (error) {
      // Gone meanwhile: its social-deleted will cancel from the ledger. Unreachable: retried (the ledger keeps the id).
      if (error instanceof PeerError && error.status === 404) return;
      if (error instanceof PeerError && error.retryable)
        throw new RetryPosting(`CRM write-back: ${error.message}`, null);
      throw error;
    }
  }

  private async providerCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PeerError && error.retryable) {
        throw new RetryPosting(
          error.message,
          error.details.retryAfterS ? error.details.retryAfterS * 1000 : null,
        );
      }
      throw error;
    }
  }

  /**
   * The record as the provider would get it (null when it cannot even be built) and the first
   * rule it breaks. The hash is taken from `outgoing` whether or not it is valid, so an
   * unchanged post is recognised even after its date has passed.
   */
  private async draftOf(
    record: CrmRecord,
    postNow: boolean,
  ): Promise<{
    outgoing: (OutgoingPost & { platforms: PlatformKey[]; scheduleDate: string }) | null;
    problem: { message: string; code: string } | null;
    warnings: string[];
  }> {
    const platform = text(record.platform).toLowerCase();
    if (!(platformKeys as readonly string[]).includes(platform)) {
      return {
        outgoing: null,
        problem: {
          message: `platform: "${text(record.platform)}" is not a platform the provider knows`,
          code: 'VALIDATION_ERROR',
        },
        warnings: [],
      };
    }
    const scheduledAt = text(record.scheduledAt);
    if (!scheduledAt || Number.isNaN(Date.parse(scheduledAt))) {
      return {
        outgoing: null,
        problem: { message: 'scheduledAt: required for a Scheduled post', code: 'VALIDATION_ERROR' },
        warnings: [],
      };
    }
    const platforms = [platform as PlatformKey];
    const mediaUrl = text(record.mediaUrl);
    const outgoing = {
      post: text(record.content),
      platforms,
      mediaUrls: mediaUrl ? [mediaUrl] : [],
      scheduleDate: new Date(scheduledAt).toISOString(),
    };
    const { reviewPost } = await postRules();
    // A late post within the grace is reviewed as "publish now": its passed time is not an error.
    const review = reviewPost(postNow ? { ...outgoing, scheduleDate: null } : outgoing, {
      now: this.deps.now(),
      nearby: await postsNear(this.deps, Date.parse(scheduledAt), { socialPostId: record.id }),
    });
    const first = review.errors[0];
    const problem = first
      ? {
          message: first.message
            .replace(/^post:/, 'content:')
            .replace(/^scheduleDate:/, 'scheduledAt:')
            .replace(/^mediaUrls:/, 'mediaUrl:'),
          code: first.code,
        }
      : null;
    return { outgoing, problem, warnings: review.warnings };
  }
}

function skip(reason: string): ItemOutcome {
  return { success: true, skipped: true, reason };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
