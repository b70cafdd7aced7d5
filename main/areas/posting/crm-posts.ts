import type { PostReview } from '../../../shared/post-rules.js';
import type { PostDraftInput, PostViewStatus } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { AppError } from '../../kernel/app-error.js';
import type { JobRow } from '../../kernel/jobs/repo.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import { duePassedError, ruleError } from './errors.js';
import type { PostingRepo } from './repo.js';
import { quotaMessage, type QuotaTracker } from './quota.js';

/**
 * Retry and edit-and-reschedule of a CRM SocialPost from the dashboard (issue #14.3). The CRM
 * record stays the truth: the bridge writes the change onto it (status Scheduled) and runs the
 * record's own webhook work, which schedules it through the ledger as a new generation. The
 * CRM's echo of that write finds the record and the ledger in agreement and posts nothing.
 */

export interface CrmPostDeps {
  crm: CrmClient;
  repo: PostingRepo;
  now: () => Date;
  /** The posting rules' verdict, spacing included (ApiPosting.review), the post's own old time left out. */
  review: (draft: PostDraftInput, exclude: { socialPostId: string }) => Promise<PostReview>;
  /** Today's quota: with none left, a move is refused before its cancel (DESIGN §6.2). */
  quota: Pick<QuotaTracker, 'snapshot' | 'retryAfterS'>;
  /** Queues the record's webhook work now (in its lane). */
  runRecordWork: (socialPostId: string) => JobRow;
  waitFor: (jobId: number, timeoutMs: number) => Promise<unknown>;
}

export interface CrmPostOutcome {
  status: PostViewStatus;
  postsvcId: string | null;
  message: string;
}

export interface PostEdit {
  post: string;
  scheduleDate: string;
  platforms?: readonly PlatformKey[] | undefined;
  mediaUrls?: readonly string[] | undefined;
  hashtags: readonly string[];
}

async function findRecord(crm: CrmClient, id: string): Promise<CrmRecord> {
  const record = await crm.find('SocialPost', id);
  if (!record) throw AppError.notFound(`socialPostId: no SocialPost ${id}`);
  return record;
}

/** Retry as it is: refused when its time has passed (the operator edits it instead). */
export async function retrySocialPost(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const record = await findRecord(deps.crm, id);
  const at = typeof record.scheduledAt === 'string' ? Date.parse(record.scheduledAt) : NaN;
  if (!Number.isNaN(at) && at <= deps.now().getTime()) throw duePassedError(new Date(at));
  if (record.status !== 'Scheduled')
    await deps.crm.update('SocialPost', id, { status: 'Scheduled', error: null });
  return runAndReport(deps, id);
}

/**
 * Post now: a failed post (DESIGN §6.9: e.g. too late to go out by itself), or one still scheduled
 * ahead (a studio button's "post now", issue #29). The record's time becomes now and its own work
 * sends it, through the ledger, as a new generation: a scheduled post is first called back through
 * the one live-safe cancel, then created. The time is set a second in the past (CRM times are whole
 * seconds), so the post is judged late within the grace and published at once, never scheduled
 * for a moment already gone. A scheduled post whose time has come is refused: it may be going out.
 */
export async function postSocialPostNow(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const record = await findRecord(deps.crm, id);
  const at = typeof record.scheduledAt === 'string' ? Date.parse(record.scheduledAt) : NaN;
  const ahead = record.status === 'Scheduled' && !Number.isNaN(at) && at > deps.now().getTime();
  if (record.status !== 'Failed' && !ahead) {
    throw AppError.conflict(
      `socialPostId: SocialPost ${id} is ${String(record.status)}${record.status === 'Scheduled' ? ' and due' : ''}; only a failed post or one scheduled ahead is posted now`,
    );
  }
  const justPassed = new Date(Math.floor(deps.now().getTime() / 1000) * 1000 - 1000);
  await deps.crm.update('SocialPost', id, {
    scheduledAt: justPassed.toISOString(),
    status: 'Scheduled',
    error: null,
  });
  return runAndReport(deps, id);
}

