import { randomUUID } from 'node:crypto';
import { PostsvcError, type PostsvcClient, type PostResult } from '../../peers/postsvc.js';
import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import type { ClaimResult, LedgerClaim, LedgerRow, PostingRepo } from './repo.js';
import { findCreatedPost, olderThanClaim, providerStatusOf } from './history-match.js';
import { outcomesOf } from './platform-states.js';

/**
 * The posting engine's creates (engine.ts): provider posts created so that none is ever created twice (DESIGN §6.2): every create is
 * claimed in the ledger first, sent with its idempotency key, and a create whose outcome is
 * unknown (timeout, crash, 5xx) is reconciled from the provider's history before anything
 * else is tried.
 */

export type SendOutcome =
  | { kind: 'posted'; row: LedgerRow; result: PostResult | null }
  /** The outcome is not known yet: look again after `retryInMs`. Never create meanwhile. */
  | { kind: 'pending'; row: LedgerRow; retryInMs: number; reason: string };

export type ResolveOutcome =
  | { kind: 'posted'; row: LedgerRow }
  /** The provider has no such post: the row is now failed and may be claimed again. */
  | { kind: 'absent'; row: LedgerRow }
  | { kind: 'pending'; row: LedgerRow; retryInMs: number; reason: string };

export interface ProviderCreatesOptions {
  client: PostsvcClient;
  repo: PostingRepo;
  now: () => Date;
  /** The plan's posts per day. */
  quota: { limit(): number };
  /** How long after an unknown-outcome create the provider may still make it appear (default 60 s). */
  unknownGraceMs?: number;
  /** History items read when reconciling, newest first (default 300). */
  reconcileDepth?: number;
}

export class ProviderCreates {
  /** This process's claims; a claimed row with another token belongs to a process that is gone. */
  readonly token = randomUUID();
  private readonly graceMs: number;

  constructor(private readonly options: ProviderCreatesOptions) {
    this.graceMs = options.unknownGraceMs ?? 60_000;
  }

  claim(input: LedgerClaim): ClaimResult {
    return this.options.repo.claim(input, this.claimContext());
  }

  /** A failed row the provider never saw (not refused) claimed again with the same key. */
  reclaimFailed(row: LedgerRow): ClaimResult {
    return this.options.repo.reclaimFailed(row.id, this.claimContext());
  }

  /** Whether a claimed row is being sent by this process right now. */
  isMine(row: LedgerRow): boolean {
    return row.state === 'claimed' && row.claim_token === this.token;
  }

  /**
   * Sends a row this process has claimed. Success: posted. A definite refusal: failed, and the
   * PostsvcError is thrown. A possible effect (timeout, 5xx, dropped connection): reconciled at
   * once from the history; still not found: pending (the caller retries later, never blindly).
   */
  async send(row: LedgerRow, signal?: AbortSignal): Promise<SendOutcome> {
    const { client, repo, now } = this.options;
    let result: PostResult;
    try {
      result = await client.post(
        {
          post: row.post,
          platforms: row.platforms,
          scheduleDate: row.schedule_date,
          mediaUrls: row.media_urls,
          idempotencyKey: row.idempotency_key,
        },
        signal,
      );
    } catch (error) {
      if (!(error instanceof PostsvcError)) throw error; // aborted (shutdown): the row stays claimed, reconciled next start
      if (error.created) {
        // Partial failure: the post exists for some platforms. Keep its id (quota, cancel), report the failure.
        repo.markPosted(
          row.id,
          {
            postsvcId: error.created.id,
            status: 'error',
            error: error.message,
            code: error.code,
            platformStates: outcomesOf(
              row.platforms,
              error.created.postIds,
              error.platformErrors,
              error.providerMessage,
            ),
          },
          now(),
        );
        throw error;
      }
      if (mayHaveCreated(error)) {
        repo.markUnknown(row.id, error.message, now());
        // A provider that answered 500/503 has finished with the request: what its history shows now is
        // the outcome. After a timeout, a dropped connection or a gateway's 502/504 it may still be working.
        const answered = error.kind === 'http' && error.status !== 502 && error.status !== 504;
        const resolved = await this.resolve(repo.get(row.id)!, signal, answered ? 0 : undefined).catch(
          () => null,
        );
        if (resolved?.kind === 'posted') return { kind: 'posted', row: resolved.row, result: null };
        if (resolved?.kind === 'pending')
          return { ...resolved, reason: `${error.message}; ${resolved.reason}` };
        // History unreadable (the row stays unknown), or no post after the grace (failed): retryable either way.
        throw error;
      }
      // 429 and refused connections never reached the post; any other answer is the provider's verdict on this key.
      repo.markFailed(
        row.id,
        error.message,
        error.code,
        now(),
        !error.retryable,
        error.platformErrors.length > 0
          ? outcomesOf(row.platforms, [], error.platformErrors, error.providerMessage)
          : null,
      );
      throw error;
    }
    repo.markPosted(
      row.id,
      {
        postsvcId: result.id,
        status: result.status === 'scheduled' ? 'scheduled' : 'published',
        publishedAt: result.status === 'scheduled' ? null : now().toISOString(),
        platformStates: outcomesOf(row.platforms, result.postIds, [], 'the provider gave no answer for it'),
      },
      now(),
    );
    return { kind: 'posted', row: repo.get(row.id)!, result };
  }

