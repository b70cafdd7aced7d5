import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { capitalize, named } from '../../kernel/activity/subjects.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import { RetryLaterError, type JobContext, type Joined, type JobQueue } from '../../kernel/jobs/queue.js';
import type { CatchUpHandler, RecordJob, RecordJobHandler } from '../area.js';
import type { PostingEngine } from './engine.js';
import { utcMinute, type PostTrigger } from './late-posts.js';
import { ledgerPostSubject, postSubjectOf } from './post-subject.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { RunOutcome, SocialPostRun } from './record-run.js';

/** "Bring SocialPost <id> in line": the one job of a SocialPost record (issue #36.2). */
export const SOCIAL_POST_JOB = 'posting.social-post';
/** Settles a dashboard post's create or move left open (it has no record, so no record job). */
const RECONCILE_JOB = 'posting.reconcile';

interface SocialPostJob {
  socialPostId: string;
  /** What first asked for the job (a run after a failure is a retry); absent on jobs queued before issue #36. */
  trigger?: PostTrigger;
}

export interface SocialPostJobsDeps {
  jobs: JobQueue;
  repo: PostingRepo;
  activity: ActivityLog;
  /** Null when the provider is not configured: nothing is posted, and settling finds nothing to do. */
  engine: PostingEngine | null;
  /** Null unless both the CRM and the provider are configured. */
  run: SocialPostRun | null;
}

const notConfigured: RunOutcome = {
  success: true,
  skipped: true,
  reason: 'posting needs both a CRM and a posting provider configured',
};

/**
 * The queue's side of posting: every trigger of a SocialPost (its webhooks, catch-up, a dashboard
 * route, a post left in flight at the last stop) enqueues or joins the record's one job in its
 * lane; the queue's own retry tries a run again; a trigger during a run makes it run once more.
 */
export class SocialPostJobs {
  readonly recordJob: RecordJob = {
    kind: SOCIAL_POST_JOB,
    payload: (socialPostId, trigger) => ({ socialPostId, trigger }) satisfies SocialPostJob,
  };

  constructor(private readonly deps: SocialPostJobsDeps) {
    deps.jobs.register<SocialPostJob>(SOCIAL_POST_JOB, (payload, context) => this.runJob(payload, context), {
      describe: ({ socialPostId }) => `bring SocialPost ${socialPostId} in line`,
      // Named from the ledger (the text it was sent with), a local read when the job ends.
      subject: ({ socialPostId }) => ({
        subject: postSubjectOf({ socialPostId }, deps.repo.active(socialPostId)),
        noun: 'CRM post',
      }),
    });
    deps.jobs.register<{ ledgerId: number }>(
      RECONCILE_JOB,
      (payload, context) => this.reconcile(payload, context),
      {
        describe: ({ ledgerId }) => `posting: settle ledger ${ledgerId}`,
        subject: ({ ledgerId }) => {
          const row = deps.repo.get(ledgerId);
          return row ? { subject: ledgerPostSubject(row), noun: 'checking post' } : undefined;
        },
      },
    );
  }

  /** Enqueues or joins the record's job (call inside a transaction, or alone). */
  trigger(socialPostId: string, trigger: PostTrigger): Joined {
    return this.deps.jobs.enqueueOrJoin({
      kind: SOCIAL_POST_JOB,
      payload: { socialPostId, trigger } satisfies SocialPostJob,
      lane: crmRecordLane('SocialPost', socialPostId),
    });
  }

  /** Triggers the record's job and waits for the run that answers it; undefined when it took longer. */
  async runAndWait(socialPostId: string, waitMs: number): Promise<RunOutcome | undefined> {
    const joined = this.trigger(socialPostId, 'dashboard');
    const end = await this.deps.jobs.waitForRun(joined.job.id, joined.run, waitMs);
    if (!end) return undefined;
    if (end.status === 'done') return end.result as RunOutcome;
    return end.status === 'retry'
      ? { success: true, queued: true, reason: end.error }
      : { success: false, error: end.error };
  }

  /** The social-* webhooks: every item joins its record's job. */
  webhookHandlers(): Record<'social-created' | 'social-updated' | 'social-deleted', RecordJobHandler> {
    const { recordJob } = this;
    return {
      'social-created': {
        recordJob,
        decideAtIntake: (item) => this.decideAtIntake(item),
        answerFor: staleWords,
      },
      'social-updated': { recordJob, answerFor: staleWords },
      'social-deleted': { recordJob },
    };
  }

