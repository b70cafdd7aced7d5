import type { Logger } from 'pino';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { crmRecordLane, type Lane } from '../../kernel/jobs/lane.js';
import { LaneBusyError } from '../../kernel/jobs/lane-locks.js';
import type { PostsvcClient } from '../../peers/postsvc.js';
import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import { providerVerdict, type ProviderVerdict } from './provider-state.js';
import { ledgerPostSubject, ledgerPostWords } from './post-subject.js';
import type { PostingEngine } from './engine.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { SocialPostChanges, SocialPostRecords } from './social-post-record.js';

/** After the first check at the post's time + 30 s, the next ones come this often (DESIGN §6.9). */
export const CHECK_EVERY_MS = 2 * 60_000;
/** How often the bridge looks for checks that came due (cheap: one indexed query). */
export const CONFIRM_POLL_MS = 5_000;
/** A check that could not be made (provider or CRM unreachable, the record busy) is tried again this soon. */
const RETRY_CHECK_MS = 30_000;
/** GET /history answers at most this many posts (DESIGN §5.2). */
const MAX_HISTORY = 1_000;
/** Posts checked per run; more wait for the next poll. */
const BATCH = 100;

export interface PostConfirmationsDeps {
  client: PostsvcClient;
  records: SocialPostRecords | null;
  /** The ledger's transitions: what the provider said, the next check. */
  engine: PostingEngine;
  repo: PostingRepo;
  activity: ActivityLog;
  logger: Logger;
  now: () => Date;
  /** Runs work holding a SocialPost's lane (JobQueue.withLane): the write-back takes turns with its webhooks. */
  withLane: <T>(lane: Lane, work: () => Promise<T>, waitMs?: number) => Promise<T>;
}

/**
 * Posts follow the provider (DESIGN §6.9): a post the provider holds for a time changes there
 * with no call from the bridge, and nobody tells it. The ledger keeps a schedule of checks (its
 * time + 30 s, then every 2 min for an hour, migration 016); each run reads the posts due in one
 * GET /history call deep enough for them, and by id (GET /post/{id}) those history no longer
 * reaches. A final post is written to its CRM record (Published, or Failed with the platform's
 * words) and to the ledger, which the Posts page reads with the post URLs; one still scheduled
 * after the hour is "unconfirmed" (never Failed by guess) until the operator's Check again.
 */
