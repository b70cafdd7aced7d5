import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { errorCodes, type ErrorCode, type ResponseOf } from '../../../shared/api/contract.js';
import type { PostViewStatus, postDraftBody, schedulePost } from '../../../shared/api/posting.js';
import type { NearbyPost } from '../../../shared/post-rules.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import type { PostsvcPlan } from '../../config/config.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { capitalize, named } from '../../kernel/activity/subjects.js';
import { AppError } from '../../kernel/app-error.js';
import { followUpLane, type Lane } from '../../kernel/jobs/lane.js';
import type { PostResult } from '../../peers/postsvc.js';
import type { ClipMedia } from '../area.js';
import { clipMediaIssues } from './clip-media.js';
import { changeOf, refuseNearPost, tooCloseError, type ChangePreview, type PostEdit } from './crm-posts.js';
import { MOVE_MARGIN_MS, timeChange } from './decide.js';
import type { EngineResult, PostingEngine } from './engine.js';
import { duePassedError, ruleError } from './errors.js';
import { apiPostKey, bodyHash, contentHash, type OutgoingPost } from './keys.js';
import { utcMinute } from './late-posts.js';
import { mergedPlatformStates, rowPlatformStates } from './platform-states.js';
import { postRules } from './post-rules.js';
import { ledgerPostSubject, postSubjectOf } from './post-subject.js';
import { quotaMessage, type QuotaTracker } from './quota.js';
import type { LedgerRow, PostingRepo } from './repo.js';

type Draft = z.output<typeof postDraftBody>;
type ScheduleAnswer = ResponseOf<typeof schedulePost>;
/** A dashboard post's reschedule: the schedule answer and how the provider post changed. */
export type RescheduleAnswer = ScheduleAnswer & {
  how: 'moved-in-place' | 'cancelled-and-created' | 'created';
};

export interface ApiPostingDeps {
  engine: PostingEngine;
  repo: PostingRepo;
  quota: QuotaTracker;
  activity: ActivityLog;
  now: () => Date;
  plan: () => PostsvcPlan;
  /** Posts going out within the spacing window of `at` (the ledger's and the CRM's), those excluded left out. */
  nearby: (at: number, exclude: { socialPostId?: string | null; id?: number }) => Promise<NearbyPost[]>;
  /** The renders area's clip media made ready (their expiry, length, ratio); null for any other URL. */
  clipMedia: (url: string) => ClipMedia | null;
  /** Called when a create's outcome is unknown: a job settles it from the provider's history later. */
  reconcileLater: (row: LedgerRow, delayMs: number) => void;
  /** Runs work holding a lane (JobQueue.withLane): the changes of one dashboard post take turns. */
  withLane: <T>(lane: Lane, work: () => Promise<T>, waitMs?: number) => Promise<T>;
}

/**
 * Posts scheduled through the API (POST /postsvc/schedule) and the dashboard's actions on them:
 * the same rules as the CRM's posts and the same engine (one claim-and-send, one cancel, one move).
 * They have no CRM record: a post's changes take turns in a lane of its own.
 */
export class ApiPosting {
  constructor(private readonly deps: ApiPostingDeps) {}

  /** The rules' verdict on a draft, with spacing against the ledger and the CRM (the composer's preview). */
  async review(
    draft: Draft & { idempotencyKey?: string | undefined },
    exclude: { socialPostId?: string | null; id?: number } = {},
  ) {
    const now = this.deps.now();
    // The post already sent under this key (a partial failure keeps the form) is not spaced against itself.
    const own = draft.idempotencyKey
      ? this.deps.repo.byKey(apiPostKey(draft.idempotencyKey, randomUUID))
      : undefined;
    const at = draft.scheduleDate ? Date.parse(draft.scheduleDate) : now.getTime();
    // A date out of bounds is a rule broken (the review says which): no window is computed
    // around it (at ±275,760 years, 2 hours further is no date: RangeError, a 500).
    const outOfBounds = draft.scheduleDate && dateBoundIssue('scheduleDate', draft.scheduleDate, now);
    const nearby =
      Number.isNaN(at) || outOfBounds
        ? []
        : await this.deps.nearby(at, own ? { ...exclude, id: own.id } : exclude);
    const { reviewPost } = await postRules();
    const review = reviewPost({ ...draft, scheduleDate: draft.scheduleDate ?? null }, { now, nearby });
    const clips = clipMediaIssues(draft, Number.isNaN(at) ? now : new Date(at), this.deps.clipMedia);
    return {
      ...review,
      errors: [...review.errors, ...clips.errors],
      warnings: [...review.warnings, ...clips.warnings],
    };
  }

