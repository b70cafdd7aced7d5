import type { ItemOutcome, WebhookItem } from '../../../shared/api/webhooks.js';
import type { HealthResponse } from '../../../shared/api/health.js';
import { backoffDelayMs, peerRetryBackoff } from '../../kernel/jobs/backoff.js';
import { RetryLaterError } from '../../kernel/jobs/queue.js';
import type { AreaContext, AreaModule, WebhookItemContext, WebhookItemHandler } from '../area.js';
import { ApiPosting, socialPostLane } from './api-posts.js';
import { ProviderPosts, type LatestPostNumbers } from './provider-posts.js';
import { QuotaTracker } from './quota.js';
import { createPostingRepo, type LedgerRow } from './repo.js';
import { postingRoutes } from './routes.js';
import { PostScheduler } from './scheduler.js';
import { postRules } from './post-rules.js';
import { decideFromItem, RetryPosting, SocialPostWorkflow, type SocialEvent } from './social-posts.js';

/** After the start (and the first screens it serves): twitter-text's loading takes a core for ~0.1 s. */
const RULES_PRELOAD_DELAY_MS = 5_000;

export interface PostingTuning {
  /** How long an unconfirmed create may still appear in the provider's history (default 60 s). */
  unknownGraceMs?: number;
}

export interface PostingModule extends AreaModule {
  /** Today's quota, for /health. */
  quota(): HealthResponse['quota'];
}

const SOCIAL_POST_JOB = 'posting.social-post';
const RECONCILE_JOB = 'posting.reconcile';

interface SocialPostJob {
  socialPostId: string;
  event: SocialEvent;
}

/**
 * Social posting (spec §3.4, §4.1, §6; DESIGN §6.2, §6.3): the provider routes, the social-*
 * webhooks, retries through the job queue, the daily quota in /health, and the ledger that
 * makes sure no post is ever published twice.
 */
