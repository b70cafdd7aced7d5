import type { PostReview } from '../../../shared/post-rules.js';
import type { PostDraftInput, PostViewStatus } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { PostsvcPlan } from '../../config/config.js';
import { AppError } from '../../kernel/app-error.js';
import { MOVE_MARGIN_MS, timeChange } from './decide.js';
import type { PostingEngine } from './engine.js';
import { duePassedError, ruleError } from './errors.js';
import { utcMinute } from './late-posts.js';
import type { MoveOutcome } from './moves.js';
import { quotaMessage, type QuotaTracker } from './quota.js';
import type { RunOutcome } from './record-run.js';
import type { PostingRepo } from './repo.js';
import type { SocialPostChanges, SocialPostRecord, SocialPostRecords } from './social-post-record.js';

/**
 * The dashboard's actions on a CRM SocialPost (issues #14.3, #22.4, #31, #36): retry, post now,
 * edit or move, cancel. The CRM record stays the truth: the bridge writes the change onto it and
 * runs the record's one job, which brings the provider in line through the engine; the answer
 * says where that run got to. The CRM's echo of the write finds nothing more to do.
 */

export interface CrmPostDeps {
  records: SocialPostRecords;
  repo: PostingRepo;
  engine: PostingEngine;
  now: () => Date;
  plan: () => PostsvcPlan;
  /** The posting rules' verdict, spacing included (ApiPosting.review), the post's own old time left out. */
  review: (draft: PostDraftInput, exclude: { socialPostId: string }) => Promise<PostReview>;
  /** Today's quota: a change that creates a post anew is refused before its cancel when none is left. */
  quota: Pick<QuotaTracker, 'snapshot' | 'retryAfterS'>;
  /** Triggers the record's job and waits for the run that answers it (undefined: still running). */
  runAndWait: (socialPostId: string) => Promise<RunOutcome | undefined>;
}

export interface CrmPostOutcome {
  status: PostViewStatus;
  postsvcId: string | null;
  message: string;
  /** How the provider post changed. */
  how?: 'moved-in-place' | 'cancelled-and-created' | 'created';
  /** The record's time after its job ran (a concurrent CRM edit may have set another). */
  scheduledAt?: string | null;
}

export interface PostEdit {
  post: string;
  scheduleDate: string;
  platforms?: readonly PlatformKey[] | undefined;
  mediaUrls?: readonly string[] | undefined;
  hashtags: readonly string[];
}

async function findRecord(deps: CrmPostDeps, id: string): Promise<SocialPostRecord> {
  const record = await deps.records.read(id);
  if (!record) throw AppError.notFound(`socialPostId: no SocialPost ${id}`);
  return record;
}

/** Retry as it is: refused when its time has passed (the operator edits it instead). */
export async function retrySocialPost(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const record = await findRecord(deps, id);
  const at = record.scheduledAt ? Date.parse(record.scheduledAt) : NaN;
  if (!Number.isNaN(at) && at <= deps.now().getTime()) throw duePassedError(new Date(at));
  if (record.status !== 'Scheduled') await deps.records.write(id, { status: 'Scheduled', error: null });
  return runAndReport(deps, id);
}

/**
 * Post now: a failed post (DESIGN §6.9: e.g. too late to go out by itself), or one still scheduled
 * ahead (a studio button's "post now", issue #29). The record's time becomes now and its job sends
 * it, through the ledger, as a new generation: a scheduled post is first called back through the
 * one live-safe cancel, then created. The time is set a second in the past (CRM times are whole
 * seconds), so the post is judged late within the grace and published at once. A scheduled post
 * whose time has come is refused: it may be going out.
 */
export async function postSocialPostNow(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const record = await findRecord(deps, id);
  const at = record.scheduledAt ? Date.parse(record.scheduledAt) : NaN;
  const ahead = record.status === 'Scheduled' && !Number.isNaN(at) && at > deps.now().getTime();
  if (record.status !== 'Failed' && !ahead) {
    throw AppError.conflict(
      `socialPostId: SocialPost ${id} is ${record.status}${record.status === 'Scheduled' ? ' and due' : ''}; only a failed post or one scheduled ahead is posted now`,
    );
  }
  const justPassed = new Date(Math.floor(deps.now().getTime() / 1000) * 1000 - 1000);
  await deps.records.write(id, { scheduledAt: justPassed.toISOString(), status: 'Scheduled', error: null });
  return runAndReport(deps, id);
}

