import {
  deletePost,
  getQuota,
  listPosts,
  postAnalytics,
  postHistory,
  previewPost,
  retryPost,
  schedulePost,
  syncPosts,
} from '../../../shared/api/posting.js';
import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import { PostsvcClient } from '../../peers/postsvc.js';
import type { FeatureFactory } from '../../core.js';
import { AppError } from '../../kernel/app-error.js';
import { backoffDelayMs, peerRetryBackoff } from '../../kernel/jobs/backoff.js';
import { RetryLaterError } from '../../kernel/jobs/queue.js';
import { ApiPosting, socialPostLock } from './api-posts.js';
import { postingError } from './errors.js';
import { listPostViews } from './posts-view.js';
import { ProviderPosts } from './provider-posts.js';
import { QuotaTracker } from './quota.js';
import { RecordLocks } from './record-lock.js';
import { PostScheduler } from './scheduler.js';
import { RetryPosting, SocialPostWorkflow, type SocialEvent } from './social-posts.js';
import { createPostingRepo, type LedgerRow } from './repo.js';

export interface PostingFeatureOptions {
  /** Provider request timeout (default 15 s): a create that runs out of it has an unknown outcome. */
  timeoutMs?: number;
  /** How long an unconfirmed create may still appear in the provider's history (default 60 s). */
  unknownGraceMs?: number;
  /** Provider requests per second the client allows itself (default 5, bursts of twice that). */
  providerPerSecond?: number;
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
export const postingFeatureWith =
  (options: PostingFeatureOptions = {}): FeatureFactory =>
  (core) => {
    const repo = createPostingRepo(core.db);
    const quota = new QuotaTracker(repo, () => core.config.postsvc?.plan ?? 'free', core.now);
    core.health.quota = () => quota.snapshot();
    const config = core.config.postsvc;
    const client = config
      ? new PostsvcClient({
          url: config.url,
          apiKey: config.apiKey,
          onAttempt: core.peers.observer('postsvc'),
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.providerPerSecond ? { perSecond: options.providerPerSecond } : {}),
        })
      : null;
    const scheduler = client
      ? new PostScheduler({
          client,
          repo,
          now: core.now,
          quotaLimit: () => quota.limit(),
          ...(options.unknownGraceMs !== undefined ? { unknownGraceMs: options.unknownGraceMs } : {}),
        })
      : null;
    const workflow =
      client && scheduler && core.crm
        ? new SocialPostWorkflow({
            crm: core.crm,
            client,
            scheduler,
            repo,
            activity: core.activity,
            quota,
            now: core.now,
          })
        : null;

    const enqueueSocialPost = (socialPostId: string, event: SocialEvent, delayMs: number) =>
      core.jobs.enqueue({
        kind: SOCIAL_POST_JOB,
        payload: { socialPostId, event } satisfies SocialPostJob,
        lane: `SocialPost:${socialPostId}`,
        delayMs,
      });
    const reconcileLater = (row: LedgerRow, delayMs: number) =>
      core.jobs.enqueue({
        kind: RECONCILE_JOB,
        payload: { ledgerId: row.id },
        dedupeKey: `${RECONCILE_JOB}:${row.id}:${row.attempts}`,
        delayMs,
      });
    // Every run of a record's webhook work holds its lock, so the API cancel (not a queue job) never
    // interleaves with a reschedule of the same record (see ApiPosting.cancel).
    const locks = new RecordLocks();
    const handleLocked = (
      flow: SocialPostWorkflow,
      ...[event, item, run]: Parameters<SocialPostWorkflow['handle']>
    ) => locks.run(socialPostLock(item.id), () => flow.handle(event, item, run));
    const api =
      client && scheduler
        ? new ApiPosting({
            client,
            crm: core.crm,
            repo,
            scheduler,
            quota,
            activity: core.activity,
            now: core.now,
            reconcileLater,
            locks,
            cancelLater: (socialPostId) =>
              enqueueSocialPost(socialPostId, 'social-updated', backoffDelayMs(1, peerRetryBackoff)),
          })
        : null;
    const provider = client
      ? new ProviderPosts({
          client,
          crm: core.crm,
          repo,
          activity: core.activity,
          db: core.db,
          now: core.now,
        })
      : null;

    const need = <T>(value: T | null): T => {
      if (value === null)
        throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
      return value;
    };