  async schedule(
    draft: Draft & { idempotencyKey?: string | undefined },
    signal?: AbortSignal,
  ): Promise<ScheduleAnswer> {
    const { repo, engine } = this.deps;
    const review = await this.review(draft);
    const scheduleDate =
      draft.scheduleDate && !Number.isNaN(Date.parse(draft.scheduleDate))
        ? new Date(draft.scheduleDate).toISOString()
        : null;
    const outgoing = {
      post: review.text,
      platforms: [...draft.platforms],
      mediaUrls: [...draft.mediaUrls],
      scheduleDate,
    };
    const hash = contentHash(outgoing);
    const key = apiPostKey(draft.idempotencyKey, randomUUID);

    // A repeated request is answered from the ledger before the rules (its date may have passed since).
    const earlier = draft.idempotencyKey ? repo.byKey(key) : undefined;
    if (earlier) return this.again(earlier, hash, review.warnings, signal);
    if (review.errors.length > 0) throw ruleError(review.errors);

    const claim = engine.claim({
      ...this.claimOf(outgoing),
      idempotencyKey: key,
      contentProductionId: draft.contentProductionId ?? null,
      clipId: draft.clipId ?? null,
    });
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') return this.again(claim.row, hash, review.warnings, signal);
    return this.send(claim.row, review.warnings, signal);
  }

  /**
   * Cancels (scheduled) or deletes (published, `deleteLive`: the spec's /postsvc/delete) a dashboard
   * post, or a provider post the ledger does not know, through the engine's one cancel: the
   * dashboard's Cancel never deletes a live post (409 ALREADY_PUBLISHED, DESIGN §6.9).
   */
  async cancel(postsvcId: string, options: { deleteLive: boolean }, signal?: AbortSignal): Promise<string> {
    const row = this.deps.repo.byPostsvcId(postsvcId);
    const work = () => this.cancelNow(postsvcId, options, signal);
    return row ? this.inLane(this.rootOf(row.id, false), work) : work();
  }

  private async cancelNow(
    postsvcId: string,
    options: { deleteLive: boolean },
    signal?: AbortSignal,
  ): Promise<string> {
    const { engine, repo, activity } = this.deps;
    const row = repo.byPostsvcId(postsvcId);
    const outcome: EngineResult =
      row?.state === 'posted'
        ? await engine.cancel(row, { signal, deleteLive: options.deleteLive })
        : await engine.cancelId(postsvcId, row, { signal, deleteLive: options.deleteLive });
    const subject = postSubjectOf({ postsvcId }, row);
    if (outcome.kind === 'live') {
      const where = outcome.platforms.join(', ');
      activity.record(
        'posting.still-live',
        'warn',
        `Cancel of ${named(subject)} refused: it is already live on ${where}; nothing was deleted`,
        { subject, ledgerId: row?.id ?? null, postsvcId, socialPostId: null, platforms: outcome.platforms },
      );
      throw AppError.alreadyPublished(
        `id: post ${postsvcId} is already published on ${where}: nothing was cancelled. Deleting it takes it down from ${where}, where the public can see it now`,
        { platforms: outcome.platforms, postUrls: outcome.postUrls },
      );
    }
    if (outcome.kind !== 'cancelled' || !outcome.existed)
      throw AppError.notFound(
        `id: the provider has no post ${postsvcId} (never created, or already deleted)`,
      );
    activity.record(
      'posting.cancelled',
      'info',
      `${capitalize(named(subject))} cancelled from the bridge API`,
      {
        subject,
        postsvcId,
        postsvcIds: [postsvcId],
        socialPostId: null,
      },
    );
    return `post ${postsvcId} cancelled`;
  }