  /**
   * CRM catch-up's handling of SocialPost (DESIGN §6.9): state-driven, through the record's job
   * (the record read now, compared with the ledger). A tracked post whose record is gone is
   * cancelled by the same job, which reads the 404.
   */
  catchUpHandler(): CatchUpHandler {
    const { repo } = this.deps;
    return {
      drive: 'state',
      recordJob: this.recordJob,
      tracked: () =>
        repo.scheduledFromCrm().map((row) => ({
          id: row.social_post_id!,
          // In the words a person knows the post by (issue #30.4); its ids are in the ledger.
          stillHappens: `${capitalize(named(ledgerPostSubject(row), 'CRM post'))} goes out on ${row.platforms.join(', ')} at ${utcMinute(row.schedule_date)}`,
        })),
    };
  }

  /** Settles a dashboard post's create or move left open, from the provider, after `delayMs`. */
  reconcileLater(row: LedgerRow, delayMs: number) {
    return this.deps.jobs.enqueue({
      kind: RECONCILE_JOB,
      payload: { ledgerId: row.id },
      dedupeKey: `${RECONCILE_JOB}:${row.id}:${row.attempts}:${row.updated_at}`,
      delayMs,
    });
  }

  /** Creates and moves a stopped process left open: each record's job (or the reconcile of a dashboard post) settles them. */
  settleLeftInFlight(): void {
    const { repo, engine } = this.deps;
    for (const row of [...repo.unsettled(), ...repo.moving()]) {
      if (engine?.isMine(row)) continue;
      if (row.social_post_id) this.trigger(row.social_post_id, 'catch-up');
      else this.reconcileLater(row, 0);
    }
  }

  /**
   * Intake may decide by itself only this (issue #36.2): a new record that is not Scheduled and
   * that the ledger never saw asks nothing of anyone; a later move to Scheduled is its own update.
   */
  private decideAtIntake(item: WebhookItem): ItemOutcome | undefined {
    if (!('status' in item) || item.status === 'Scheduled') return undefined;
    if (this.deps.repo.generations(item.id) > 0) return undefined;
    const status = typeof item.status === 'string' ? item.status : '';
    return {
      success: true,
      skipped: true,
      reason: `status is ${status || 'empty'}, not Scheduled: nothing sent`,
    };
  }

  private async runJob({ socialPostId, trigger }: SocialPostJob, context: JobContext): Promise<RunOutcome> {
    const { run } = this.deps;
    if (!run) return notConfigured;
    return run.run(socialPostId, {
      signal: context.signal,
      // A job queued before issue #36 named its event, not its trigger: a webhook's then.
      trigger: context.retrying ? 'retry' : (trigger ?? 'webhook'),
      attempt: context.attempt,
      lastAttempt: context.attempt >= context.job.max_attempts,
    });
  }

  private async reconcile({ ledgerId }: { ledgerId: number }, context: JobContext) {
    const { repo, engine, activity } = this.deps;
    const row = repo.get(ledgerId);
    if (!engine || !row) return { settled: row?.state ?? null };
    const settled = await engine.settle(row, context.signal);
    if (settled.kind === 'pending') throw new RetryLaterError(settled.reason, settled.retryInMs);
    const subject = ledgerPostSubject(settled.kind === 'settled' ? row : (repo.get(ledgerId) ?? row));
    if (settled.kind === 'posted') {
      activity.record(
        'posting.confirmed',
        'info',
        `${capitalize(named(subject))} confirmed from the provider's history`,
        {
          subject,
          ledgerId,
          postsvcId: settled.row.postsvc_id,
        },
      );
    } else if (settled.kind === 'absent') {
      activity.record(
        'posting.failed',
        'error',
        `${capitalize(named(subject))} to ${row.platforms.join(', ')} was not created by the provider; schedule it again`,
        { subject, ledgerId },
      );
    } else if (settled.kind === 'refused' || settled.kind === 'gone') {
      activity.record(
        'posting.failed',
        'error',
        `${capitalize(named(subject))}: ${settled.kind === 'gone' ? 'the provider no longer has it' : settled.message}`,
        { subject, ledgerId },
      );
    }
    return { settled: settled.kind };
  }
}

/** A skipped item whose status is not the record's is said to be stale (its run read the record). */
function staleWords(item: WebhookItem, outcome: ItemOutcome): ItemOutcome {
  const read = (outcome as RunOutcome).recordStatus;
  if (!outcome.skipped || !('status' in item) || typeof read !== 'string' || item.status === read)
    return outcome;
  return { ...outcome, reason: `stale event: it says ${String(item.status)}, the record is now ${read}` };
}