export class PostConfirmations {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: PostConfirmationsDeps) {}

  /** The checks due now, one run at a time (the timer's and an operator's Check again never overlap). */
  runDue(): Promise<number> {
    const run = this.chain.then(() => this.checkDue());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Check again (the operator): this post is checked now and, if still not final, for another hour. */
  async checkAgain(ledgerId: number): Promise<LedgerRow | undefined> {
    const { repo, engine, now } = this.deps;
    const at = now();
    engine.nextCheck({ id: ledgerId }, at, new Date(at.getTime() + 60 * 60_000));
    await this.runDue();
    return repo.get(ledgerId);
  }

  private async checkDue(): Promise<number> {
    const { repo, engine, client, now, logger } = this.deps;
    const due = repo.dueChecks(now(), BATCH).filter((row) => row.postsvc_id !== null);
    if (due.length === 0) return 0;
    const found = new Map<string, ProviderHistoryItem>();
    try {
      // One read for all of them, as deep as the posts created since the oldest due one (twice
      // over, for posts made outside the bridge); what it does not reach is asked by id below.
      const oldest = due.reduce(
        (min, row) => (row.created_at < min ? row.created_at : min),
        due[0]!.created_at,
      );
      const limit = Math.min(MAX_HISTORY, repo.createdSince(oldest) * 2 + 20);
      for (const item of (await client.history({ limit })).items) found.set(item.id, item);
    } catch (error) {
      logger.warn({ err: error }, 'post confirmations: provider history not read; asking post by post');
    }
    let checked = 0;
    for (const row of due) {
      try {
        const item = found.get(row.postsvc_id!) ?? (await client.getPost(row.postsvc_id!));
        await this.apply(row, item);
        checked++;
      } catch (error) {
        logger.warn({ err: error, ledgerId: row.id }, 'post confirmation failed; tried again shortly');
        engine.nextCheck(row, new Date(now().getTime() + RETRY_CHECK_MS));
      }
    }
    return checked;
  }

  /** Brings the CRM record and the ledger in line with what the provider says of the post. */
  private async apply(row: LedgerRow, item: ProviderHistoryItem | null): Promise<void> {
    const { engine, activity, now } = this.deps;
    if (item === null) {
      // The provider no longer knows it (deleted elsewhere): nothing left to confirm.
      engine.gone(row);
      activity.record('posting.cancelled', 'warn', `${ledgerPostWords(row)} is gone from the provider`, {
        subject: ledgerPostSubject(row),
        socialPostId: row.social_post_id,
        postsvcId: row.postsvc_id,
      });
      return;
    }
    const verdict = providerVerdict(row, item);
    if (!verdict.final) {
      engine.providerSays(row, { ...verdict, failure: null }, null);
      this.scheduleNext(row);
      return;
    }
    if (!(await this.writeToRecord(row, verdict))) {
      engine.nextCheck(row, new Date(now().getTime() + RETRY_CHECK_MS));
      return;
    }
    engine.providerSays(row, verdict, item.publishedAt ?? null);
    engine.nextCheck(row, null);
    this.recordOutcome(row, verdict);
  }

  /** Every 2 min until the hour is up; then "unconfirmed", said once. */
  private scheduleNext(row: LedgerRow): void {
    const { engine, activity, now } = this.deps;
    const next = new Date(now().getTime() + CHECK_EVERY_MS);
    const until = row.confirm_until ? Date.parse(row.confirm_until) : 0;
    if (next.getTime() <= until) {
      engine.nextCheck(row, next);
      return;
    }
    engine.nextCheck(row, null);
    activity.record(
      'posting.unconfirmed',
      'warn',
      `${ledgerPostWords(row)} to ${row.platforms.join(', ')} was due at ${row.publish_at}; an hour later the provider still has not published it: unconfirmed (Check again on the Posts page)`,
      { subject: ledgerPostSubject(row), ledgerId: row.id, postsvcId: row.postsvc_id },
    );
  }

  /**
   * The CRM record follows (DESIGN §6.9): Published, or Failed with the platform's words. Read
   * first, in the record's lane; nothing written to a record that is gone, already says so, or
   * whose live post waits for the operator. False: not done now (CRM unreachable, lane busy).
   */
  private async writeToRecord(row: LedgerRow, verdict: ProviderVerdict): Promise<boolean> {
    const { records, withLane, logger } = this.deps;
    const id = row.social_post_id;
    if (!records || !id || !row.active || row.live_hold !== null || verdict.status === 'deleted') return true;
    const change: SocialPostChanges =
      verdict.published.length > 0
        ? { status: 'Published' }
        : { status: 'Failed', error: verdict.failure ?? 'the provider reports an error' };
    try {
      return await withLane(
        crmRecordLane('SocialPost', id),
        async () => {
          const record = await records.read(id);
          if (!record) return true;
          if (
            record.status === change.status &&
            (change.error === undefined || record.error === change.error)
          )
            return true;
          await records.write(id, change);
          return true;
        },
        2_000,
      );
    } catch (error) {
      if (!(error instanceof LaneBusyError))
        logger.warn({ err: error, socialPostId: id }, 'post confirmation: CRM not written');
      return false;
    }
  }

  private recordOutcome(row: LedgerRow, verdict: ProviderVerdict): void {
    const { activity } = this.deps;
    const who = ledgerPostWords(row);
    const subject = ledgerPostSubject(row);
    if (verdict.published.length > 0) {
      activity.record(
        'posting.published',
        'info',
        `${who} is out on ${verdict.published.join(', ')}${verdict.postUrls.length > 0 ? `: ${verdict.postUrls.join(' ')}` : ''}${verdict.failure ? ` (failed: ${verdict.failure})` : ''}`,
        {
          subject,
          ledgerId: row.id,
          postsvcId: row.postsvc_id,
          socialPostId: row.social_post_id,
          postUrls: verdict.postUrls,
        },
      );
    } else if (verdict.status !== 'deleted') {
      activity.record('posting.failed', 'error', `${who} was not published: ${verdict.failure}`, {
        subject,
        ledgerId: row.id,
        postsvcId: row.postsvc_id,
        ...(row.social_post_id ? { socialPostId: row.social_post_id } : {}),
        code: 'PLATFORM_ERROR',
      });
    } else {
      activity.record('posting.cancelled', 'info', `${who} was deleted at the provider`, {
        subject,
        socialPostId: row.social_post_id,
        postsvcId: row.postsvc_id,
      });
    }
  }
}