  /**
   * The operator's retry of an API post, at its time (one that has passed needs an edit): a
   * failed post is sent again with its own key; a partly failed one sends only its failed
   * platforms, as a new provider post in the same ledger (issue #14.11).
   */
  retry(ledgerId: number, signal?: AbortSignal): Promise<ScheduleAnswer> {
    const root = this.rootOf(ledgerId);
    return this.inLane(root, async () => {
      if (root.state === 'posted') {
        const { failed } = this.platformsOf(root);
        return this.sendAgain(
          root,
          {
            platforms: failed,
            post: root.post,
            mediaUrls: root.media_urls,
            scheduleDate: root.schedule_date,
          },
          [],
          signal,
        );
      }
      if (root.state !== 'failed')
        throw AppError.conflict(`ledgerId: post ${ledgerId} has not failed (it is ${root.state})`);
      this.assertStillAhead(root.schedule_date);
      return this.again(root, root.content_hash, [], signal, true);
    });
  }

  /**
   * Edit and reschedule an API post (issues #14.3, #31, #36): a post still wholly scheduled gets a
   * new time (and text); a failed or cancelled one is replaced by a new ledger generation (the old
   * row stays failed or cancelled); a partly live one sends only platforms it did not go out on.
   */
  reschedule(ledgerId: number, edit: PostEdit, signal?: AbortSignal): Promise<RescheduleAnswer> {
    const root = this.rootOf(ledgerId);
    return this.inLane(root, () => this.rescheduleNow(this.deps.repo.get(root.id) ?? root, edit, signal));
  }

  private async rescheduleNow(
    root: LedgerRow,
    edit: PostEdit,
    signal?: AbortSignal,
  ): Promise<RescheduleAnswer> {
    if (root.state === 'posted' && this.isWhollyQueued(root)) return this.change(root, edit, signal);
    const { failed, live } = this.platformsOf(root);
    if (edit.platforms === undefined && live.length > 0 && failed.length === 0) {
      // The post's state, not the request, leaves nothing to send: a conflict, not a bad request.
      throw AppError.conflict(
        `ledgerId: post ${root.id} went out on every platform; there is nothing to reschedule`,
      );
    }
    const platforms = edit.platforms ?? (live.length > 0 ? failed : root.platforms);
    const review = await this.review({
      post: edit.post,
      platforms: [...platforms],
      mediaUrls: [...(edit.mediaUrls ?? root.media_urls)],
      hashtags: [...edit.hashtags],
      scheduleDate: edit.scheduleDate,
      shortenLinks: true,
    });
    if (review.errors.length > 0) throw ruleError(review.errors);
    const outgoing = {
      post: review.text,
      platforms: [...platforms],
      mediaUrls: [...(edit.mediaUrls ?? root.media_urls)],
      scheduleDate: new Date(edit.scheduleDate).toISOString(),
    };
    const answer =
      live.length > 0
        ? await this.sendAgain(root, outgoing, review.warnings, signal)
        : await this.replace(root, outgoing, review.warnings, signal);
    return { ...answer, how: 'created' };
  }

  /**
   * A post still queued at the provider gets a new time, and text, media or platforms (the
   * calendar's drag, the Edit dialog; issues #31, #36.3, #40.1), checked by the same rules (its own old time left out of the
   * spacing). A time-only change on premium and business is moved in place (PATCH: the same post,
   * no quota); anything else is the one cancel and a new generation, the quota checked before the
   * cancel (the cancelled post still counts, DESIGN §6.2). A post under 2 min from its time, or
   * past it, is read and not changed. A create that fails leaves the new generation Failed: never
   * two live posts.
   */
  private async change(root: LedgerRow, edit: PostEdit, signal?: AbortSignal): Promise<RescheduleAnswer> {
    const { engine, now, plan } = this.deps;
    if (Date.parse(root.schedule_date ?? root.publish_at) - now().getTime() < MOVE_MARGIN_MS)
      await refuseNearPost(this.deps, root, await engine.readFirst(root, signal));
    const platforms = [...(edit.platforms ?? root.platforms)];
    const mediaUrls = [...(edit.mediaUrls ?? root.media_urls)];
    const review = await this.review(
      {
        post: edit.post,
        platforms,
        mediaUrls,
        hashtags: [...edit.hashtags],
        scheduleDate: edit.scheduleDate,
        shortenLinks: true,
      },
      { id: root.id },
    );
    if (review.errors.length > 0) throw ruleError(review.errors);
    const to = new Date(edit.scheduleDate).toISOString();
    const timeOnly = bodyHash({ post: review.text, platforms, mediaUrls }) === bodyHashOf(root);
    const time = timeOnly ? timeChange(root, to, now(), plan()) : 'replace';
    if (time !== 'replace') {
      const moved = await engine.move(root, to, signal);
      if (moved.kind !== 'moved') return refuseNearPost(this.deps, root, moved);
      const subject = ledgerPostSubject(moved.row);
      this.deps.activity.record(
        'posting.moved',
        'info',
        `${capitalize(named(subject))} moved in place at the provider from ${utcMinute(moved.from)} to ${utcMinute(to)} (the same post, no quota used)`,
        { subject, ledgerId: root.id, postsvcId: root.postsvc_id, from: moved.from, to },
      );
      return { ...answer(moved.row, null, review.warnings, false), how: 'moved-in-place' };
    }
    if (timeOnly && plan() !== 'free') throw tooCloseError(to);
    if (this.deps.quota.snapshot().left < 1) throw this.quotaError();
    const cancelled = await engine.cancel(root, { signal });
    if (cancelled.kind === 'live') return refuseNearPost(this.deps, root, { ...cancelled, row: root });
    const outgoing = { post: review.text, platforms, mediaUrls, scheduleDate: to };
    const replaced = await this.replace(
      this.deps.repo.get(root.id) ?? root,
      outgoing,
      review.warnings,
      signal,
    );
    return { ...replaced, how: 'cancelled-and-created' };
  }

