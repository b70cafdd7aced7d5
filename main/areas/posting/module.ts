import type { Alarm, HealthResponse } from '../../../shared/api/health.js';
import { backoffDelayMs, peerRetryBackoff } from '../../kernel/jobs/backoff.js';
import type { AreaContext, AreaModule } from '../area.js';
import { unconfirmedPostAlarms } from './alarms.js';
import { ApiPosting } from './api-posts.js';
import { LiveSafeCancel } from './live-cancel.js';
import { CONFIRM_POLL_MS, PostConfirmations } from './confirmations.js';
import { PostingJobs } from './jobs.js';
import { ProviderPosts, type LatestPostNumbers } from './provider-posts.js';
import { QuotaTracker } from './quota.js';
import { createPostingRepo } from './repo.js';
import { postingRoutes } from './routes.js';
import { PostScheduler } from './scheduler.js';
import { postRules } from './post-rules.js';
import { SocialPostWorkflow } from './social-posts.js';

/** After the start (and the first screens it serves): twitter-text's loading takes a core for ~0.1 s. */
const RULES_PRELOAD_DELAY_MS = 5_000;

export interface PostingTuning {
  /** How long an unconfirmed create may still appear in the provider's history (default 60 s). */
  unknownGraceMs?: number;
}

export interface PostingModule extends AreaModule {
  /** Today's quota, for /health. */
  quota(): HealthResponse['quota'];
  /** Posts unconfirmed 10 min after their time (DESIGN §6.9), for /health. */
  alarms(now: Date): Alarm[];
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
  const liveCancel = client ? new LiveSafeCancel({ client, repo, now: ctx.now }) : null;
  const workflow =
    client && scheduler && crm && liveCancel
      ? new SocialPostWorkflow({
          crm,
          client,
          scheduler,
          repo,
          activity: ctx.activity,
          quota,
          now: ctx.now,
          lateGraceMs: ctx.config.latePostGraceMinutes * 60_000,
          liveCancel,
        })
      : null;

  const postingJobs = new PostingJobs({ jobs: ctx.jobs, repo, activity: ctx.activity, scheduler, workflow });
  const api =
    client && scheduler && liveCancel
      ? new ApiPosting({
          client,
          liveCancel,
          crm,
          repo,
          scheduler,
          quota,
          activity: ctx.activity,
          now: ctx.now,
          reconcileLater: (row, delayMs) => postingJobs.reconcileLater(row, delayMs),
          withLane: (lane, work, waitMs) => ctx.jobs.withLane(lane, work, waitMs),
          cancelLater: (socialPostId) =>
            postingJobs.enqueueSocialPost(
              socialPostId,
              'social-updated',
              backoffDelayMs(1, peerRetryBackoff),
            ),
        })
      : null;
  const confirmations = client
    ? new PostConfirmations({
        client,
        crm,
        repo,
        activity: ctx.activity,
        logger: ctx.logger,
        now: ctx.now,
        withLane: (lane, work, waitMs) => ctx.jobs.withLane(lane, work, waitMs),
      })
    : null;
  const provider = client
    ? new ProviderPosts({ client, crm, repo, activity: ctx.activity, latestNumbers, now: ctx.now })
    : null;

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
        confirmations,
        retrySocialPost: (id) => postingJobs.enqueueSocialPost(id, 'social-updated', 0),
      }),
    webhooks: {
      'social-created': postingJobs.webhookHandler('social-created'),
      'social-updated': postingJobs.webhookHandler('social-updated'),
      'social-deleted': postingJobs.webhookHandler('social-deleted'),
    },
    catchUp: { SocialPost: postingJobs.catchUpHandler() },
    quota: () => quota.snapshot(),
    alarms: (now) => unconfirmedPostAlarms(repo, now),
    start() {
      // The posting rules load in the background once the start is over, so a first post does not wait for them.
      setTimeout(() => {
        postRules().catch((error: unknown) => ctx.logger.warn({ err: error }, 'posting rules not loaded'));
      }, RULES_PRELOAD_DELAY_MS).unref();
      postingJobs.settleLeftInFlight();
      // Posts follow the provider (DESIGN §6.9): the checks that came due, looked for every few seconds.
      if (confirmations)
        ctx.scheduler.every('post confirmations', CONFIRM_POLL_MS, () => confirmations.runDue());
    },
  };
}
