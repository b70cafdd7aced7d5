import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { backoffDelayMs, peerRetryBackoff } from '../../kernel/jobs/backoff.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import { RetryLaterError, type JobContext, type JobQueue } from '../../kernel/jobs/queue.js';
import type { CatchUpHandler, WebhookItemContext, WebhookItemHandler } from '../area.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { PostScheduler } from './scheduler.js';
import {
  decideFromItem,
  RetryPosting,
  type RunContext,
  type SocialEvent,
  type SocialPostWorkflow,
} from './social-posts.js';
import { capitalize, named } from '../../kernel/activity/subjects.js';
import { crmPostSubject, ledgerPostSubject, postSubjectOf } from './post-subject.js';
import { utcMinute } from './late-posts.js';

const SOCIAL_POST_JOB = 'posting.social-post';
const RECONCILE_JOB = 'posting.reconcile';

interface SocialPostJob {
  socialPostId: string;
  event: SocialEvent;
}

export interface PostingJobsDeps {
  jobs: JobQueue;
  repo: PostingRepo;
  activity: ActivityLog;
  /** Null when the provider is not configured: nothing is posted, and settling finds nothing to do. */
  scheduler: PostScheduler | null;
  /** Null unless both the CRM and the provider are configured. */
  workflow: SocialPostWorkflow | null;
}

const notConfigured: ItemOutcome = {
  success: true,
  skipped: true,
  reason: 'posting needs both a CRM and a posting provider configured',
};

/**
 * Posting's durable work (DESIGN §6.2, §6.3): a SocialPost record's run in its lane (the
 * webhook's first attempt, then retries with backoff and Retry-After), the settling of creates
 * whose outcome is unknown, and at start the creates a stopped process left in flight.
 */