  /** What `reschedule` would do with this edit, said before it is done: nothing is sent. */
  async previewChange(ledgerId: number, edit: PostEdit): Promise<ChangePreview> {
    const root = this.rootOf(ledgerId);
    const queued = root.state === 'posted' && this.isWhollyQueued(root);
    const platforms = edit.platforms ?? root.platforms;
    const mediaUrls = [...(edit.mediaUrls ?? root.media_urls)];
    const review = await this.review(
      {
        post: edit.post,
        platforms: [...platforms],
        mediaUrls,
        hashtags: [...edit.hashtags],
        scheduleDate: edit.scheduleDate,
        shortenLinks: true,
      },
      queued ? { id: root.id } : {},
    );
    if (!queued)
      return {
        how: 'created',
        review,
        message: "sent anew as a new provider post: one post of today's quota",
      };
    const timeOnly = bodyHash({ post: review.text, platforms, mediaUrls }) === bodyHashOf(root);
    const to = new Date(edit.scheduleDate).toISOString();
    return { ...changeOf(root, timeOnly, to, this.deps.now(), this.deps.plan()), review };
  }

  /** Every platform of the post queued at the provider by its first and only provider post. */
  private isWhollyQueued(root: LedgerRow): boolean {
    if (this.deps.repo.retriesOf(root.id).length > 0) return false;
    const states = rowPlatformStates(root);
    return states.length > 0 && states.every((state) => state.status === 'scheduled');
  }

