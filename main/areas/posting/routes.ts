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
  previewReschedule,
  reschedulePost,
  retryPost,
  schedulePost,
  syncPosts,
} from '../../../shared/api/posting.js';
import type { PostsvcPlan } from '../../config/config.js';
import { AppError } from '../../kernel/app-error.js';
import type { AreaContext, Mount } from '../area.js';
import type { ApiPosting } from './api-posts.js';
import {
  cancelSocialPost,
  previewSocialPostChange,
  postSocialPostNow,
  rescheduleSocialPost,
  retrySocialPost,
  type CrmPostDeps,
} from './crm-posts.js';
import type { PostingEngine } from './engine.js';
import { confirmationOf, ledgerStatus } from './posts-view.js';
import { listWithPublished, type MeasuredPosts } from './published-posts.js';
import type { ProviderPosts } from './provider-posts.js';
import type { PostConfirmations } from './confirmations.js';
import type { QuotaTracker } from './quota.js';
import type { RunOutcome } from './record-run.js';
import type { PostingRepo } from './repo.js';
import type { SocialPostRecords } from './social-post-record.js';

export interface PostingRouteDeps {
  repo: PostingRepo;
  /** The CRM's SocialPost records; null without a CRM. */
  records: SocialPostRecords | null;
  /** Null without a provider. */
  engine: PostingEngine | null;
  quota: QuotaTracker;
  plan: () => PostsvcPlan;
  api: ApiPosting | null;
  provider: ProviderPosts | null;
  /** Posts follow the provider: the operator's Check again. */
  confirmations: PostConfirmations | null;
  /** Runs a SocialPost's one job (joining it if it waits or runs) and waits for the run that answers. */
  runAndWait: (socialPostId: string) => Promise<RunOutcome | undefined>;
  /** The provider's published posts as collections measured them; null when analytics does not run. */
  measured: () => MeasuredPosts | null;
}

const need = <T>(value: T | null): T => {
  if (value === null) throw AppError.notConfigured('the posting provider', 'POSTSVC_URL and POSTSVC_API_KEY');
  return value;
};

export function postingRoutes(mount: Mount, ctx: AreaContext, deps: PostingRouteDeps): void {
  const { repo, quota, api, provider } = deps;
  /** The cancel of a post: a CRM post's through its record, a dashboard post's (or an unknown one's) directly. */
  const cancel = (postsvcId: string, deleteLive: boolean) => {
    const socialPostId = repo.byPostsvcId(postsvcId)?.social_post_id;
    return socialPostId
      ? cancelSocialPost(crmPosts(), socialPostId, postsvcId, { deleteLive })
      : need(api).cancel(postsvcId, { deleteLive });
  };
  mount(schedulePost, ({ body }) => need(api).schedule(body));
  // The spec's delete keeps its meaning (a published post is taken down); the dashboard's Cancel never does.
  mount(deletePost, async ({ body }) => ({ success: true, message: await cancel(body.id, true) }));
  mount(checkPost, async ({ body }) => {
    const row = repo.get(body.ledgerId);
    if (!row || row.state !== 'posted' || !row.postsvc_id)
      throw AppError.notFound(`ledgerId: no post ${body.ledgerId} the provider holds`);
    const checked = await need(deps.confirmations).checkAgain(row.id);
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
  mount(cancelPost, async ({ body }) => ({ success: true, message: await cancel(body.id, false) }));
  mount(postHistory, async ({ query }) => ({ success: true, data: await need(provider).history(query) }));
  mount(postAnalytics, async ({ query }) => {
    const posts = need(provider);
    if (query.postId)
      return { success: true, postId: query.postId, ...(await posts.postAnalytics(query.postId)) };
    const platform = query.platform!;
    return { success: true, platform, analytics: await posts.accountAnalytics(platform) };
  });
  mount(syncPosts, async () => ({ success: true, ...(await need(provider).sync()) }));
  mount(listPosts, async ({ query }) => ({
    success: true,
    ...(await listWithPublished(
      { repo, records: deps.records, now: ctx.now, measured: deps.measured },
      query,
    )),
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
      const answer = await need(api).retry(body.ledgerId);
      return {
        success: true,
        status: answer.status,
        postsvcId: answer.id,
        message: `post ${answer.id} ${answer.status}`,
      };
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
      const answer = await need(api).reschedule(ledgerId, edit);
      const left = quota.snapshot().left;
      return {
        success: true,
        status: answer.status,
        postsvcId: answer.id,
        warnings: answer.warnings,
        how: answer.how,
        scheduledAt: answer.scheduleDate,
        message:
          answer.how === 'moved-in-place'
            ? `post ${answer.id} moved in place at the provider: the same post, no quota used`
            : `post ${answer.id} ${answer.status}: a new provider post, which used one post of today's quota (${left} left)`,
      };
    }
    return { success: true, ...(await rescheduleSocialPost(crmPosts(), socialPostId!, edit)) };
  });

  mount(previewReschedule, async ({ body }) => {
    const { socialPostId, ledgerId, ...edit } = body;
    const preview =
      ledgerId !== undefined
        ? await need(api).previewChange(ledgerId, edit)
        : await previewSocialPostChange(crmPosts(), socialPostId!, edit);
    const errors = preview.review?.errors ?? [];
    const quotaNow = quota.snapshot();
    const how = errors.length > 0 ? 'not-moved' : preview.how;
    return {
      success: true,
      how,
      quotaCost: how === 'cancelled-and-created' || how === 'created' ? 1 : 0,
      quota: quotaNow,
      errors,
      warnings: preview.review?.warnings ?? [],
      message: errors.length > 0 ? errors.map((error) => error.message).join('; ') : preview.message,
    };
  });

  /** The CRM side of retry, post now, reschedule and cancel; both the CRM and the provider are needed. */
  function crmPosts(): CrmPostDeps {
    const { records } = deps;
    if (!records) throw AppError.notConfigured('the CRM', 'CRM_URL and CRM_API_KEY');
    const posting = need(api);
    return {
      records,
      repo,
      engine: need(deps.engine),
      now: ctx.now,
      plan: deps.plan,
      review: (draft, exclude) => posting.review(draft, exclude),
      quota,
      runAndWait: deps.runAndWait,
    };
  }
}
