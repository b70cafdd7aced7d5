import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { errorCodes, type ErrorCode, type ResponseOf } from '../../../shared/api/contract.js';
import type { PostViewStatus, postDraftBody, schedulePost } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { postRules } from './post-rules.js';
import type { CrmClient } from '../../peers/crm.js';
import { PostsvcError, type PostResult, type PostsvcClient } from '../../peers/postsvc.js';
import { AppError } from '../../kernel/app-error.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { duePassedError, postingError, ruleError } from './errors.js';
import { apiPostKey, contentHash, type OutgoingPost } from './keys.js';
import type { PostEdit } from './crm-posts.js';
import { mergedPlatformStates, rowPlatformStates } from './platform-states.js';
import { quotaMessage, type QuotaTracker } from './quota.js';
import { postsNear } from './spacing.js';
import { dateBoundIssue } from '../../../shared/time-bounds.js';
import { crmRecordLane, type Lane } from '../../kernel/jobs/lane.js';
import { LaneBusyError } from '../../kernel/jobs/lane-locks.js';
import type { PostScheduler, SendOutcome } from './scheduler.js';
import type { LiveSafeCancel } from './live-cancel.js';
import { capitalize, named } from '../../kernel/activity/subjects.js';
import { ledgerPostSubject, postSubjectOf } from './post-subject.js';

/**
 * `delete`: the spec's /postsvc/delete — cancels a scheduled post and deletes a published one.
 * `unless-live`: the dashboard's Cancel — a post already out on a platform is never deleted
 * (409 ALREADY_PUBLISHED); the operator then asks for the delete by name (DESIGN §6.9).
 */
export type CancelMode = 'delete' | 'unless-live';

type Draft = z.output<typeof postDraftBody>;
type ScheduleAnswer = ResponseOf<typeof schedulePost>;

export interface ApiPostingDeps {
  client: PostsvcClient;
  /** The dashboard's cancel: never deletes a live post (DESIGN §6.9). */
  liveCancel: LiveSafeCancel;
  crm: CrmClient | null;
  repo: PostingRepo;
  scheduler: PostScheduler;
  quota: QuotaTracker;
  activity: ActivityLog;
  now: () => Date;
  /** Called when a create's outcome is unknown: a job settles it from the provider's history later. */
  reconcileLater: (row: LedgerRow, delayMs: number) => void;
  /** Held by the social-* webhook runs of a record; the API cancel takes it too. */
  /** Runs work holding a SocialPost's lane (JobQueue.withLane). */
  withLane: <T>(lane: Lane, work: () => Promise<T>, waitMs?: number) => Promise<T>;
  /** How long the API cancel waits for a record's running webhook work (default 20 s). */
  cancelWaitMs?: number;
  /** A run of the record's webhook work later (in its lane): it brings the provider in line with the record. */
  cancelLater: (socialPostId: string) => void;
}