  /** A new ledger generation in place of a failed or cancelled post, sent to the provider. */
  private async replace(
    root: LedgerRow,
    outgoing: OutgoingPost & { platforms: PlatformKey[] },
    warnings: string[],
    signal?: AbortSignal,
  ): Promise<ScheduleAnswer> {
    const claim = this.deps.engine.supersede(root, {
      ...this.claimOf(outgoing),
      ...linksOf(root),
      idempotencyKey: `${root.idempotency_key.split(':g-')[0]}:g-${randomUUID().slice(0, 8)}`,
    });
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') {
      throw AppError.conflict(
        `ledgerId: post ${root.id} is no longer failed or cancelled (it was changed meanwhile); nothing was sent`,
      );
    }
    return this.send(claim.row, warnings, signal);
  }

  /** The post the dashboard shows for this ledger id: a retry of failed platforms belongs to its first post. */
  private rootOf(ledgerId: number, strict = true): LedgerRow {
    const row = this.deps.repo.get(ledgerId);
    if (!row || (strict && row.source !== 'api'))
      throw AppError.notFound(`ledgerId: no post ${ledgerId} scheduled through the API`);
    return row.retry_of === null ? row : (this.deps.repo.get(row.retry_of) ?? row);
  }

  /** Which platforms of a post failed and which are out or on their way, its retries included. */
  private platformsOf(root: LedgerRow): { failed: PlatformKey[]; live: PlatformKey[] } {
    const states = mergedPlatformStates(root, this.deps.repo.retriesOf(root.id));
    const of = (...statuses: PostViewStatus[]) =>
      states.filter((s) => statuses.includes(s.status)).map((s) => s.platform as PlatformKey);
    return { failed: of('failed'), live: of('scheduled', 'published', 'sending', 'checking') };
  }

  /**
   * Sends platforms of a partly failed post again, as a new provider post that retries it: never
   * a platform the post is live on (that would post twice), each retry under its own key.
   */
  private async sendAgain(
    root: LedgerRow,
    outgoing: Omit<OutgoingPost, 'platforms'> & { platforms: PlatformKey[] },
    warnings: string[],
    signal?: AbortSignal,
  ): Promise<ScheduleAnswer> {
    const { live } = this.platformsOf(root);
    if (outgoing.platforms.length === 0) {
      throw AppError.conflict(
        `ledgerId: nothing of this post has failed (${live.join(', ')}: scheduled, published or being sent); nothing was sent`,
      );
    }
    const twice = outgoing.platforms.filter((platform) => live.includes(platform));
    if (twice.length > 0) {
      throw AppError.conflict(
        `platforms: this post is already out or on its way on ${twice.join(', ')}; choose only platforms it failed on or new ones`,
      );
    }
    this.assertStillAhead(outgoing.scheduleDate);
    const claim = this.deps.engine.claim({
      ...this.claimOf(outgoing),
      ...linksOf(root),
      idempotencyKey: `${root.idempotency_key}:p${this.deps.repo.retriesOf(root.id).length + 1}`,
      retryOf: root.id,
    });
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists')
      throw AppError.conflict('ledgerId: the failed platforms of this post are being sent right now');
    return this.send(claim.row, warnings, signal);
  }

  private assertStillAhead(scheduleDate: string | null): void {
    if (scheduleDate && Date.parse(scheduleDate) <= this.deps.now().getTime())
      throw duePassedError(new Date(scheduleDate));
  }

  /** The same key again: the stored post, or a settled/renewed attempt — never a second post. */
  private async again(
    row: LedgerRow,
    hash: string,
    warnings: string[],
    signal?: AbortSignal,
    renew = false,
  ): Promise<ScheduleAnswer> {
    const { engine } = this.deps;
    if (row.content_hash !== hash) {
      throw AppError.conflict(
        'idempotencyKey: already used for a different post (text, platforms, media or date differ)',
      );
    }
    if (engine.isMine(row)) throw AppError.conflict('idempotencyKey: this post is being sent right now');
    let current = row;
    if (current.state === 'claimed' || current.state === 'unknown') {
      const resolved = await engine.settle(current, signal);
      if (resolved.kind === 'pending') throw this.pendingError(resolved.row, resolved.reason);
      current = this.deps.repo.get(current.id) ?? current;
    }
    if (current.state === 'posted') return answer(current, null, warnings, true);
    if (current.state === 'cancelled') {
      throw AppError.conflict(
        `idempotencyKey: post ${current.postsvc_id} was cancelled; send a new key to post again`,
      );
    }
    if (current.refused) {
      // The provider's verdict on this key stands; the operator's retry sends it under a new key.
      if (!renew) throw refusedError(current);
      const claim = engine.claim({
        ...this.claimOf({
          post: current.post,
          platforms: current.platforms,
          mediaUrls: current.media_urls,
          scheduleDate: current.schedule_date,
        }),
        idempotencyKey: `${current.idempotency_key.split(':r-')[0]}:r-${randomUUID().slice(0, 8)}`,
        ...linksOf(current),
        contentHash: current.content_hash,
      });
      if (claim.kind === 'quota') throw this.quotaError();
      if (claim.kind === 'exists') throw AppError.conflict('this post is being sent right now');
      engine.retire(current);
      return this.send(claim.row, warnings, signal);
    }
    const claim = engine.reclaim(current);
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') return this.again(claim.row, hash, warnings, signal, renew);
    return this.send(claim.row, warnings, signal);
  }

  /** The engine's one send, waiting out a short 429 (the operator waits on the answer, DESIGN §6.2). */
  private async send(row: LedgerRow, warnings: string[], signal?: AbortSignal): Promise<ScheduleAnswer> {
    let outcome;
    try {
      outcome = await this.deps.engine.send(row, { signal, waitOutShortRateLimit: true });
    } catch (error) {
      const failed = this.deps.repo.get(row.id);
      this.deps.activity.record(
        'posting.failed',
        'error',
        `${capitalize(named(ledgerPostSubject(row)))} to ${row.platforms.join(', ')} failed: ${(error as Error).message}`,
        {
          subject: ledgerPostSubject(failed ?? row),
          ledgerId: row.id,
          postsvcId: failed?.postsvc_id ?? null,
        },
      );
      if (failed?.state === 'unknown') this.deps.reconcileLater(failed, 30_000);
      throw error;
    }
    if (outcome.kind === 'pending') throw this.pendingError(outcome.row, outcome.reason, outcome.retryInMs);
    this.deps.activity.record(
      'posting.scheduled',
      'info',
      `${capitalize(named(ledgerPostSubject(outcome.row)))} ${outcome.row.schedule_date ? `scheduled for ${outcome.row.schedule_date}` : 'published'} on ${row.platforms.join(', ')}`,
      { subject: ledgerPostSubject(outcome.row), ledgerId: row.id, postsvcId: outcome.row.postsvc_id },
    );
    return answer(outcome.row, outcome.result, warnings, false);
  }

  /** A dashboard post as a claim: its hashes (with and without its time) and where it goes. */
  private claimOf(outgoing: OutgoingPost) {
    return {
      socialPostId: null,
      source: 'api' as const,
      contentHash: contentHash(outgoing),
      bodyHash: bodyHash(outgoing),
      post: outgoing.post,
      platforms: [...outgoing.platforms],
      mediaUrls: [...outgoing.mediaUrls],
      scheduleDate: outgoing.scheduleDate,
    };
  }

  /** The changes of one dashboard post take turns (two moves, a move and a cancel). */
  private inLane<T>(root: LedgerRow, work: () => Promise<T>): Promise<T> {
    return this.deps.withLane(followUpLane('post', String(root.id)), work);
  }

  private pendingError(row: LedgerRow, reason: string, retryInMs = 30_000): AppError {
    this.deps.reconcileLater(row, retryInMs);
    return AppError.peer(
      'PLATFORM_ERROR',
      `the provider did not confirm the post (${reason}); the bridge will not send it again, it checks the provider's history and the dashboard shows the outcome`,
      `ledger ${row.id}, idempotencyKey ${row.idempotency_key}`,
    );
  }

  private quotaError(): AppError {
    const quota = this.deps.quota.snapshot();
    return AppError.tooMany('QUOTA_EXCEEDED', quotaMessage(quota), this.deps.quota.retryAfterS(), quota);
  }
}

