import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { named } from '../../kernel/activity/subjects.js';
import { RetryLaterError } from '../../kernel/jobs/queue.js';
import { retryClassOf } from '../../kernel/jobs/retry-class.js';
import { PeerError } from '../../peers/peer-error.js';
import { PostsvcError } from '../../peers/postsvc.js';
import { decide, type Decision, type Then } from './decide.js';
import { reviewDraft, type Draft } from './draft.js';
import type { PostingEngine } from './engine.js';
import { socialPostKey } from './keys.js';
import { utcMinute, type PostTrigger } from './late-posts.js';
import { knownLive } from './live-state.js';
import type { MoveOutcome } from './moves.js';
import { crmPostSubject, crmPostWords, ledgerPostSubject, ledgerPostWords } from './post-subject.js';
import { quotaMessage, type QuotaTracker } from './quota.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { SocialPostChanges, SocialPostRecord, SocialPostRecords } from './social-post-record.js';
import { postsNear } from './spacing.js';

/**
 * One run of "bring SocialPost <id> in line" (issue #36.2): whatever asked for it (a webhook item,
 * catch-up, a retry, a confirmation, the dashboard), it settles what the ledger left open, reads
 * the record as it is now, decides once (decide.ts) and carries the decision out through the
 * engine, writing back through the record's adapter. Every step reads before it acts, so a run
 * that finds the record and the ledger in agreement does nothing (the CRM's echo of a write-back).
 */

/** A run's outcome: what the items that waited for it are answered, and what the record is now. */
export interface RunOutcome extends ItemOutcome {
  reason?: string;
  postsvcId?: string | null;
  /** The record's status and time as the run left them (the dashboard's answer says them). */
  recordStatus?: string | null;
  scheduledAt?: string | null;
  /** How the provider post changed: moved in place, cancelled and created anew, created. */
  how?: 'moved-in-place' | 'cancelled-and-created' | 'created';
  /** Not cancelled or moved: out on these platforms. */
  live?: { platforms: PlatformKey[]; postUrls: string[] };
  warnings?: string[];
  cancelled?: string | string[];
  reused?: boolean;
}

export interface RunContext {
  signal: AbortSignal;
  trigger: PostTrigger;
  attempt: number;
  /** No more tries after this one: a retryable failure is written onto the record instead. */
  lastAttempt: boolean;
}

export interface SocialPostRunDeps {
  engine: PostingEngine;
  records: SocialPostRecords;
  repo: PostingRepo;
  activity: ActivityLog;
  quota: QuotaTracker;
  now: () => Date;
  lateGraceMs: number;
}

const skip = (reason: string, more: Partial<RunOutcome> = {}): RunOutcome => ({
  success: true,
  skipped: true,
  reason,
  ...more,
});

export class SocialPostRun {
  constructor(private readonly deps: SocialPostRunDeps) {}