    // The webhook's own attempt; a retryable failure continues in a posting job (backoff, Retry-After).
    for (const event of ['social-created', 'social-updated', 'social-deleted'] as const) {
      core.webhooks.setHandler(event, async (item, context): Promise<ItemOutcome> => {
        if (!workflow) {
          return {
            success: true,
            skipped: true,
            reason: 'posting needs both a CRM and a posting provider configured',
          };
        }
        try {
          return await handleLocked(workflow, event, item, { signal: context.signal, lastAttempt: false });
        } catch (error) {
          if (!(error instanceof RetryPosting)) throw error;
          const delayMs = error.delayMs ?? backoffDelayMs(1, peerRetryBackoff);
          enqueueSocialPost(item.id, event === 'social-deleted' ? event : 'social-updated', delayMs);
          core.activity.record(
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
      });
    }

    core.jobs.register<SocialPostJob>(
      SOCIAL_POST_JOB,
      async ({ socialPostId, event }, context) => {
        if (!workflow) return { skipped: true };
        const lastAttempt = context.attempt >= context.job.max_attempts;
        try {
          const outcome = await handleLocked(
            workflow,
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

    core.jobs.register<{ ledgerId: number }>(
      RECONCILE_JOB,
      async ({ ledgerId }, context) => {
        const row = repo.get(ledgerId);
        if (!scheduler || !row || (row.state !== 'claimed' && row.state !== 'unknown'))
          return { settled: row?.state ?? null };
        const resolved = await scheduler.resolve(row, context.signal);
        if (resolved.kind === 'pending') throw new RetryLaterError(resolved.reason, resolved.retryInMs);
        if (resolved.kind === 'posted') {
          core.activity.record(
            'posting.confirmed',
            'info',
            `post ${resolved.row.postsvc_id} confirmed from the provider's history`,
            {
              ledgerId,
              postsvcId: resolved.row.postsvc_id,
            },
          );
        } else {
          core.activity.record(
            'posting.failed',
            'error',
            `post to ${JSON.parse(row.platforms).join(', ')} was not created by the provider; schedule it again`,
            { ledgerId },
          );
        }
        return { settled: resolved.kind };
      },
      { describe: ({ ledgerId }) => `posting: settle ledger ${ledgerId}` },
    );

    return {
      name: 'posting',
      mountRoutes(mount) {
        mount(schedulePost, async ({ body }) => {
          try {
            return await need(api).schedule(body);
          } catch (error) {
            throw postingError(error);
          }
        });
        mount(deletePost, async ({ body }) => ({ success: true, message: await need(api).cancel(body.id) }));
        mount(postHistory, async ({ query }) => {
          try {
            return { success: true, data: await need(provider).history(query) };
          } catch (error) {
            throw postingError(error);
          }
        });
        mount(postAnalytics, async ({ query }) => {
          const postsvc = need(client);
          try {
            if (query.postId) {
              const perPlatform = await postsvc.analyticsPost(query.postId);
              const analytics: Record<
                string,
                { likes: number; comments: number; shares: number; impressions: number; clicks: number }
              > = {};
              const errors: Record<string, string> = {};
              for (const [platform, value] of Object.entries(perPlatform)) {
                if (value.ok) analytics[platform] = value.metrics;
                else errors[platform] = value.error;
              }
              return { success: true, postId: query.postId, analytics, errors };
            }
            const platform = query.platform!;
            const answer = (await postsvc.analyticsSocial([platform]))[platform];
            if (!answer?.ok) {
              throw AppError.peer(
                'PLATFORM_ERROR',
                `posting provider has no analytics for ${platform}`,
                answer?.error,
              );
            }
            const { followers, following, impressions, engagement, engagementRate } = answer.metrics;
            return {
              success: true,
              platform,
              analytics: { followers, following, impressions, engagement, engagementRate },
            };
          } catch (error) {
            throw postingError(error);
          }
        });
        mount(syncPosts, async () => {
          try {
            return { success: true, ...(await need(provider).sync()) };
          } catch (error) {
            throw postingError(error);
          }
        });
        mount(listPosts, async ({ query }) => ({
          success: true,
          ...(await listPostViews({ repo, crm: core.crm }, query)),
          quota: quota.snapshot(),
        }));
        mount(previewPost, ({ body }) => {
          const review = need(api).review(body);
          return {
            success: true,
            post: review.text,
            lengths: review.lengths,
            errors: review.errors,
            warnings: review.warnings,
            quota: quota.snapshot(),
          };
        });
        mount(getQuota, () => ({ success: true, quota: quota.snapshot() }));
        mount(retryPost, async ({ body }) => {
          if (body.ledgerId !== undefined) {
            try {
              const answer = await need(api).retry(body.ledgerId);
              return {
                success: true,
                status: answer.status,
                postsvcId: answer.id,
                message: `post ${answer.id} ${answer.status}`,
              };
            } catch (error) {
              throw postingError(error);
            }
          }
          const id = body.socialPostId!;
          const crm = core.crm;
          if (!crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
          if (!workflow)
            throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
          const record = await crm.find('SocialPost', id);
          if (!record) throw AppError.notFound(`socialPostId: no SocialPost ${id}`);
          if (record.status !== 'Scheduled')
            await crm.update('SocialPost', id, { status: 'Scheduled', error: null });
          const job = enqueueSocialPost(id, 'social-updated', 0);
          await core.jobs.waitFor(job.id, 8_000);
          const row = repo.active(id);
          const now = await crm.find('SocialPost', id);
          const status =
            now?.status === 'Failed' ? 'failed' : row?.state === 'posted' ? 'scheduled' : 'sending';
          return {
            success: true,
            status,
            postsvcId: row?.state === 'posted' ? row.postsvc_id : null,
            message:
              status === 'failed'
                ? `SocialPost ${id} failed again: ${String(now?.error ?? '')}`
                : status === 'scheduled'
                  ? `SocialPost ${id} scheduled (${row?.postsvc_id})`
                  : `SocialPost ${id} is being retried`,
          };
        });
      },
      start() {
        // Creates left in flight by a process that stopped, or unconfirmed: settle them from the provider's history.
        for (const row of repo.unsettled()) {
          if (row.claim_token === scheduler?.token) continue;
          if (row.social_post_id) {
            core.jobs.enqueue({
              kind: SOCIAL_POST_JOB,
              payload: { socialPostId: row.social_post_id, event: 'social-updated' } satisfies SocialPostJob,
              lane: `SocialPost:${row.social_post_id}`,
              dedupeKey: `posting.settle:${row.id}:${row.attempts}:${row.updated_at}`,
            });
          } else {
            core.jobs.enqueue({
              kind: RECONCILE_JOB,
              payload: { ledgerId: row.id },
              dedupeKey: `posting.settle:${row.id}:${row.attempts}:${row.updated_at}`,
            });
          }
        }
      },
    };
  };

export const postingFeature = postingFeatureWith();