/** A new generation or retry of a post links to what the post links to. */
function linksOf(row: LedgerRow): { contentProductionId: string | null; clipId: string | null } {
  return { contentProductionId: row.content_production_id, clipId: row.clip_id };
}

function bodyHashOf(row: LedgerRow): string {
  return row.body_hash ?? bodyHash({ post: row.post, platforms: row.platforms, mediaUrls: row.media_urls });
}

function refusedError(row: LedgerRow): AppError {
  const code = (errorCodes as readonly string[]).includes(row.error_code ?? '')
    ? (row.error_code as ErrorCode)
    : 'PLATFORM_ERROR';
  return AppError.peer(
    code,
    `${row.error ?? 'the provider refused this post'} (answered before for this idempotencyKey)`,
  );
}

function answer(
  row: LedgerRow,
  result: PostResult | null,
  warnings: string[],
  reused: boolean,
): ScheduleAnswer {
  const status =
    row.provider_status === 'scheduled' || (row.provider_status !== 'published' && row.schedule_date)
      ? 'scheduled'
      : 'published';
  const posts = result
    ? result.postIds.map((entry) => ({
        platform: entry.platform,
        status: entry.status,
        postId: entry.id ?? null,
        postUrl: entry.postUrl ?? null,
      }))
    : row.platforms.map((platform) => ({
        platform,
        status: row.provider_status ?? status,
        postId: null,
        postUrl: null,
      }));
  return {
    success: true,
    id: row.postsvc_id!,
    status,
    post: row.post,
    scheduleDate: row.schedule_date,
    posts,
    warnings,
    reused,
  };
}