  async run(id: string, context: RunContext): Promise<RunOutcome> {
    let record: SocialPostRecord | null = null;
    try {
      const settled = await this.settle(id, context);
      if (settled) return settled;
      record = await this.deps.records.read(id);
      const outcome = await this.carryOut(id, record, context);
      return { recordStatus: record?.status ?? null, scheduledAt: record?.scheduledAt ?? null, ...outcome };
    } catch (error) {
      // A peer that may answer later (never a bug of the bridge's: those end the job as they are).
      const retryable = error instanceof PeerError || error instanceof RetryLaterError;
      if (!retryable || retryClassOf(error) !== 'transient' || context.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (!context.lastAttempt || !record) {
        this.deps.activity.record(
          'posting.retry',
          'warn',
          `${crmPostWords(crmPostSubject({ id }))}: ${message}; the bridge tries again`,
          {
            subject: crmPostSubject(record ?? { id }, this.deps.repo.active(id)),
            socialPostId: id,
            event: record ? 'social-updated' : 'social-deleted',
          },
        );
        throw error;
      }
      return this.fail(record, message, error instanceof PostsvcError ? error.code : 'PLATFORM_ERROR');
    }
  }

  /**
   * What the ledger left open is settled first (DESIGN §6.2: never resent blindly): a create in
   * flight or with an unknown outcome, a move cut off. A move that settles into something the record
   * must hear of (out, failed there, gone, not moved) is this run's outcome.
   */
  private async settle(id: string, context: RunContext): Promise<RunOutcome | undefined> {
    const row = this.deps.repo.active(id);
    if (!row || (row.state !== 'claimed' && row.state !== 'unknown' && row.moving_to === null))
      return undefined;
    const settled = await this.deps.engine.settle(row, context.signal);
    switch (settled.kind) {
      case 'pending':
        if (context.lastAttempt) {
          const record = await this.deps.records.read(id);
          if (record)
            return this.fail(
              record,
              `the provider did not confirm the post (${settled.reason}); the bridge checks its history before any new attempt`,
              'PLATFORM_ERROR',
            );
        }
        throw new RetryLaterError(settled.reason, settled.retryInMs);
      case 'settled':
      case 'posted':
      case 'absent':
      case 'moved':
        return undefined;
      default: {
        const record = await this.deps.records.read(id);
        return record ? this.afterMove(record, settled, 'was moved') : skip('the record is gone');
      }
    }
  }

  private async carryOut(
    id: string,
    record: SocialPostRecord | null,
    context: RunContext,
  ): Promise<RunOutcome> {
    const { repo, now } = this.deps;
    const row = repo.active(id);
    const draft = record?.status === 'Scheduled' ? await this.draftOf(record) : null;
    const decision = decide({
      record,
      row,
      recordPost: record?.postsvcId ? repo.byPostsvcId(record.postsvcId) : undefined,
      draft,
      now: now(),
      plan: this.deps.quota.plan(),
      lateGraceMs: this.deps.lateGraceMs,
      trigger: context.trigger,
      attempt: context.attempt,
    });
    if (!record) return this.whenGone(id, repo.active(id), decision, context);
    return this.act(decision, record, row, draft, context);
  }

  private async act(
    decision: Decision,
    record: SocialPostRecord,
    row: LedgerRow | undefined,
    draft: Draft | null,
    context: RunContext,
  ): Promise<RunOutcome> {
    const { engine } = this.deps;
    switch (decision.kind) {
      case 'settle-first':
        throw new RetryLaterError(`SocialPost ${record.id}: another attempt holds the ledger row`, 2_000);
      case 'nothing':
        return skip(decision.reason, decision.postsvcId ? { postsvcId: decision.postsvcId } : {});
      case 'write-id':
        await this.write(record.id, { postsvcId: decision.postsvcId });
        return { success: true, postsvcId: decision.postsvcId, reused: true };
      case 'lift-hold':
        engine.hold(row!, null);
        return skip('status Published: the live post is no longer held');
      case 'wait-for-operator':
        return this.waitForOperator(record, row!);
      case 'cancel':
        return decision.why === 'draft'
          ? this.cancelForDraft(record, row, decision, context)
          : skip('the record is there');
      case 'move': {
        const moved = await engine.move(row!, decision.to, context.signal);
        return this.afterMove(record, moved, 'was edited');
      }
      case 'read-first': {
        const read = await engine.readFirst(row!, context.signal);
        return this.afterMove(record, read, 'was edited');
      }
      case 'replace': {
        const cancelled = await engine.cancel(row!, { signal: context.signal });
        if (cancelled.kind === 'live') return this.keptLive(record, row, cancelled, 'was edited');
        this.cancelledActivity(row!, 'its content, time or media changed');
        const outcome = await this.then(
          decision.then,
          record,
          this.deps.repo.active(record.id),
          draft,
          context,
        );
        return outcome.postsvcId ? { ...outcome, how: 'cancelled-and-created' } : outcome;
      }
      default:
        return this.then(decision, record, row, draft, context);
    }
  }

  private async then(
    then: Then,
    record: SocialPostRecord,
    row: LedgerRow | undefined,
    draft: Draft | null,
    context: RunContext,
  ): Promise<RunOutcome> {
    if (then.kind === 'nothing') return skip(then.reason);
    if (then.kind === 'fail') return this.fail(record, then.message, then.code);
    return this.send(record, row, draft!, then, context);
  }

  /** The one claim-and-send of a CRM post (a new generation, or the failed row again with its key). */
  private async send(
    record: SocialPostRecord,
    row: LedgerRow | undefined,
    draft: Draft,
    then: Extract<Then, { kind: 'send' }>,
    context: RunContext,
  ): Promise<RunOutcome> {
    const { engine, repo } = this.deps;
    const outgoing = {
      ...draft.outgoing!,
      scheduleDate: then.lateMinutes === null ? draft.outgoing!.scheduleDate : null,
    };
    const claim = {
      socialPostId: record.id,
      source: 'crm' as const,
      idempotencyKey: socialPostKey(record.id, draft.contentHash!, repo.generations(record.id) + 1),
      contentHash: draft.contentHash!,
      bodyHash: draft.bodyHash!,
      ...outgoing,
    };
    const claimed = then.reclaim
      ? engine.reclaim(row!)
      : row?.state === 'posted' && row.provider_status === 'deleted'
        ? engine.supersede(row, claim)
        : engine.claim(claim);
    if (claimed.kind === 'quota')
      return this.fail(record, quotaMessage(this.deps.quota.snapshot()), 'QUOTA_EXCEEDED');
    if (claimed.kind === 'exists') {
      if (claimed.row.state === 'posted') return this.alreadyScheduled(record, claimed.row);
      throw new RetryLaterError(`SocialPost ${record.id}: another attempt holds the ledger row`, 2_000);
    }
    let sent;
    try {
      sent = await engine.send(claimed.row, { signal: context.signal });
    } catch (error) {
      if (!(error instanceof PostsvcError) || (error.retryable && !context.lastAttempt)) throw error;
      return this.fail(record, error.message, error.code, repo.get(claimed.row.id));
    }
    if (sent.kind === 'pending') {
      if (!context.lastAttempt) throw new RetryLaterError(sent.reason, sent.retryInMs);
      return this.fail(
        record,
        `the provider did not confirm the post (${sent.reason}); the bridge checks its history before any new attempt`,
        'PLATFORM_ERROR',
      );
    }
    await this.write(record.id, { postsvcId: sent.row.postsvc_id });
    const subject = crmPostSubject(record, sent.row);
    this.deps.activity.record(
      'posting.scheduled',
      'info',
      then.lateMinutes !== null
        ? `${crmPostWords(subject)} was ${then.lateMinutes} min late (within the grace): posted now on ${outgoing.platforms.join(', ')}`
        : `${crmPostWords(subject)} scheduled on ${outgoing.platforms.join(', ')} for ${outgoing.scheduleDate}`,
      { subject, socialPostId: record.id, postsvcId: sent.row.postsvc_id, warnings: draft.warnings },
    );
    return {
      success: true,
      postsvcId: sent.row.postsvc_id,
      how: 'created',
      ...(draft.warnings.length > 0 ? { warnings: draft.warnings } : {}),
    };
  }

  /** What a move (or the read before one) left: moved, live, due, gone, or not moved in words. */
  private async afterMove(record: SocialPostRecord, outcome: MoveOutcome, what: string): Promise<RunOutcome> {
    const { row } = outcome;
    const subject = crmPostSubject(record, row);
    switch (outcome.kind) {
      case 'moved':
        this.deps.activity.record(
          'posting.moved',
          'info',
          `${crmPostWords(subject)} moved in place at the provider from ${utcMinute(outcome.from)} to ${utcMinute(row.schedule_date)} (the same post, no quota used)`,
          {
            subject,
            socialPostId: record.id,
            postsvcId: row.postsvc_id,
            from: outcome.from,
            to: row.schedule_date!,
          },
        );
        if (record.postsvcId !== row.postsvc_id) await this.write(record.id, { postsvcId: row.postsvc_id });
        return {
          success: true,
          postsvcId: row.postsvc_id,
          how: 'moved-in-place',
          scheduledAt: row.schedule_date,
        };
      case 'live':
        return this.keptLive(record, row, outcome, what);
      case 'due':
        this.deps.activity.record(
          'posting.still-live',
          'warn',
          `${crmPostWords(subject)} is due now (${utcMinute(row.publish_at)}): not moved; it goes out at that time`,
          { subject, ledgerId: row.id, postsvcId: row.postsvc_id, socialPostId: record.id, platforms: [] },
        );
        return skip(`due now at ${utcMinute(row.publish_at)}: not moved`, { postsvcId: row.postsvc_id });
      case 'gone':
        return this.fail(
          record,
          `the provider no longer has post ${row.postsvc_id} (deleted there): not moved, and nothing was created in its place; reschedule it to post it again`,
          'NOT_FOUND',
          row,
        );
      case 'refused':
        return this.fail(record, outcome.message, 'PLATFORM_ERROR', row);
    }
  }

  /** Draft: the post the row holds (and one the record names that the row does not) cancelled, postsvcId cleared. */
  private async cancelForDraft(
    record: SocialPostRecord,
    row: LedgerRow | undefined,
    decision: Extract<Decision, { kind: 'cancel'; why: 'draft' }>,
    context: RunContext,
  ): Promise<RunOutcome> {
    const { engine, repo } = this.deps;
    const cancelled: string[] = [];
    if (decision.row && row) {
      const outcome = await engine.cancel(row, { signal: context.signal });
      if (outcome.kind === 'live') return this.keptLive(record, row, outcome, 'was set to Draft');
      this.cancelledActivity(row, 'the record went back to Draft');
      cancelled.push(row.postsvc_id!);
    }
    if (decision.otherId) {
      const owned = repo.byPostsvcId(decision.otherId);
      const outcome = await engine.cancelId(decision.otherId, owned, { signal: context.signal });
      if (outcome.kind === 'live') return this.keptLive(record, owned, outcome, 'was set to Draft');
      cancelled.push(decision.otherId);
    }
    if (decision.clearRecordId) await this.write(record.id, { postsvcId: null });
    if (cancelled.length === 0) return skip('nothing at the provider to cancel');
    const subject = crmPostSubject(record, row);
    this.deps.activity.record(
      'posting.cancelled',
      'info',
      `${crmPostWords(subject)} back to Draft: its post at the provider was cancelled`,
      { subject, socialPostId: record.id, postsvcIds: cancelled },
    );
    return { success: true, cancelled };
  }

  /** The record is gone (social-deleted brings only `{id}`): the post to cancel comes from the ledger. */
  private async whenGone(
    id: string,
    row: LedgerRow | undefined,
    decision: Decision,
    context: RunContext,
  ): Promise<RunOutcome> {
    if (decision.kind === 'settle-first')
      throw new RetryLaterError('a create for this post is being settled', 2_000);
    if (decision.kind !== 'cancel' || !row)
      return skip(decision.kind === 'nothing' ? decision.reason : 'the record is gone');
    const { engine, activity } = this.deps;
    const cancel = await engine.cancel(row, { signal: context.signal });
    if (cancel.kind === 'live') {
      // Nothing is written (there is no record); the ledger keeps the live post and the dashboard says so.
      engine.hold(row, 'crm-deleted');
      const where = cancel.platforms.join(', ');
      activity.record(
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
      return skip(`CRM record deleted, still live on ${where}: nothing deleted`, {
        live: { platforms: cancel.platforms, postUrls: cancel.postUrls },
      });
    }
    activity.record(
      'posting.cancelled',
      'info',
      `${ledgerPostWords(row)} deleted in the CRM: cancelled at the provider`,
      {
        subject: ledgerPostSubject(row),
        socialPostId: id,
        postsvcId: row.postsvc_id,
      },
    );
    return { success: true, cancelled: row.postsvc_id! };
  }

  private alreadyScheduled(record: SocialPostRecord, row: LedgerRow): Promise<RunOutcome> | RunOutcome {
    if (record.postsvcId === row.postsvc_id)
      return skip('already scheduled at the provider', { postsvcId: row.postsvc_id });
    return this.write(record.id, { postsvcId: row.postsvc_id }).then(() => ({
      success: true,
      postsvcId: row.postsvc_id,
      reused: true,
    }));
  }

  /**
   * DESIGN §6.9: a CRM change that would cancel (or move) a published post leaves it live; the
   * record is written back to Published and a warning names the live post.
   */
  private async keptLive(
    record: SocialPostRecord,
    row: LedgerRow | undefined,
    live: { platforms: PlatformKey[]; postUrls: string[] },
    what: string,
  ): Promise<RunOutcome> {
    const postsvcId = row?.postsvc_id ?? record.postsvcId;
    await this.write(record.id, { status: 'Published', postsvcId });
    if (row?.live_hold) this.deps.engine.hold(row, null);
    const where = live.platforms.join(', ');
    const subject = crmPostSubject(record, row);
    const warning = `${crmPostWords(subject)} ${what} but it is already live on ${where}${live.postUrls.length > 0 ? ` (${live.postUrls.join(' ')})` : ''}: nothing was deleted and the record is Published again; Delete from ${where} on the Posts page takes it down`;
    this.deps.activity.record('posting.still-live', 'warn', warning, {
      subject,
      ledgerId: row?.id ?? null,
      postsvcId,
      socialPostId: record.id,
      platforms: live.platforms,
    });
    return {
      success: true,
      skipped: true,
      reason: `already live on ${where}: kept`,
      warnings: [warning],
      live: { platforms: live.platforms, postUrls: live.postUrls },
      recordStatus: 'Published',
    };
  }

  /** A live post whose record went back to Scheduled waits for the operator: nothing sent, cancelled or written. */
  private waitForOperator(record: SocialPostRecord, row: LedgerRow): RunOutcome {
    const where = (knownLive(row).length > 0 ? knownLive(row) : row.platforms).join(', ');
    if (this.deps.engine.hold(row, 'waiting-operator')) {
      this.deps.activity.record(
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
    record: SocialPostRecord,
    message: string,
    code: string,
    row?: LedgerRow,
  ): Promise<RunOutcome> {
    const changes: SocialPostChanges = { status: 'Failed', error: message };
    if (row?.postsvc_id && row.state === 'posted') changes.postsvcId = row.postsvc_id;
    await this.write(record.id, changes);
    const subject = crmPostSubject(record, row);
    this.deps.activity.record('posting.failed', 'error', `${crmPostWords(subject)} failed: ${message}`, {
      subject,
      socialPostId: record.id,
      code,
    });
    return { success: false, error: message, code, recordStatus: 'Failed' };
  }

  private cancelledActivity(row: LedgerRow, why: string): void {
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
  }

  /** Through the adapter's one policy; a record gone meanwhile is left to its deletion. */
  private async write(id: string, changes: SocialPostChanges): Promise<void> {
    await this.deps.records.write(id, changes);
  }

  private draftOf(record: SocialPostRecord): Promise<Draft> {
    return reviewDraft(record, {
      now: this.deps.now(),
      graceMs: this.deps.lateGraceMs,
      nearby: (at) => postsNear(this.deps, at, { socialPostId: record.id }),
    });
  }
}