export class PostingJobs {
  constructor(private readonly deps: PostingJobsDeps) {
    deps.jobs.register<SocialPostJob>(
      SOCIAL_POST_JOB,
      (payload, context) => this.runSocialPost(payload, context),
      {
        describe: ({ socialPostId, event }) => `posting ${event} ${socialPostId}`,
        // Named from the ledger (the text it was sent with), a local read when the job ends.
        subject: ({ socialPostId }) => ({
          subject: postSubjectOf({ socialPostId }, deps.repo.active(socialPostId)),
          noun: 'CRM post',
        }),
      },
    );
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

  /** Runs the record's webhook work later, in its lane: it brings the provider in line with the record. */
  enqueueSocialPost(socialPostId: string, event: SocialEvent, delayMs: number) {
    return this.deps.jobs.enqueue({
      kind: SOCIAL_POST_JOB,
      payload: { socialPostId, event } satisfies SocialPostJob,
      lane: crmRecordLane('SocialPost', socialPostId),
      delayMs,
    });
  }

  /** Settles a create whose outcome is unknown, from the provider's history, after `delayMs`. */
  reconcileLater(row: LedgerRow, delayMs: number) {
    return this.deps.jobs.enqueue({
      kind: RECONCILE_JOB,
      payload: { ledgerId: row.id },
      dedupeKey: `${RECONCILE_JOB}:${row.id}:${row.attempts}`,
      delayMs,
    });
  }

  /** The social-* webhook's handler: the webhook's own attempt; a retryable failure continues in a posting job. */
  webhookHandler(event: SocialEvent): WebhookItemHandler {
    const { workflow } = this.deps;
    return Object.assign(
      (item: WebhookItem, context: WebhookItemContext) => this.firstAttempt(event, item, context.signal),
      {
        // Without a workflow the item is skipped at once; a new Draft is skipped from the item alone.
        decideFromItem: (item: WebhookItem) => (workflow ? decideFromItem(event, item) : notConfigured),
      },
    );
  }

  /**
   * CRM catch-up's handling of SocialPost (DESIGN §6.9): state-driven, the same run as a webhook's
   * (the record read now, compared with the ledger's current generation), in the record's lane.
   * A tracked post whose record is gone is cancelled as social-deleted cancels it.
   */
  catchUpHandler(): CatchUpHandler {
    const { repo } = this.deps;
    return {
      drive: 'state',
      handle: (id, { signal }) => this.firstAttempt('social-updated', { id }, signal, 'catch-up'),
      vanished: (id, { signal }) => this.firstAttempt('social-deleted', { id }, signal, 'catch-up'),
      tracked: () =>
        repo.scheduledFromCrm().map((row) => ({
          id: row.social_post_id!,
          // In the words a person knows the post by (issue #30.4); its ids are in the ledger.
          stillHappens: `${capitalize(named(ledgerPostSubject(row), 'CRM post'))} goes out on ${row.platforms.join(', ')} at ${utcMinute(row.schedule_date)}`,
        })),
    };
  }

  private async firstAttempt(
    event: SocialEvent,
    item: WebhookItem,
    signal: AbortSignal,
    trigger: RunContext['trigger'] = 'webhook',
  ): Promise<ItemOutcome> {
    const { workflow, activity } = this.deps;
    if (!workflow) return notConfigured;
    try {
      return await workflow.handle(event, item, { signal, lastAttempt: false, trigger });
    } catch (error) {
      if (!(error instanceof RetryPosting)) throw error;
      const delayMs = error.delayMs ?? backoffDelayMs(1, peerRetryBackoff);
      this.enqueueSocialPost(item.id, event === 'social-deleted' ? event : 'social-updated', delayMs);
      const subject = crmPostSubject(item, this.deps.repo.active(item.id));
      activity.record(
        'posting.retry',
        'warn',
        `${capitalize(named(subject, 'CRM post'))}: ${error.message}; trying again in ${Math.round(delayMs / 1000)} s`,
        {
          subject,
          socialPostId: item.id,
          event,
        },
      );
      return { success: true, queued: true, reason: error.message };
    }
  }

  /** Creates left in flight by a process that stopped, or unconfirmed: settle them from the provider's history. */
  settleLeftInFlight(): void {
    const { repo, scheduler, jobs } = this.deps;
    for (const row of repo.unsettled()) {
      if (row.claim_token === scheduler?.token) continue;
      const dedupeKey = `posting.settle:${row.id}:${row.attempts}:${row.updated_at}`;
      if (row.social_post_id) {
        jobs.enqueue({
          kind: SOCIAL_POST_JOB,
          payload: { socialPostId: row.social_post_id, event: 'social-updated' } satisfies SocialPostJob,
          lane: crmRecordLane('SocialPost', row.social_post_id),
          dedupeKey,
        });
      } else {
        jobs.enqueue({ kind: RECONCILE_JOB, payload: { ledgerId: row.id }, dedupeKey });
      }
    }
  }

  private async runSocialPost({ socialPostId, event }: SocialPostJob, context: JobContext) {
    const { workflow } = this.deps;
    if (!workflow) return { skipped: true };
    const lastAttempt = context.attempt >= context.job.max_attempts;
    try {
      return await workflow.handle(
        event,
        { id: socialPostId },
        { signal: context.signal, lastAttempt, trigger: 'retry', attempt: context.attempt },
      );
    } catch (error) {
      if (!(error instanceof RetryPosting)) throw error;
      if (error.delayMs !== null) throw new RetryLaterError(error.message, error.delayMs);
      throw new Error(error.message);
    }
  }

  private async reconcile({ ledgerId }: { ledgerId: number }, context: JobContext) {
    const { repo, scheduler, activity } = this.deps;
    const row = repo.get(ledgerId);
    if (!scheduler || !row || (row.state !== 'claimed' && row.state !== 'unknown'))
      return { settled: row?.state ?? null };
    const resolved = await scheduler.resolve(row, context.signal);
    if (resolved.kind === 'pending') throw new RetryLaterError(resolved.reason, resolved.retryInMs);
    if (resolved.kind === 'posted') {
      activity.record(
        'posting.confirmed',
        'info',
        `${capitalize(named(ledgerPostSubject(resolved.row)))} confirmed from the provider's history`,
        {
          subject: ledgerPostSubject(resolved.row),
          ledgerId,
          postsvcId: resolved.row.postsvc_id,
        },
      );
    } else {
      activity.record(
        'posting.failed',
        'error',
        `${capitalize(named(ledgerPostSubject(row)))} to ${row.platforms.join(', ')} was not created by the provider; schedule it again`,
        { subject: ledgerPostSubject(row), ledgerId },
      );
    }
    return { settled: resolved.kind };
  }
}