/**
 * A dashboard edit of a CRM post as the record and the rules see it: its one platform kept, a
 * failed, cancelled or scheduled post only, one media URL at most, and the rules' verdict (the
 * post's own old time left out of the spacing). Refused in words otherwise.
 */
async function editOf(deps: CrmPostDeps, id: string, edit: PostEdit) {
  const record = await findRecord(deps, id);
  const platform = record.platform.toLowerCase() as PlatformKey;
  if (edit.platforms && (edit.platforms.length !== 1 || edit.platforms[0] !== platform)) {
    throw AppError.validation(`platforms: a post from the CRM keeps its one platform (${platform})`);
  }
  const row = deps.repo.active(id);
  const cancelled = record.status === 'Draft' && row?.state === 'cancelled';
  const queued =
    record.status === 'Scheduled' && row?.state === 'posted' && row.provider_status === 'scheduled';
  if (record.status !== 'Failed' && !cancelled && !queued) {
    throw AppError.conflict(
      `socialPostId: SocialPost ${id} is ${record.status}; only a failed, cancelled or scheduled post is rescheduled here`,
    );
  }
  const mediaUrls = edit.mediaUrls ?? (record.mediaUrl ? [record.mediaUrl] : []);
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
  /** The row of a post the provider holds, scheduled: a change of it is a move or a cancel and a create. */
  const queuedRow = queued ? row : undefined;
  return { record, queuedRow, mediaUrls, review };
}

/**
 * New text, time and media for a failed or cancelled CRM post, or a new time (and text) for one
 * still scheduled (the calendar's drag, the Edit dialog); it keeps its one platform. A time-only
 * change of a scheduled post writes only `{scheduledAt}` and is moved in place where the plan
 * allows (issue #36.3); anything else is written whole and, for a scheduled post, cancelled and
 * created anew, its quota checked before anything is touched.
 */
export async function rescheduleSocialPost(
  deps: CrmPostDeps,
  id: string,
  edit: PostEdit,
): Promise<CrmPostOutcome & { warnings: string[] }> {
  const { record, queuedRow: row, mediaUrls, review } = await editOf(deps, id, edit);
  const queued = row !== undefined;
  if (review.errors.length > 0) throw ruleError(review.errors);
  const to = new Date(edit.scheduleDate).toISOString();
  const timeOnly = queued && review.text === record.content && (mediaUrls[0] ?? null) === record.mediaUrl;
  if (queued) {
    // Under 2 min from its time, or past it, the post may be going out: read, and not changed.
    if (Date.parse(row.schedule_date ?? row.publish_at) - deps.now().getTime() < MOVE_MARGIN_MS)
      await refuseNearPost(deps, row, await deps.engine.readFirst(row));
    const change = timeOnly ? timeChange(row, to, deps.now(), deps.plan()) : 'replace';
    if (change === 'replace' && timeOnly && deps.plan() !== 'free') throw tooCloseError(to);
    // Cancelled and created anew: the cancelled post still counts, so with no quota left nothing is touched.
    if (change === 'replace' && deps.quota.snapshot().left < 1) {
      const quota = deps.quota.snapshot();
      throw AppError.tooMany('QUOTA_EXCEEDED', quotaMessage(quota), deps.quota.retryAfterS(), quota);
    }
  }
  const changes: SocialPostChanges = timeOnly
    ? { scheduledAt: to }
    : {
        content: review.text,
        scheduledAt: to,
        mediaUrl: mediaUrls[0] ?? null,
        status: 'Scheduled',
        error: null,
      };
  await deps.records.write(id, changes);
  const outcome = await runAndReport(deps, id);
  const moved =
    outcome.scheduledAt && Date.parse(outcome.scheduledAt) !== Date.parse(to)
      ? `; the CRM record now says ${utcMinute(outcome.scheduledAt)} (changed in the CRM meanwhile: the CRM wins)`
      : '';
  return { ...outcome, message: `${outcome.message}${moved}`, warnings: review.warnings };
}

