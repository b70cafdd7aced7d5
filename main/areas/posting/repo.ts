import { likeContaining } from '../../kernel/like-pattern.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { Statement } from 'better-sqlite3';
import { mappedRows, type Db } from '../../kernel/db.js';
import { bodyHash } from './keys.js';

export type LedgerState = 'claimed' | 'unknown' | 'posted' | 'failed' | 'cancelled';

/** What the provider answered for one platform of a post (issue #14.11). */
export interface PlatformOutcome {
  status: 'scheduled' | 'published' | 'failed' | 'cancelled';
  /** The provider's reason, for a failed platform. */
  error: string | null;
  /** The platform's own post id, once the provider gives one. */
  postId: string | null;
  /** Where the published post is on the platform (absent on rows written before it was kept). */
  postUrl?: string | null;
}
export type PlatformOutcomes = Partial<Record<PlatformKey, PlatformOutcome>>;

/** A ledger row as stored: platforms, media URLs and platform states are JSON text. */
interface LedgerDbRow extends Omit<LedgerRow, 'platforms' | 'media_urls' | 'platform_states'> {
  platforms: string;
  media_urls: string;
  platform_states: string | null;
}

/** A ledger row as the posting area reads it (JSON columns parsed here, once). */
export interface LedgerRow {
  id: number;
  social_post_id: string | null;
  active: 0 | 1;
  source: 'crm' | 'api';
  idempotency_key: string;
  content_hash: string;
  state: LedgerState;
  claim_token: string | null;
  attempts: number;
  post: string;
  platforms: PlatformKey[];
  media_urls: string[];
  schedule_date: string | null;
  publish_at: string;
  quota_day: string;
  postsvc_id: string | null;
  provider_status: string | null;
  published_at: string | null;
  error: string | null;
  error_code: string | null;
  refused: 0 | 1;
  claimed_at: string;
  created_at: string;
  updated_at: string;
  /** Per platform, as the provider last answered; null: the row's state stands for every platform. */
  platform_states: PlatformOutcomes | null;
  /** The partly failed post whose failed platforms this row sends again (issue #14.11). */
  retry_of: number | null;
  /** When the bridge next reads this post's state at the provider; null: no check pending (DESIGN §6.9). */
  confirm_at: string | null;
  /** When the checks stop: a post still not final then is "unconfirmed". */
  confirm_until: string | null;
  /** A live post held for the operator (migration 018): its CRM record went back to Scheduled, or was deleted. */
  live_hold: LiveHold | null;
  /** Text, platforms and media apart from the time (migration 025); null on rows not yet given theirs. */
  body_hash: string | null;
  /** Where a PATCH is moving the post (committed before the call, cleared after): settle it first. */
  moving_to: string | null;
  /** The production a dashboard post is for, and the clip it was made from (migration 035). */
  content_production_id: string | null;
  clip_id: string | null;
}

export type LiveHold = 'waiting-operator' | 'crm-deleted';

/** What a claim writes: the post as it will be sent. */
export interface LedgerClaim {
  socialPostId: string | null;
  source: 'crm' | 'api';
  idempotencyKey: string;
  contentHash: string;
  /** Text, platforms and media apart from the time; computed from them when not given. */
  bodyHash?: string;
  post: string;
  platforms: readonly string[];
  mediaUrls: readonly string[];
  scheduleDate: string | null;
  /** Sends the failed platforms of this (partly failed) row again. */
  retryOf?: number;
  /** What the post links to (issue #44.2): its production and the clip it was made from. */
  contentProductionId?: string | null;
  clipId?: string | null;
}

export type ClaimResult =
  | { kind: 'claimed'; row: LedgerRow }
  /** Somebody got there first: the caller returns what this row says, never posts again. */
  | { kind: 'exists'; row: LedgerRow }
  | { kind: 'quota'; used: number; limit: number };

/**
 * A post the provider holds for a time is read again at its time + 30 s, and checked until an
 * hour after it (DESIGN §6.9); `:status` is what the provider just answered.
 */
