import {
  cancelPost,
  checkPost,
  deletePost,
  getQuota,
  listPosts,
  postAnalytics,
  postNowPost,
  postHistory,
  previewPost,
  reschedulePost,
  retryPost,
  schedulePost,
  syncPosts,
} from '../../../shared/api/posting.js';
import type { JobRow } from '../../kernel/jobs/repo.js';
import { AppError } from '../../kernel/app-error.js';
import type { PostsvcClient } from '../../peers/postsvc.js';
import type { AreaContext, Mount } from '../area.js';
import type { ApiPosting } from './api-posts.js';
import { postSocialPostNow, rescheduleSocialPost, retrySocialPost, type CrmPostDeps } from './crm-posts.js';
import { postingError } from './errors.js';
import { confirmationOf, ledgerStatus, listPostViews } from './posts-view.js';
import type { ProviderPosts } from './provider-posts.js';
import type { PostConfirmations } from './confirmations.js';
import type { QuotaTracker } from './quota.js';
import type { PostingRepo } from './repo.js';
import type { SocialPostWorkflow } from './social-posts.js';

export interface PostingRouteDeps {
  repo: PostingRepo;
  quota: QuotaTracker;
  client: PostsvcClient | null;
  api: ApiPosting | null;
  provider: ProviderPosts | null;
  workflow: SocialPostWorkflow | null;
  /** Posts follow the provider: the operator's Check again. */
  confirmations: PostConfirmations | null;
  /** Queues a SocialPost's webhook work again (the Retry of a CRM post). */
  retrySocialPost: (socialPostId: string) => JobRow;
}

const need = <T>(value: T | null): T => {
  if (value === null) throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
  return value;
};

export function postingRoutes(mount: Mount, ctx: AreaContext, deps: PostingRouteDeps): void {
  const { repo, quota, client, api, provider, workflow } = deps;
  mount(schedulePost, async ({ body }) => {
    try {
      return await need(api).schedule(body);
    } catch (error) {
      throw postingError(error);
    }
  });
  // The spec's delete keeps its meaning (a published post is taken down); the dashboard's Cancel never does.
  mount(deletePost, async ({ body }) => ({
    success: true,
    message: await need(api).cancel(body.id, 'delete'),
  }));
  mount(checkPost, async ({ body }) => {
    const row = repo.get(body.ledgerId);
    if (!row || row.state !== 'posted' || !row.postsvc_id)
      throw AppError.notFound(`ledgerId: no post ${body.ledgerId} the provider holds`);
    let checked;
    try {
      checked = await need(deps.confirmations).checkAgain(row.id);
    } catch (error) {
      throw postingError(error);
    }
    const status = checked ? ledgerStatus(checked) : 'scheduled';
    const confirmation = confirmationOf(checked, ctx.now());
    return {
      success: true,
      status,
      confirmation,
      message:
        confirmation === null
          ? `post ${row.postsvc_id} is ${status}`
          : `post ${row.postsvc_id} is not published yet: the bridge checks again every 2 min for an hour`,
    };
  });
  mount(cancelPost, async ({ body }) => ({
    success: true,
    message: await need(api).cancel(body.id, 'unless-live'),
  }));
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
      throw postingError(error, query.postId ? { field: 'postId', id: query.postId } : undefined);
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
    ...(await listPostViews({ repo, crm: ctx.peers.crm, now: ctx.now }, query)),
    quota: quota.snapshot(),
  }));
  mount(previewPost, async ({ body }) => {
    const review = await need(api).review(body);
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
    return { success: true, ...(await retrySocialPost(crmPosts(), body.socialPostId!)) };
  });
  mount(postNowPost, async ({ body }) => ({
    success: true,
    ...(await postSocialPostNow(crmPosts(), body.socialPostId)),
  }));
  mount(reschedulePost, async ({ body }) => {
    const { socialPostId, ledgerId, ...edit } = body;
    if (ledgerId !== undefined) {
      try {
        const answer = await need(api).reschedule(ledgerId, edit);
        return {
          success: true,
          status: answer.status,
          postsvcId: answer.id,
          warnings: answer.warnings,
          message: `post ${answer.id} ${answer.status}`,
        };
      } catch (error) {
        throw postingError(error);
      }
    }
    return { success: true, ...(await rescheduleSocialPost(crmPosts(), socialPostId!, edit)) };
  });

  /** The CRM side of retry and reschedule; both the CRM and the provider are needed. */
  function crmPosts(): CrmPostDeps {
    const crm = ctx.peers.crm;
    if (!crm) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    const posting = need(api);
    if (!workflow) throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
    return {
      crm,
      repo,
      now: ctx.now,
      review: (draft, exclude) => posting.review(draft, exclude),
      quota,
      runRecordWork: deps.retrySocialPost,
      waitFor: (jobId, timeoutMs) => ctx.jobs.waitFor(jobId, timeoutMs),
    };
  }
}