/**
 * The dashboard's Cancel (and the spec's /postsvc/delete, `deleteLive`) of a CRM post: the record
 * goes back to Draft and its job cancels what the ledger holds through the one live-safe cancel;
 * a post already out is kept, the record Published again, and the answer is 409 ALREADY_PUBLISHED.
 * The spec's delete takes the named post down first, live or not.
 */
export async function cancelSocialPost(
  deps: CrmPostDeps,
  socialPostId: string,
  postsvcId: string,
  options: { deleteLive: boolean },
): Promise<string> {
  const { repo, engine } = deps;
  const named = repo.byPostsvcId(postsvcId);
  const current = repo.active(socialPostId);
  const holdsNothing =
    !current ||
    current.state === 'cancelled' ||
    current.state === 'failed' ||
    (current.state === 'posted' && current.provider_status === 'deleted');
  const namedGone =
    named !== undefined && (named.state === 'cancelled' || named.provider_status === 'deleted');
  // Nothing left to cancel, and the spec's delete would find the provider without it: said before anything is written.
  if (namedGone && holdsNothing && !options.deleteLive)
    throw AppError.notFound(`id: the provider has no post ${postsvcId} (never created, or already deleted)`);
  let deleted = false;
  if (options.deleteLive) {
    deleted = (await engine.cancelId(postsvcId, named, { deleteLive: true })).kind === 'cancelled';
  }
  const written = await deps.records.write(socialPostId, { status: 'Draft', postsvcId: null });
  const run = await deps.runAndWait(socialPostId);
  if (run?.live && !options.deleteLive) {
    const where = run.live.platforms.join(', ');
    throw AppError.alreadyPublished(
      `id: post ${postsvcId} is already published on ${where}: nothing was cancelled. Deleting it takes it down from ${where}, where the public can see it now`,
      { platforms: run.live.platforms, postUrls: run.live.postUrls },
    );
  }
  const back = written === 'written' ? '; the CRM post is back to Draft' : '; the CRM record is gone';
  if (!run)
    return `post ${postsvcId}: the CRM post is set to Draft; its post at the provider is cancelled as soon as the work on the record in progress is done${back}`;
  if (!run.success)
    return `post ${postsvcId} not cancelled yet: ${run.error ?? 'failed'}; the bridge tries again${back}`;
  if (!deleted && !run.cancelled && !run.queued)
    throw AppError.notFound(`id: the provider has no post ${postsvcId} (never created, or already deleted)`);
  return `post ${postsvcId} cancelled${back}`;
}

/** What a reschedule would do, said before it is done (issue #36.3): nothing is written or sent. */
export interface ChangePreview {
  how: 'moved-in-place' | 'cancelled-and-created' | 'created' | 'not-moved';
  review: PostReview | null;
  message: string;
}

/** The same rules as `rescheduleSocialPost`, answered instead of applied. */
export async function previewSocialPostChange(
  deps: CrmPostDeps,
  id: string,
  edit: PostEdit,
): Promise<ChangePreview> {
  let change;
  try {
    change = await editOf(deps, id, edit);
  } catch (error) {
    // What the reschedule would refuse (a platform, a state), said as "not moved"; an unknown id stays 404.
    if (!(error instanceof AppError) || error.kind === 'not-found') throw error;
    return { how: 'not-moved', review: null, message: error.message };
  }
  const { record, queuedRow: row, mediaUrls, review } = change;
  if (!row)
    return { how: 'created', review, message: "sent anew as a new provider post: one post of today's quota" };
  const timeOnly = review.text === record.content && (mediaUrls[0] ?? null) === record.mediaUrl;
  return {
    ...changeOf(row, timeOnly, new Date(edit.scheduleDate).toISOString(), deps.now(), deps.plan()),
    review,
  };
}