export function postingArea(
  ctx: AreaContext,
  tuning: PostingTuning = {},
  latestNumbers: LatestPostNumbers = () => ({ likes: 0, comments: 0, shares: 0 }),
): PostingModule {
  const repo = ctx.repo(createPostingRepo);
  const quota = new QuotaTracker(repo, () => ctx.config.postsvc?.plan ?? 'free', ctx.now);
  const client = ctx.peers.postsvc;
  const crm = ctx.peers.crm;
  const scheduler = client
    ? new PostScheduler({
        client,
        repo,
        now: ctx.now,
        quotaLimit: () => quota.limit(),
        ...(tuning.unknownGraceMs !== undefined ? { unknownGraceMs: tuning.unknownGraceMs } : {}),
      })
    : null;
  const workflow =
    client && scheduler && crm
      ? new SocialPostWorkflow({
          crm,
          client,
          scheduler,
          repo,
          activity: ctx.activity,
          quota,
          now: ctx.now,
        })
      : null;

  const enqueueSocialPost = (socialPostId: string, event: SocialEvent, delayMs: number) =>
    ctx.jobs.enqueue({
      kind: SOCIAL_POST_JOB,
      payload: { socialPostId, event } satisfies SocialPostJob,
      lane: socialPostLane(socialPostId),
      delayMs,
    });
  const reconcileLater = (row: LedgerRow, delayMs: number) =>
    ctx.jobs.enqueue({
      kind: RECONCILE_JOB,
      payload: { ledgerId: row.id },
      dedupeKey: `${RECONCILE_JOB}:${row.id}:${row.attempts}`,
      delayMs,
    });
  const api =
    client && scheduler
      ? new ApiPosting({
          client,
          crm,
          repo,
          scheduler,
          quota,
          activity: ctx.activity,
          now: ctx.now,
          reconcileLater,
          withLane: (lane, work, waitMs) => ctx.jobs.withLane(lane, work, waitMs),
          cancelLater: (socialPostId) =>
            enqueueSocialPost(socialPostId, 'social-updated', backoffDelayMs(1, peerRetryBackoff)),
        })
      : null;
  const provider = client
    ? new ProviderPosts({ client, crm, repo, activity: ctx.activity, latestNumbers, now: ctx.now })
    : null;

  // The webhook's own attempt; a retryable failure continues in a posting job (backoff, Retry-After).
  const notConfigured: ItemOutcome = {
    success: true,
    skipped: true,
    reason: 'posting needs both a CRM and a posting provider configured',
  };
  const onSocialItem = (event: SocialEvent): WebhookItemHandler =>
    Object.assign(
      async (item: WebhookItem, context: WebhookItemContext): Promise<ItemOutcome> => {
        if (!workflow) return notConfigured;
        try {
          return await workflow.handle(event, item, { signal: context.signal, lastAttempt: false });
        } catch (error) {
          if (!(error instanceof RetryPosting)) throw error;
          const delayMs = error.delayMs ?? backoffDelayMs(1, peerRetryBackoff);
          enqueueSocialPost(item.id, event === 'social-deleted' ? event : 'social-updated', delayMs);
          ctx.activity.record(
            'posting.retry',
            'warn',
            `SocialPost ${item.id}: ${error.message}; trying again in ${Math.round(delayMs / 1000)} s`,
            {
              socialPostId: item.id,
              event,
            },
          );
          return { success: true, queued: true, reason: error.message };
        }
      },
      {
        // Without a workflow the item is skipped at once; a new Draft is skipped from the item alone.
        decideFromItem: (item: WebhookItem) => (workflow ? decideFromItem(event, item) : notConfigured),
      },
    );

  ctx.jobs.register<SocialPostJob>(
    SOCIAL_POST_JOB,
    async ({ socialPostId, event }, context) => {
      if (!workflow) return { skipped: true };
      const lastAttempt = context.attempt >= context.job.max_attempts;
      try {
        const outcome = await workflow.handle(
          event,
          { id: socialPostId },
          { signal: context.signal, lastAttempt },
        );
        return outcome;
      } catch (error) {
        if (!(error instanceof RetryPosting)) throw error;
        if (error.delayMs !== null) throw new RetryLaterError(error.message, error.delayMs);
        throw new Error(error.message);
      }
    },
    { describe: ({ socialPostId, event }) => `posting ${event} ${socialPostId}` },
  );

  ctx.jobs.register<{ ledgerId: number }>(
    RECONCILE_JOB,
    async ({ ledgerId }, context) => {
      const row = repo.get(ledgerId);
      if (!scheduler || !row || (row.state !== 'claimed' && row.state !== 'unknown'))
        return { settled: row?.state ?? null };
      const resolved = await scheduler.resolve(row, context.signal);
      if (resolved.kind === 'pending') throw new RetryLaterError(resolved.reason, resolved.retryInMs);
      if (resolved.kind === 'posted') {
        ctx.activity.record(
          'posting.confirmed',
          'info',
          `post ${resolved.row.postsvc_id} confirmed from the provider's history`,
          {
            ledgerId,
            postsvcId: resolved.row.postsvc_id,
          },
        );
      } else {
        ctx.activity.record(
          'posting.failed',
          'error',
          `post to ${row.platforms.join(', ')} was not created by the provider; schedule it again`,
          { ledgerId },
        );
      }
      return { settled: resolved.kind };
    },
    { describe: ({ ledgerId }) => `posting: settle ledger ${ledgerId}` },
  );

  return {
    name: 'posting',
    routes: (mount) =>
      postingRoutes(mount, ctx, {
        repo,
        quota,
        client,
        api,
        provider,
        workflow,
        retrySocialPost: (id) => enqueueSocialPost(id, 'social-updated', 0),
      }),
    webhooks: {
      'social-created': onSocialItem('social-created'),
      'social-updated': onSocialItem('social-updated'),
      'social-deleted': onSocialItem('social-deleted'),
    },
    quota: () => quota.snapshot(),
    start() {
      // The posting rules load in the background once the start is over, so a first post does not wait for them.
      setTimeout(() => {
        postRules().catch((error: unknown) => ctx.logger.warn({ err: error }, 'posting rules not loaded'));
      }, RULES_PRELOAD_DELAY_MS).unref();
      // Creates left in flight by a process that stopped, or unconfirmed: settle them from the provider's history.
      for (const row of repo.unsettled()) {
        if (row.claim_token === scheduler?.token) continue;
        if (row.social_post_id) {
          ctx.jobs.enqueue({
            kind: SOCIAL_POST_JOB,
            payload: { socialPostId: row.social_post_id, event: 'social-updated' } satisfies SocialPostJob,
            lane: `SocialPost:${row.social_post_id}`,
            dedupeKey: `posting.settle:${row.id}:${row.attempts}:${row.updated_at}`,
          });
        } else {
          ctx.jobs.enqueue({
            kind: RECONCILE_JOB,
            payload: { ledgerId: row.id },
            dedupeKey: `posting.settle:${row.id}:${row.attempts}:${row.updated_at}`,
          });
        }
      }
    },
  };
}