/** POST /postsvc/schedule and /postsvc/delete (spec §4.1): the same ledger and rules as the webhooks. */
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
        : await postsNear(this.deps, at, own ? { ...exclude, id: own.id } : exclude);
    const { reviewPost } = await postRules();
    return reviewPost({ ...draft, scheduleDate: draft.scheduleDate ?? null }, { now, nearby });
  }

  async schedule(
    draft: Draft & { idempotencyKey?: string | undefined },
    signal?: AbortSignal,
  ): Promise<ScheduleAnswer> {
    const { repo, scheduler } = this.deps;
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

    const claim = scheduler.claim({
      socialPostId: null,
      source: 'api',
      idempotencyKey: key,
      contentHash: hash,
      ...outgoing,
    });
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') return this.again(claim.row, hash, review.warnings, signal);
    return this.send(claim.row, review.warnings, signal);
  }

  /**
   * Cancels (scheduled) or deletes (published) a provider post; the CRM record it belongs to goes back to Draft.
   *
   * A post of a SocialPost is cancelled while holding that record's lock, which the social-*
   * webhook item jobs and posting jobs hold while they run: its `SocialPost:<id>` lane.
   * This request is not a job: without the lane it could cancel the old post while a
   * reschedule (cancel + create) is between its two calls, and the new post would go out
   * after the operator cancelled. Holding the lane, nothing else touches the record's provider
   * posts, and whatever a reschedule that ran just before left live (the record's current post)
   * is cancelled too. Holding the lane rather than queueing a job in it: a job would wait
   * behind a retry the queue has put off for minutes, and the operator needs the answer now.
   */
  async cancel(postsvcId: string, mode: CancelMode, signal?: AbortSignal): Promise<string> {
    const socialPostId = this.deps.repo.byPostsvcId(postsvcId)?.social_post_id ?? null;
    if (!socialPostId) return this.cancelNow(postsvcId, null, mode, signal);
    try {
      return await this.deps.withLane(
        crmRecordLane('SocialPost', socialPostId),
        () => this.cancelNow(postsvcId, socialPostId, mode, signal),
        this.deps.cancelWaitMs ?? 20_000,
      );
    } catch (error) {
      if (!(error instanceof LaneBusyError)) throw error;
      throw AppError.conflict(
        `id: SocialPost ${socialPostId} is being updated at the provider right now; nothing was cancelled, try again in a few seconds`,
      );
    }
  }

  private async cancelNow(
    postsvcId: string,
    socialPostId: string | null,
    mode: CancelMode,
    signal?: AbortSignal,
  ) {
    const { client, repo, crm, activity, now } = this.deps;
    const row = repo.byPostsvcId(postsvcId);
    let existed: boolean;
    try {
      if (mode === 'delete') existed = await client.delete(postsvcId, signal);
      else {
        const outcome =
          row?.state === 'posted'
            ? await this.deps.liveCancel.cancelRow(row, signal)
            : await this.deps.liveCancel.cancelId(postsvcId, row?.publish_at ?? null, row, signal);
        if (outcome.kind === 'live') return await this.refuseLive(postsvcId, row, socialPostId, outcome);
        existed = outcome.existed;
      }
    } catch (error) {
      throw postingError(error);
    }
    if (row?.state === 'posted') repo.markCancelled(row.id, now());
    const cancelled = existed ? [postsvcId] : [];
    let pending = false;
    let note = '';
    // A reschedule that ran before this request got the lock replaced the post: its replacement goes too.
    const current = socialPostId ? repo.active(socialPostId) : undefined;
    if (current?.state === 'posted' && current.postsvc_id && current.postsvc_id !== postsvcId) {
      try {
        if (mode === 'delete') {
          if (await client.delete(current.postsvc_id, signal)) cancelled.push(current.postsvc_id);
          repo.markCancelled(current.id, now());
          note = '; its replacement was cancelled too';
        } else {
          const outcome = await this.deps.liveCancel.cancelRow(current, signal);
          if (outcome.kind === 'cancelled' && outcome.existed) cancelled.push(current.postsvc_id);
          note =
            outcome.kind === 'live'
              ? `; its replacement is already live on ${outcome.platforms.join(', ')} and was kept`
              : '; its replacement was cancelled too';
        }
      } catch (error) {
        // The record still goes to Draft: the follow-up run finds the live post and cancels it.
        this.deps.cancelLater(current.social_post_id!);
        note = `; its replacement could not be cancelled yet (${(error as Error).message}), the bridge retries`;
        pending = true;
      }
    } else if (current?.state === 'claimed' || current?.state === 'unknown') {
      // A replacement whose create is not confirmed yet: with the record at Draft, the follow-up
      // run settles it from the provider's history and cancels it if it was created.
      this.deps.cancelLater(socialPostId!);
      note = `; its replacement (not confirmed by the provider yet) will be cancelled once it is`;
      pending = true;
    }
    if (cancelled.length === 0 && !pending)
      throw AppError.notFound(
        `id: the provider has no post ${postsvcId} (never created, or already deleted)`,
      );
    if (socialPostId && crm) {
      try {
        await crm.update('SocialPost', socialPostId, { status: 'Draft', postsvcId: null });
        note += '; the CRM post is back to Draft';
      } catch (error) {
        note += `; the CRM post could not be set back to Draft (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    const subject = postSubjectOf({ socialPostId, postsvcId }, row);
    activity.record(
      'posting.cancelled',
      'info',
      `${capitalize(named(subject, socialPostId ? 'CRM post' : undefined))} cancelled from the bridge API${note}`,
      { subject, postsvcId, postsvcIds: cancelled, socialPostId },
    );
    return `post ${postsvcId} cancelled${note}`;
  }

  /**
   * The dashboard's Cancel met a live post: nothing deleted. The CRM record follows the provider
   * (Published), and the answer is 409 ALREADY_PUBLISHED naming the platforms, so the dashboard
   * offers "Delete from <platform>…" instead.
   */
  private async refuseLive(
    postsvcId: string,
    row: LedgerRow | undefined,
    socialPostId: string | null,
    live: { platforms: PlatformKey[]; postUrls: string[] },
  ): Promise<never> {
    const { crm, activity } = this.deps;
    if (socialPostId && crm) {
      try {
        await crm.update('SocialPost', socialPostId, { status: 'Published', postsvcId });
      } catch {
        // The confirmation checks write it later; the answer does not wait on the CRM.
      }
    }
    const where = live.platforms.join(', ');
    const subject = postSubjectOf({ socialPostId, postsvcId }, row);
    activity.record(
      'posting.still-live',
      'warn',
      `Cancel of ${named(subject)} refused: it is already live on ${where}; nothing was deleted`,
      { subject, ledgerId: row?.id ?? 0, postsvcId, socialPostId, platforms: live.platforms },
    );
    throw AppError.alreadyPublished(
      `id: post ${postsvcId} is already published on ${where}: nothing was cancelled. Deleting it takes it down from ${where}, where the public can see it now`,
      { platforms: live.platforms, postUrls: live.postUrls },
    );
  }

  /**
   * The operator's retry of an API post, at its time (one that has passed needs an edit): a
   * failed post is sent again with its own key; a partly failed one sends only its failed
   * platforms, as a new provider post in the same ledger (issue #14.11).
   */
  async retry(ledgerId: number, signal?: AbortSignal): Promise<ScheduleAnswer> {
    const root = this.rootOf(ledgerId);
    if (root.state === 'posted') {
      const { failed } = this.platformsOf(root);
      return this.sendAgain(
        root,
        { platforms: failed, post: root.post, mediaUrls: root.media_urls, scheduleDate: root.schedule_date },
        [],
        signal,
      );
    }
    if (root.state !== 'failed')
      throw AppError.conflict(`ledgerId: post ${ledgerId} has not failed (it is ${root.state})`);
    this.assertStillAhead(root.schedule_date);
    return this.again(root, root.content_hash, [], signal, true);
  }

  /**
   * Edit and reschedule a failed or cancelled API post (issue #14.3): new text, time, platforms
   * and media, checked by the same rules. Nothing of it live: a new ledger generation replaces it
   * (the old row stays failed or cancelled). Partly live: only platforms it did not go out on
   * are sent, as a retry of it.
   */
  async reschedule(ledgerId: number, edit: PostEdit, signal?: AbortSignal): Promise<ScheduleAnswer> {
    const root = this.rootOf(ledgerId);
    if (root.state === 'posted' && this.isWhollyQueued(root)) return this.move(root, edit, signal);
    const { failed, live } = this.platformsOf(root);
    if (edit.platforms === undefined && live.length > 0 && failed.length === 0) {
      // The post's state, not the request, leaves nothing to send: a conflict, not a bad request.
      throw AppError.conflict(
        `ledgerId: post ${ledgerId} went out on every platform; there is nothing to reschedule`,
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
    if (live.length > 0) return this.sendAgain(root, outgoing, review.warnings, signal);
    return this.replace(root, outgoing, review.warnings, signal);
  }

  /**
   * Moves a post still queued at the provider to a new time (the calendar's drag, issue #31): the
   * same rules as any reschedule (its own old time left out of the spacing check), then the one
   * cancel (DESIGN §6.9) and a new ledger generation. The quota is checked before the cancel: the
   * cancelled post still counts (DESIGN §6.2), so with nothing left the create would be refused
   * after the old post was gone. A create that fails leaves the new generation Failed, which the
   * dashboard offers to edit: never two live posts.
   */
  private async move(root: LedgerRow, edit: PostEdit, signal?: AbortSignal): Promise<ScheduleAnswer> {
    if (root.schedule_date === null || Date.parse(root.schedule_date) <= this.deps.now().getTime()) {
      throw AppError.conflict(
        `ledgerId: post ${root.id} was due at ${root.schedule_date ?? 'once'} and may be out already; it is not moved`,
      );
    }
    if (
      edit.platforms !== undefined &&
      [...edit.platforms].sort().join() !== [...root.platforms].sort().join()
    ) {
      // A conflict with this post's state, not a malformed request: 409 (the OpenAPI fuzz sends
      // documented-valid bodies with any platforms).
      throw AppError.conflict(
        `platforms: a scheduled post keeps its platforms (${root.platforms.join(', ')}) when it is moved`,
      );
    }
    const mediaUrls = [...(edit.mediaUrls ?? root.media_urls)];
    const review = await this.review(
      {
        post: edit.post,
        platforms: [...root.platforms],
        mediaUrls,
        hashtags: [...edit.hashtags],
        scheduleDate: edit.scheduleDate,
        shortenLinks: true,
      },
      { id: root.id },
    );
    if (review.errors.length > 0) throw ruleError(review.errors);
    if (this.deps.quota.snapshot().left < 1) throw this.quotaError();
    await this.cancel(root.postsvc_id!, 'unless-live', signal);
    const outgoing = {
      post: review.text,
      platforms: [...root.platforms],
      mediaUrls,
      scheduleDate: new Date(edit.scheduleDate).toISOString(),
    };
    return this.replace(this.deps.repo.get(root.id) ?? root, outgoing, review.warnings, signal);
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
    const ledgerId = root.id;
    const claim = this.deps.repo.supersede(
      root.id,
      {
        socialPostId: null,
        source: 'api',
        idempotencyKey: `${root.idempotency_key.split(':g-')[0]}:g-${randomUUID().slice(0, 8)}`,
        contentHash: contentHash(outgoing),
        ...outgoing,
      },
      this.deps.scheduler.claimContext(),
    );
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') {
      throw AppError.conflict(
        `ledgerId: post ${ledgerId} is no longer failed or cancelled (it was changed meanwhile); nothing was sent`,
      );
    }
    return this.send(claim.row, warnings, signal);
  }

  /** The post the dashboard shows for this ledger id: a retry of failed platforms belongs to its first post. */
  private rootOf(ledgerId: number): LedgerRow {
    const row = this.deps.repo.get(ledgerId);
    if (!row || row.source !== 'api')
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
    const claim = this.deps.scheduler.claim({
      socialPostId: null,
      source: 'api',
      idempotencyKey: `${root.idempotency_key}:p${this.deps.repo.retriesOf(root.id).length + 1}`,
      contentHash: contentHash(outgoing),
      ...outgoing,
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
    const { scheduler } = this.deps;
    if (row.content_hash !== hash) {
      throw AppError.conflict(
        'idempotencyKey: already used for a different post (text, platforms, media or date differ)',
      );
    }
    if (scheduler.isMine(row)) throw AppError.conflict('idempotencyKey: this post is being sent right now');
    let current = row;
    if (current.state === 'claimed' || current.state === 'unknown') {
      const resolved = await scheduler.resolve(current, signal).catch((error: unknown) => {
        throw postingError(error);
      });
      if (resolved.kind === 'pending') throw this.pendingError(resolved.row, resolved.reason);
      current = resolved.row;
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
      const claim = scheduler.claim({
        socialPostId: null,
        source: 'api',
        idempotencyKey: `${current.idempotency_key.split(':r-')[0]}:r-${randomUUID().slice(0, 8)}`,
        contentHash: current.content_hash,
        post: current.post,
        platforms: current.platforms,
        mediaUrls: current.media_urls,
        scheduleDate: current.schedule_date,
      });
      if (claim.kind === 'quota') throw this.quotaError();
      if (claim.kind === 'exists') throw AppError.conflict('this post is being sent right now');
      this.deps.repo.retire(current.id, this.deps.now());
      return this.send(claim.row, warnings, signal);
    }
    const claim = scheduler.reclaimFailed(current);
    if (claim.kind === 'quota') throw this.quotaError();
    if (claim.kind === 'exists') return this.again(claim.row, hash, warnings, signal, renew);
    return this.send(claim.row, warnings, signal);
  }

  private async send(row: LedgerRow, warnings: string[], signal?: AbortSignal): Promise<ScheduleAnswer> {
    let outcome: SendOutcome;
    try {
      outcome = await this.sendWaitingOutShortRateLimit(row, signal);
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
      throw postingError(error);
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

  /**
   * The operator waits on this request (DESIGN §6.2): a provider 429 whose Retry-After is at most
   * 3 s is waited out and the create sent once more; a longer one (or a second 429) is the answer.
   * A 429 created nothing, so the resend is safe, and it goes through the same ledger row, claimed
   * again with the same idempotencyKey: never a second live post. The wait is the client's own:
   * after a 429 it holds every request of the profile back until Retry-After has passed (and, if
   * another 429 meanwhile asks for more than 3 s, it refuses to send with RATE_LIMIT instead).
   */
  private async sendWaitingOutShortRateLimit(row: LedgerRow, signal?: AbortSignal): Promise<SendOutcome> {
    const { scheduler, repo } = this.deps;
    try {
      return await scheduler.send(row, signal);
    } catch (error) {
      if (!isShortRateLimit(error)) throw error;
      const failed = repo.get(row.id);
      if (failed?.state !== 'failed' || failed.refused) throw error;
      const claim = scheduler.reclaimFailed(failed);
      if (claim.kind === 'quota') throw this.quotaError();
      // Another request with this key took the row first: its answer is the post, this one's is the 429.
      if (claim.kind === 'exists') throw error;
      return await scheduler.send(claim.row, signal);
    }
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

/** The longest provider Retry-After a request the operator waits on sits through (DESIGN §6.2). */
const WAIT_OUT_RETRY_AFTER_S = 3;

/** A provider 429 (nothing created) that asks for a wait of at most 3 s. */
function isShortRateLimit(error: unknown): error is PostsvcError {
  if (!(error instanceof PostsvcError) || error.code !== 'RATE_LIMIT' || error.status !== 429) return false;
  const retryAfterS = error.details.retryAfterS;
  return retryAfterS !== undefined && retryAfterS <= WAIT_OUT_RETRY_AFTER_S;
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