  /**
   * Settles a row whose create has an unknown outcome (state unknown, or claimed by a process
   * that is gone): found in the provider's history → posted; not found once the grace has
   * passed → failed (safe to claim again, with the same key); else pending.
   */
  async resolve(
    row: LedgerRow,
    signal?: AbortSignal,
    graceMs: number = this.graceMs,
  ): Promise<ResolveOutcome> {
    const { repo, now } = this.options;
    if (this.isMine(row)) {
      return { kind: 'pending', row, retryInMs: 2_000, reason: 'a create for this post is in flight' };
    }
    if (!repo.takeOverUnknown(row.id, this.token, now())) {
      const current = repo.get(row.id)!;
      if (current.state === 'posted') return { kind: 'posted', row: current };
      if (current.state === 'failed') return { kind: 'absent', row: current };
      return { kind: 'pending', row: current, retryInMs: 2_000, reason: 'another attempt is reconciling it' };
    }
    let found: ProviderHistoryItem | null;
    try {
      found = await this.findInHistory(row, signal);
    } catch (error) {
      repo.markUnknown(row.id, row.error ?? 'outcome unknown', now());
      throw error;
    }
    if (found) {
      repo.markPosted(
        row.id,
        {
          postsvcId: found.id,
          status: providerStatusOf(found.status),
          publishedAt: found.publishedAt ?? null,
        },
        now(),
      );
      return { kind: 'posted', row: repo.get(row.id)! };
    }
    const age = now().getTime() - Date.parse(row.claimed_at);
    if (age >= graceMs) {
      repo.markFailed(
        row.id,
        'the provider has no record of this post (an earlier attempt did not create it)',
        'PLATFORM_ERROR',
        now(),
      );
      return { kind: 'absent', row: repo.get(row.id)! };
    }
    repo.markUnknown(row.id, row.error ?? 'outcome unknown', now());
    return {
      kind: 'pending',
      row: repo.get(row.id)!,
      retryInMs: graceMs - age,
      reason: 'the provider did not answer; its history does not show the post yet',
    };
  }

  private async findInHistory(row: LedgerRow, signal?: AbortSignal): Promise<ProviderHistoryItem | null> {
    const { client, repo } = this.options;
    const depth = this.options.reconcileDepth ?? 300;
    const pageSize = 100;
    const seen: ProviderHistoryItem[] = [];
    for (let offset = 0; offset < depth; offset += pageSize) {
      const page = await client.history({ limit: pageSize, offset }, signal);
      seen.push(...page.items);
      const found = findCreatedPost(row, seen, (postsvcId) => {
        const owner = repo.byPostsvcId(postsvcId);
        return owner !== undefined && owner.id !== row.id;
      });
      if (found) return found;
      if (page.items.length < pageSize || page.items.some((item) => olderThanClaim(item, row.claimed_at)))
        break;
    }
    return null;
  }

  /** What a claim made by this process carries: its token, the time and today's quota. */
  claimContext() {
    return { token: this.token, now: this.options.now(), quotaLimit: this.options.quota.limit() };
  }
}

/** A create that may have had its effect: timed out, connection dropped after sending, 5xx. */
export function mayHaveCreated(error: PostsvcError): boolean {
  if (error.details.outcomeUnknown || error.kind === 'timeout') return true;
  if (error.kind === 'network') return !/connection refused|host not found/.test(error.providerMessage);
  return error.kind === 'http' && (error.status ?? 0) >= 500;
}