const FIRST_CHECK = `
  confirm_at = CASE WHEN :status = 'scheduled' AND schedule_date IS NOT NULL
    THEN strftime('%Y-%m-%dT%H:%M:%fZ', publish_at, '+30 seconds') END,
  confirm_until = CASE WHEN :status = 'scheduled' AND schedule_date IS NOT NULL
    THEN strftime('%Y-%m-%dT%H:%M:%fZ', publish_at, '+1 hour') END`;

/** States that used one of the day's provider posts (or may have: claimed, unknown). */
const COUNTED = "('claimed', 'unknown', 'posted', 'cancelled')";

function toLedgerRow(row: LedgerDbRow): LedgerRow {
  return {
    ...row,
    platforms: JSON.parse(row.platforms) as PlatformKey[],
    media_urls: JSON.parse(row.media_urls) as string[],
    platform_states:
      row.platform_states === null ? null : (JSON.parse(row.platform_states) as PlatformOutcomes),
  };
}

export function createPostingRepo(db: Db) {
  const ledgerRows = <P extends unknown[]>(statement: Statement<P, LedgerDbRow>) =>
    mappedRows(statement, toLedgerRow);
  const byId = ledgerRows(db.prepare<[number], LedgerDbRow>('SELECT * FROM social_post_ledger WHERE id = ?'));
  const activeFor = ledgerRows(
    db.prepare<[string], LedgerDbRow>(
      'SELECT * FROM social_post_ledger WHERE social_post_id = ? AND active = 1',
    ),
  );
  const byKey = ledgerRows(
    db.prepare<[string], LedgerDbRow>('SELECT * FROM social_post_ledger WHERE idempotency_key = ?'),
  );
  const byPostsvcId = ledgerRows(
    db.prepare<[string], LedgerDbRow>(
      'SELECT * FROM social_post_ledger WHERE postsvc_id = ? ORDER BY id DESC LIMIT 1',
    ),
  );
  const generations = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM social_post_ledger WHERE social_post_id = ?',
  );
  const usedOn = db.prepare<[string], { n: number }>(
    `SELECT COUNT(*) AS n FROM social_post_ledger WHERE quota_day = ? AND state IN ${COUNTED}`,
  );
  const insert = ledgerRows(
    db.prepare<
      {
        socialPostId: string | null;
        source: string;
        key: string;
        hash: string;
        body: string;
        token: string;
        post: string;
        platforms: string;
        mediaUrls: string;
        scheduleDate: string | null;
        publishAt: string;
        day: string;
        now: string;
        retryOf: number | null;
        contentProductionId: string | null;
        clipId: string | null;
      },
      LedgerDbRow
    >(
      `INSERT INTO social_post_ledger (social_post_id, active, source, idempotency_key, content_hash, body_hash, state,
       claim_token, attempts, post, platforms, media_urls, schedule_date, publish_at, quota_day, claimed_at, created_at,
       updated_at, retry_of, content_production_id, clip_id)
     VALUES (:socialPostId, 1, :source, :key, :hash, :body, 'claimed', :token, 1, :post, :platforms, :mediaUrls,
       :scheduleDate, :publishAt, :day, :now, :now, :now, :retryOf, :contentProductionId, :clipId)
     ON CONFLICT DO NOTHING
     RETURNING *`,
    ),
  );
  const deactivate = db.prepare<[string, number]>(
    "UPDATE social_post_ledger SET active = 0, updated_at = ? WHERE id = ? AND active = 1 AND state IN ('failed', 'cancelled')",
  );
  // Conditional: only the caller that still sees the row in `from` state takes it.
  const reclaim = db.prepare<{
    id: number;
    from: string;
    token: string;
    publishAt: string;
    day: string;
    now: string;
  }>(
    `UPDATE social_post_ledger SET state = 'claimed', claim_token = :token, attempts = attempts + 1, error = NULL,
       error_code = NULL, publish_at = :publishAt, quota_day = :day, claimed_at = :now, updated_at = :now
     WHERE id = :id AND state = :from`,
  );
  // claimed_at is kept: it is when the call with the unknown outcome was made (the grace runs from it).
  const reclaimUnknown = db.prepare<{ id: number; token: string; now: string }>(
    `UPDATE social_post_ledger SET state = 'claimed', claim_token = :token, updated_at = :now
     WHERE id = :id AND (state = 'unknown' OR (state = 'claimed' AND claim_token IS NOT :token))`,
  );
  const posted = db.prepare<{
    id: number;
    postsvcId: string;
    status: string;
    publishedAt: string | null;
    error: string | null;
    code: string | null;
    states: string | null;
    now: string;
  }>(
    `UPDATE social_post_ledger SET state = 'posted', postsvc_id = :postsvcId, provider_status = :status,
       published_at = COALESCE(:publishedAt, published_at), error = :error, error_code = :code,
       platform_states = COALESCE(:states, platform_states), updated_at = :now,
       ${FIRST_CHECK}
     WHERE id = :id AND state IN ('claimed', 'unknown')`,
  );
  const unknown = db.prepare<{ id: number; error: string; now: string }>(
    `UPDATE social_post_ledger SET state = 'unknown', error = :error, error_code = 'PLATFORM_ERROR', updated_at = :now
     WHERE id = :id AND state IN ('claimed', 'unknown')`,
  );
  const failed = db.prepare<{
    id: number;
    error: string;
    code: string;
    refused: number;
    states: string | null;
    now: string;
  }>(
    `UPDATE social_post_ledger SET state = 'failed', error = :error, error_code = :code, refused = :refused,
       platform_states = :states, updated_at = :now
     WHERE id = :id AND state IN ('claimed', 'unknown')`,
  );
  const cancelled = db.prepare<{ id: number; now: string }>(
    `UPDATE social_post_ledger SET state = 'cancelled', provider_status = 'deleted', updated_at = :now
     WHERE id = :id AND state = 'posted'`,
  );
  const providerStatus = db.prepare<{
    id: number;
    status: string;
    publishedAt: string | null;
    error: string | null;
    states: string | null;
    now: string;
  }>(
    `UPDATE social_post_ledger SET provider_status = :status, published_at = COALESCE(:publishedAt, published_at),
       error = COALESCE(:error, error), platform_states = COALESCE(:states, platform_states), updated_at = :now
     WHERE id = :id`,
  );
  const adopt = db.prepare<{ id: number; postsvcId: string; status: string; now: string }>(
    `UPDATE social_post_ledger SET state = 'posted', postsvc_id = :postsvcId, provider_status = :status, updated_at = :now,
       ${FIRST_CHECK}
     WHERE id = :id AND state IN ('failed', 'cancelled')`,
  );
  const retriesOf = ledgerRows(
    db.prepare<[number], LedgerDbRow>('SELECT * FROM social_post_ledger WHERE retry_of = ? ORDER BY id'),
  );
  const retire = db.prepare<[string, number]>(
    "UPDATE social_post_ledger SET active = 0, updated_at = ? WHERE id = ? AND state IN ('failed', 'cancelled')",
  );
  const retireAny = db.prepare<[string, number]>(
    'UPDATE social_post_ledger SET active = 0, updated_at = ? WHERE id = ? AND active = 1',
  );
  const nearby = ledgerRows(
    db.prepare<{ from: string; to: string; exclude: string | null; excludeId: number }, LedgerDbRow>(
      `SELECT * FROM social_post_ledger
     WHERE publish_at >= :from AND publish_at <= :to AND state IN ('claimed', 'unknown', 'posted')
       AND (:exclude IS NULL OR social_post_id IS NULL OR social_post_id <> :exclude) AND id <> :excludeId
     ORDER BY publish_at LIMIT 200`,
    ),
  );
  const recent = ledgerRows(
    db.prepare<{ limit: number }, LedgerDbRow>(
      'SELECT * FROM social_post_ledger ORDER BY publish_at DESC LIMIT :limit',
    ),
  );
  const inWindow = ledgerRows(
    db.prepare<{ from: string; to: string; limit: number }, LedgerDbRow>(
      `SELECT * FROM social_post_ledger WHERE publish_at >= :from AND publish_at < :to ORDER BY publish_at LIMIT :limit`,
    ),
  );
  // Posts the provider still calls scheduled although their time has passed (DESIGN §6.9).
  const unconfirmed = ledgerRows(
    db.prepare<{ from: string; before: string; limit: number }, LedgerDbRow>(
      `SELECT * FROM social_post_ledger WHERE publish_at >= :from AND publish_at < :before
         AND active = 1 AND state = 'posted' AND provider_status = 'scheduled'
       ORDER BY publish_at LIMIT :limit`,
    ),
  );
  const dueChecks = ledgerRows(
    db.prepare<{ now: string; limit: number }, LedgerDbRow>(
      `SELECT * FROM social_post_ledger WHERE confirm_at IS NOT NULL AND confirm_at <= :now
       ORDER BY confirm_at LIMIT :limit`,
    ),
  );
  const nextCheck = db.prepare<{ id: number; at: string | null; until: string | null; now: string }>(
    `UPDATE social_post_ledger SET confirm_at = :at, confirm_until = COALESCE(:until, confirm_until), updated_at = :now
     WHERE id = :id`,
  );
  const createdSince = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM social_post_ledger WHERE created_at >= ? AND postsvc_id IS NOT NULL',
  );
  const liveHold = db.prepare<{ id: number; hold: string | null; now: string }>(
    'UPDATE social_post_ledger SET live_hold = :hold, updated_at = :now WHERE id = :id AND live_hold IS NOT :hold',
  );
  const stale = ledgerRows(
    db.prepare<[], LedgerDbRow>(
      "SELECT * FROM social_post_ledger WHERE state IN ('claimed', 'unknown') ORDER BY id LIMIT 100",
    ),
  );

  // CRM posts the provider holds and has not published: what a vanished record would cancel (DESIGN §6.9).
  const scheduledFromCrm = ledgerRows(
    db.prepare<[], LedgerDbRow>(
      `SELECT * FROM social_post_ledger WHERE active = 1 AND source = 'crm' AND state = 'posted'
         AND social_post_id IS NOT NULL AND (provider_status IS NULL OR provider_status = 'scheduled')
       ORDER BY id`,
    ),
  );

  // Moves in place (issue #36.3): the target committed before the PATCH, the new time after it.
  const startMove = db.prepare<{ id: number; to: string; now: string }>(
    `UPDATE social_post_ledger SET moving_to = :to, updated_at = :now WHERE id = :id AND state = 'posted'`,
  );
  const finishMove = db.prepare<{ id: number; to: string; hash: string; now: string }>(
    `UPDATE social_post_ledger SET schedule_date = :to, publish_at = :to, content_hash = :hash, moving_to = NULL,
       provider_status = 'scheduled', updated_at = :now,
       confirm_at = strftime('%Y-%m-%dT%H:%M:%fZ', :to, '+30 seconds'),
       confirm_until = strftime('%Y-%m-%dT%H:%M:%fZ', :to, '+1 hour')
     WHERE id = :id AND state = 'posted'`,
  );
  const clearMove = db.prepare<{ id: number; now: string }>(
    'UPDATE social_post_ledger SET moving_to = NULL, updated_at = :now WHERE id = :id AND moving_to IS NOT NULL',
  );
  const gone = db.prepare<{ id: number; now: string }>(
    `UPDATE social_post_ledger SET provider_status = 'deleted', moving_to = NULL, confirm_at = NULL, updated_at = :now
     WHERE id = :id`,
  );
  const moving = ledgerRows(
    db.prepare<[], LedgerDbRow>(
      'SELECT * FROM social_post_ledger WHERE moving_to IS NOT NULL ORDER BY id LIMIT 100',
    ),
  );
  const withoutBodyHash = ledgerRows(
    db.prepare<[], LedgerDbRow>(
      'SELECT * FROM social_post_ledger WHERE body_hash IS NULL ORDER BY id LIMIT 500',
    ),
  );
  const containing = ledgerRows(
    db.prepare<[string, number], LedgerDbRow>(
      "SELECT * FROM social_post_ledger WHERE active = 1 AND post LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?",
    ),
  );
  const ofProduction = ledgerRows(
    db.prepare<[string], LedgerDbRow>(
      'SELECT * FROM social_post_ledger WHERE content_production_id = ? AND retry_of IS NULL AND active = 1 ORDER BY publish_at, id',
    ),
  );
  const setBodyHash = db.prepare<[string, number]>(
    'UPDATE social_post_ledger SET body_hash = ? WHERE id = ? AND body_hash IS NULL',
  );

  const transaction = <T>(fn: () => T): T => db.transaction(fn).immediate();
  /** A new claimed row for `input` (undefined when its key or active SocialPost row exists). */
  const insertClaim = (input: LedgerClaim, token: string, now: string) =>
    insert.get({
      socialPostId: input.socialPostId,
      source: input.source,
      key: input.idempotencyKey,
      hash: input.contentHash,
      body:
        input.bodyHash ??
        bodyHash({ post: input.post, platforms: input.platforms, mediaUrls: input.mediaUrls }),
      token,
      post: input.post,
      platforms: JSON.stringify(input.platforms),
      mediaUrls: JSON.stringify(input.mediaUrls),
      scheduleDate: input.scheduleDate,
      publishAt: input.scheduleDate ?? now,
      day: now.slice(0, 10),
      now,
      retryOf: input.retryOf ?? null,
      contentProductionId: input.contentProductionId ?? null,
      clipId: input.clipId ?? null,
    });

  return {
    get: (id: number) => byId.get(id),
    active: (socialPostId: string) => activeFor.get(socialPostId),
    byKey: (key: string) => byKey.get(key),
    byPostsvcId: (postsvcId: string) => byPostsvcId.get(postsvcId),
    /** How many rows this SocialPost has had (the next one is generation n + 1). */
    generations: (socialPostId: string) => generations.get(socialPostId)?.n ?? 0,
    usedOn: (day: string) => usedOn.get(day)?.n ?? 0,

    /**
     * Claims the post before the provider is called, in one immediate transaction with the
     * quota check: a SocialPost with an active row (or an API key seen before) is not claimed
     * again. A failed or cancelled active row makes way for the new one.
     */
    claim(input: LedgerClaim, context: { token: string; now: Date; quotaLimit: number }): ClaimResult {
      return transaction(() => {
        const existing = input.socialPostId
          ? activeFor.get(input.socialPostId)
          : byKey.get(input.idempotencyKey);
        if (
          existing &&
          !(input.socialPostId && (existing.state === 'failed' || existing.state === 'cancelled'))
        ) {
          return { kind: 'exists', row: existing };
        }
        const now = context.now.toISOString();
        const day = now.slice(0, 10);
        const used = usedOn.get(day)?.n ?? 0;
        if (used >= context.quotaLimit) return { kind: 'quota', used, limit: context.quotaLimit };
        if (existing) deactivate.run(now, existing.id);
        const row = insertClaim(input, context.token, now);
        if (row) return { kind: 'claimed', row };
        const winner =
          (input.socialPostId ? activeFor.get(input.socialPostId) : undefined) ??
          byKey.get(input.idempotencyKey);
        if (!winner)
          throw new Error(`ledger: claim of ${input.idempotencyKey} conflicted with no visible row`);
        return { kind: 'exists', row: winner };
      });
    },

    /** Takes a failed row again for a new attempt with the same key (the provider never saw or created it). */
    reclaimFailed(id: number, context: { token: string; now: Date; quotaLimit: number }): ClaimResult {
      return transaction(() => {
        const row = byId.get(id);
        if (!row) throw new Error(`ledger: no row ${id}`);
        if (row.state !== 'failed') return { kind: 'exists', row };
        const now = context.now.toISOString();
        const day = now.slice(0, 10);
        const used = usedOn.get(day)?.n ?? 0;
        if (used >= context.quotaLimit) return { kind: 'quota', used, limit: context.quotaLimit };
        const publishAt = row.schedule_date ?? now;
        if (reclaim.run({ id, from: 'failed', token: context.token, publishAt, day, now }).changes === 0) {
          return { kind: 'exists', row: byId.get(id)! };
        }
        return { kind: 'claimed', row: byId.get(id)! };
      });
    },

    /** Takes over a row whose outcome is unknown (left by a timeout or a dead process), to reconcile it. */
    takeOverUnknown: (id: number, token: string, now: Date) =>
      reclaimUnknown.run({ id, token, now: now.toISOString() }).changes > 0,

    markPosted(
      id: number,
      result: {
        postsvcId: string;
        status: string;
        publishedAt?: string | null;
        error?: string | null;
        code?: string | null;
        platformStates?: PlatformOutcomes | null;
      },
      now: Date,
    ) {
      return (
        posted.run({
          id,
          postsvcId: result.postsvcId,
          status: result.status,
          publishedAt: result.publishedAt ?? null,
          error: result.error ?? null,
          code: result.code ?? null,
          states: result.platformStates ? JSON.stringify(result.platformStates) : null,
          now: now.toISOString(),
        }).changes > 0
      );
    },
    markUnknown: (id: number, error: string, now: Date) =>
      unknown.run({ id, error, now: now.toISOString() }).changes > 0,
    /** `refused`: the provider answered this key with a refusal (it may remember it): retry under a new key. */
    markFailed: (
      id: number,
      error: string,
      code: string,
      now: Date,
      refused = false,
      platformStates: PlatformOutcomes | null = null,
    ) =>
      failed.run({
        id,
        error,
        code,
        refused: refused ? 1 : 0,
        states: platformStates ? JSON.stringify(platformStates) : null,
        now: now.toISOString(),
      }).changes > 0,
    markCancelled: (id: number, now: Date) => cancelled.run({ id, now: now.toISOString() }).changes > 0,
    /** A failed/cancelled row turns out to have a live provider post (found by sync or reconciliation). */
    adopt: (id: number, postsvcId: string, status: string, now: Date) =>
      adopt.run({ id, postsvcId, status, now: now.toISOString() }).changes > 0,
    /** A failed API post replaced by a new attempt: kept for the record, out of the lists. */
    retire: (id: number, now: Date) => retire.run(now.toISOString(), id).changes > 0,
    setProviderStatus: (
      id: number,
      status: string,
      publishedAt: string | null,
      error: string | null,
      now: Date,
      platformStates: PlatformOutcomes | null = null,
    ) =>
      providerStatus.run({
        id,
        status,
        publishedAt,
        error,
        states: platformStates ? JSON.stringify(platformStates) : null,
        now: now.toISOString(),
      }).changes > 0,
    /** The rows that sent failed platforms of this one again, oldest first. */
    retriesOf: (id: number) => retriesOf.all(id),

    /**
     * A failed or cancelled post replaced by an edited one (issue #14.3): in one transaction the
     * old row is retired (it stays failed/cancelled, out of the lists) and the new one claimed.
     * Only the caller that still finds the old row active and not live gets to do it.
     */
    supersede(
      oldId: number,
      input: LedgerClaim,
      context: { token: string; now: Date; quotaLimit: number },
    ): ClaimResult {
      return transaction(() => {
        const old = byId.get(oldId);
        if (!old) throw new Error(`ledger: no row ${oldId}`);
        const replaceable =
          old.state === 'failed' ||
          old.state === 'cancelled' ||
          (old.state === 'posted' && old.provider_status === 'deleted');
        if (!old.active || !replaceable) return { kind: 'exists', row: old };
        const now = context.now.toISOString();
        const day = now.slice(0, 10);
        const used = usedOn.get(day)?.n ?? 0;
        if (used >= context.quotaLimit) return { kind: 'quota', used, limit: context.quotaLimit };
        retireAny.run(now, oldId);
        const row = insertClaim(input, context.token, now);
        if (!row) throw new Error(`ledger: key ${input.idempotencyKey} is taken`);
        return { kind: 'claimed', row };
      });
    },

    /** Rows going out between `from` and `to` (the spacing rule), other than the given SocialPost's. */
    nearby: (from: string, to: string, exclude: { socialPostId?: string | null; id?: number } = {}) =>
      nearby.all({ from, to, exclude: exclude.socialPostId ?? null, excludeId: exclude.id ?? 0 }),
    recent: (limit: number) => recent.all({ limit }),
    inWindow: (from: string, to: string, limit: number) => inWindow.all({ from, to, limit }),
    /** Active posts whose time is in [from, before) and that the provider has not confirmed (still `scheduled`). */
    unconfirmed: (from: string, before: string, limit: number) => unconfirmed.all({ from, before, limit }),
    /** Posts whose next confirmation check is due (DESIGN §6.9), the longest waiting first. */
    dueChecks: (now: Date, limit: number) => dueChecks.all({ now: now.toISOString(), limit }),
    /** The next check of a post (null: none; it is final or unconfirmed); `until` moves the end of the checks. */
    setNextCheck: (id: number, at: Date | null, now: Date, until: Date | null = null) =>
      nextCheck.run({
        id,
        at: at?.toISOString() ?? null,
        until: until?.toISOString() ?? null,
        now: now.toISOString(),
      }).changes > 0,
    /** How many provider posts this bridge created since `iso` (how deep history must reach to find a post). */
    createdSince: (iso: string) => createdSince.get(iso)?.n ?? 0,
    /** Holds a live post for the operator, or lifts the hold (null); true when it changed. */
    setLiveHold: (id: number, hold: LiveHold | null, now: Date) =>
      liveHold.run({ id, hold, now: now.toISOString() }).changes > 0,
    /** Rows with a call in flight or an unknown outcome (reconciled at start-up). */
    unsettled: () => stale.all(),
    /** Commits the time a PATCH moves the post to, before the call. */
    startMove: (id: number, to: string, now: Date) =>
      startMove.run({ id, to, now: now.toISOString() }).changes > 0,
    /** The post is at `to` at the provider: its time, hash and checks follow; its key stays. */
    finishMove: (id: number, to: string, contentHash: string, now: Date) =>
      finishMove.run({ id, to, hash: contentHash, now: now.toISOString() }).changes > 0,
    /** The move did not happen (refused, or failed in words): the post keeps its time. */
    clearMove: (id: number, now: Date) => clearMove.run({ id, now: now.toISOString() }).changes > 0,
    /** The provider no longer has the post (404, code 186): gone, nothing more to check or move. */
    markGone: (id: number, now: Date) => gone.run({ id, now: now.toISOString() }).changes > 0,
    /** Rows left mid-move (a crash, an unknown outcome): settled from GET /post/{id}. */
    moving: () => moving.all(),
    /** Gives rows written before migration 025 their body hash, computed by `hashOf`. */
    fillBodyHashes(hashOf: (row: LedgerRow) => string): number {
      let filled = 0;
      for (let rows = withoutBodyHash.all(); rows.length > 0; rows = withoutBodyHash.all()) {
        transaction(() => {
          for (const row of rows) filled += setBodyHash.run(hashOf(row), row.id).changes;
        });
      }
      return filled;
    },
    scheduledFromCrm: () => scheduledFromCrm.all(),
    /** Active rows whose text contains `text` (ASCII case ignored), newest first: a bounded scan for search. */
    containing: (text: string, limit: number) => containing.all(likeContaining(text), limit),
    /** A production's dashboard posts (their first rows; a retry of failed platforms belongs to its post). */
    ofProduction: (contentProductionId: string) => ofProduction.all(contentProductionId),
    transaction,
  };
}
export type PostingRepo = ReturnType<typeof createPostingRepo>;