/**
 * New text, time and media for a failed or cancelled CRM post, or a new time for one still
 * scheduled (the calendar's drag, issue #31); it keeps its one platform. The change is written
 * to the record (its `scheduledAt` included) before the record's work runs.
 */
export async function rescheduleSocialPost(
  deps: CrmPostDeps,
  id: string,
  edit: PostEdit,
): Promise<CrmPostOutcome & { warnings: string[] }> {
  const record = await findRecord(deps.crm, id);
  const platform = (typeof record.platform === 'string' ? record.platform : '').toLowerCase() as PlatformKey;
  if (edit.platforms && (edit.platforms.length !== 1 || edit.platforms[0] !== platform)) {
    throw AppError.validation(`platforms: a post from the CRM keeps its one platform (${platform})`);
  }
  const row = deps.repo.active(id);
  const cancelled = record.status === 'Draft' && row?.state === 'cancelled';
  const queued =
    record.status === 'Scheduled' && row?.state === 'posted' && row.provider_status === 'scheduled';
  if (record.status !== 'Failed' && !cancelled && !queued) {
    throw AppError.conflict(
      `socialPostId: SocialPost ${id} is ${String(record.status)}; only a failed, cancelled or scheduled post is rescheduled here`,
    );
  }
  if (queued && (row.schedule_date === null || Date.parse(row.schedule_date) <= deps.now().getTime())) {
    throw AppError.conflict(
      `socialPostId: SocialPost ${id} was due at ${row.schedule_date ?? 'once'} and may be out already; it is not moved`,
    );
  }
  const mediaUrls =
    edit.mediaUrls ?? (typeof record.mediaUrl === 'string' && record.mediaUrl ? [record.mediaUrl] : []);
  if (mediaUrls.length > 1) throw AppError.validation('mediaUrls: a post from the CRM has one media URL');
  const review = await deps.review(
    {
      post: edit.post,
      platforms: [platform],
      mediaUrls: [...mediaUrls],
      hashtags: [...edit.hashtags],
      scheduleDate: edit.scheduleDate,
      shortenLinks: true,
    },
    { socialPostId: id },
  );
  if (review.errors.length > 0) throw ruleError(review.errors);
  // A scheduled post is moved by the record's own work: §6.3's cancel, then the create. The
  // cancelled post still counts, so with no quota left nothing is touched.
  if (queued && deps.quota.snapshot().left < 1) {
    const quota = deps.quota.snapshot();
    throw AppError.tooMany('QUOTA_EXCEEDED', quotaMessage(quota), deps.quota.retryAfterS(), quota);
  }
  await deps.crm.update('SocialPost', id, {
    content: review.text,
    scheduledAt: new Date(edit.scheduleDate).toISOString(),
    mediaUrl: mediaUrls[0] ?? null,
    status: 'Scheduled',
    error: null,
  });
  return { ...(await runAndReport(deps, id)), warnings: review.warnings };
}

/** Runs the record's work and says where it got to within 8 s (it continues in the queue after). */
async function runAndReport(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const job = deps.runRecordWork(id);
  await deps.waitFor(job.id, 8_000);
  const row = deps.repo.active(id);
  const record = await deps.crm.find('SocialPost', id);
  const status: PostViewStatus =
    record?.status === 'Failed' ? 'failed' : row?.state === 'posted' ? 'scheduled' : 'sending';
  const postsvcId = row?.state === 'posted' ? row.postsvc_id : null;
  const message =
    status === 'failed'
      ? `SocialPost ${id} failed again: ${String(record?.error ?? '')}`
      : status === 'scheduled'
        ? `SocialPost ${id} scheduled (${postsvcId})`
        : `SocialPost ${id} is being sent`;
  return { status, postsvcId, message };
}