/** How a change of a post the provider holds would go (pure): moved in place, cancelled and created, or not at all. */
export function changeOf(
  row: { schedule_date: string | null; publish_at: string },
  timeOnly: boolean,
  to: string,
  now: Date,
  plan: PostsvcPlan,
): Omit<ChangePreview, 'review'> {
  if (Date.parse(row.schedule_date ?? row.publish_at) - now.getTime() < MOVE_MARGIN_MS)
    return {
      how: 'not-moved',
      message:
        'under 2 min from its time, or past it: the post is read first and not changed (it may be going out)',
    };
  const time = timeOnly ? timeChange(row, to, now, plan) : 'replace';
  if (time !== 'replace')
    return { how: 'moved-in-place', message: 'moved in place at the provider: the same post, no quota used' };
  if (timeOnly && plan !== 'free')
    return {
      how: 'not-moved',
      message: 'under 2 min from now: a post is moved in place only to a time at least 2 min ahead',
    };
  return {
    how: 'cancelled-and-created',
    message: `cancelled at the provider and created anew${timeOnly ? ' (the free plan cannot move a post in place)' : ''}: the cancelled post still counts, so this uses one more post of today's quota`,
  };
}

/** Runs the record's job and says where it got to (it continues in the queue after the wait). */
async function runAndReport(deps: CrmPostDeps, id: string): Promise<CrmPostOutcome> {
  const run = await deps.runAndWait(id);
  const row = deps.repo.active(id);
  const record = await deps.records.read(id);
  const status: PostViewStatus =
    record?.status === 'Failed' ? 'failed' : row?.state === 'posted' ? 'scheduled' : 'sending';
  const postsvcId = row?.state === 'posted' ? row.postsvc_id : null;
  const how = run?.how;
  const message =
    status === 'failed'
      ? `SocialPost ${id} failed again: ${record?.error ?? ''}`
      : status === 'sending'
        ? `SocialPost ${id} is being sent`
        : how === 'moved-in-place'
          ? `SocialPost ${id} moved in place at the provider (${postsvcId}): the same post, no quota used`
          : how === 'cancelled-and-created'
            ? `SocialPost ${id} scheduled (${postsvcId}): the old post was cancelled and a new one created, which used one post of today's quota`
            : `SocialPost ${id} scheduled (${postsvcId})`;
  return { status, postsvcId, message, ...(how ? { how } : {}), scheduledAt: record?.scheduledAt ?? null };
}

/** A post under 2 min from its time, or past it, is not moved: out (409 ALREADY_PUBLISHED), or due now. */
export async function refuseNearPost(
  deps: Pick<CrmPostDeps, 'now'>,
  row: { id: number; postsvc_id: string | null; publish_at: string },
  read: MoveOutcome,
): Promise<never> {
  if (read.kind === 'live') {
    const where = read.platforms.join(', ');
    throw AppError.alreadyPublished(
      `scheduleDate: post ${row.postsvc_id} is already published on ${where}: it is not moved`,
      { platforms: read.platforms, postUrls: read.postUrls },
    );
  }
  if (read.kind === 'due')
    throw AppError.conflict(
      `scheduleDate: post ${row.postsvc_id} is due now (${utcMinute(row.publish_at)}, ${Math.max(0, Math.round((Date.parse(row.publish_at) - deps.now().getTime()) / 1000))} s away): not moved; it goes out at that time`,
    );
  if (read.kind === 'gone')
    throw AppError.conflict(`scheduleDate: the provider no longer has post ${row.postsvc_id}: not moved`);
  throw AppError.conflict(`scheduleDate: ${read.kind === 'refused' ? read.message : 'not moved'}`);
}

/** On a plan that moves in place, a time under 2 min ahead is refused rather than costing a new post. */
export function tooCloseError(to: string): AppError {
  return AppError.conflict(
    `scheduleDate: ${utcMinute(to)} is under 2 min from now; a scheduled post is moved in place only to a time at least 2 min ahead (or use Post now)`,
  );
}
