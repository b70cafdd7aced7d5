import type { PlatformKey } from '../../../shared/platforms.js';
import { PostsvcError, type PostResult } from '../../peers/postsvc.js';
import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import { ProviderCreates, type ProviderCreatesOptions } from './creates.js';
import { LiveSafeCancel } from './live-cancel.js';
import { ProviderMoves, type MoveOutcome } from './moves.js';
import { providerStatusOf } from './history-match.js';
import type { ProviderVerdict } from './provider-state.js';
import type { LedgerClaim, LedgerRow, LiveHold, PlatformOutcomes } from './repo.js';

/**
 * The posting engine (issue #36.1): the one owner of the ledger's states and transitions — claim,
 * send, settle, move, cancel without deleting what is live, hold — for every way in (the record's
 * job, the API and dashboard routes, confirmations, Sync). Nothing else in the area changes a
 * ledger row's state; every step answers with one result type.
 */

export type EngineResult =
  | { kind: 'claimed'; row: LedgerRow }
  /** Somebody got there first (or the key was used): what this row says is the answer, never a second post. */
  | { kind: 'exists'; row: LedgerRow }
  | { kind: 'quota'; used: number; limit: number }
  | { kind: 'posted'; row: LedgerRow; result: PostResult | null }
  /** The outcome of a create is not known yet: look again after `retryInMs`, never create meanwhile. */
  | { kind: 'pending'; row: LedgerRow; retryInMs: number; reason: string }
  /** Settled: the provider has no post for the row (failed, may be claimed again). */
  | { kind: 'absent'; row: LedgerRow }
  /** Nothing to settle. */
  | { kind: 'settled'; row: LedgerRow }
  | { kind: 'cancelled'; existed: boolean }
  | { kind: 'live'; row?: LedgerRow; platforms: PlatformKey[]; postUrls: string[] }
  | Exclude<MoveOutcome, { kind: 'live' }>;

type Result<K extends EngineResult['kind']> = Extract<EngineResult, { kind: K }>;

/** The longest provider Retry-After a request the operator waits on sits through (DESIGN §6.2). */
const WAIT_OUT_RETRY_AFTER_S = 3;

/** The provider, the ledger, the clock and the quota, as the creates need them. */
export type PostingEngineOptions = ProviderCreatesOptions;

export class PostingEngine {
  private readonly creates: ProviderCreates;
  private readonly cancels: LiveSafeCancel;
  private readonly moves: ProviderMoves;

  constructor(private readonly options: PostingEngineOptions) {
    const { client, repo, now } = options;
    this.creates = new ProviderCreates(options);
    this.cancels = new LiveSafeCancel({ client, repo, now });
    this.moves = new ProviderMoves({ client, repo, now });
  }

  /** This process's claims (a claimed row with another token was left by a process that is gone). */
  get token(): string {
    return this.creates.token;
  }

  /** Whether a claimed row is being sent by this process right now. */
  isMine(row: LedgerRow): boolean {
    return this.creates.isMine(row);
  }

  /** Claims a post before the provider is called, with the quota, in one transaction. */
  claim(input: LedgerClaim): Result<'claimed' | 'exists' | 'quota'> {
    return this.creates.claim(input);
  }

  /** A failed row the provider never saw (not refused), claimed again with its own key. */
  reclaim(row: LedgerRow): Result<'claimed' | 'exists' | 'quota'> {
    return this.creates.reclaimFailed(row);
  }

  /** A new generation in place of a failed, cancelled or gone one (the old row kept, out of the lists). */
  supersede(old: LedgerRow, input: LedgerClaim): Result<'claimed' | 'exists' | 'quota'> {
    return this.options.repo.supersede(old.id, input, this.creates.claimContext());
  }

  /**
   * Sends a claimed row. A refusal marks it failed and throws the PostsvcError; a possible effect is
   * reconciled from the provider's history (pending when still not known). `waitOutShortRateLimit`:
   * the operator waits on the answer (DESIGN §6.2), so a 429 asking at most 3 s is waited out and
   * the same row sent once more (a 429 created nothing; the client holds every request back meanwhile).
   */
  async send(
    row: LedgerRow,
    options: { signal?: AbortSignal | undefined; waitOutShortRateLimit?: boolean } = {},
  ): Promise<Result<'posted' | 'pending'>> {
    try {
      return await this.creates.send(row, options.signal);
    } catch (error) {
      if (!options.waitOutShortRateLimit || !isShortRateLimit(error)) throw error;
      const failed = this.options.repo.get(row.id);
      if (failed?.state !== 'failed' || failed.refused) throw error;
      const claim = this.creates.reclaimFailed(failed);
      // Another request with this key took the row first: its answer is the post, this one's is the 429.
      if (claim.kind !== 'claimed') throw error;
      return await this.creates.send(claim.row, options.signal);
    }
  }

  /**
   * Settles what a row left open before anything else is done with it: a create in flight elsewhere
   * or with an unknown outcome (from the provider's history), a move cut off (from GET /post/{id}).
   */
  async settle(
    row: LedgerRow,
    signal?: AbortSignal,
  ): Promise<Result<'settled' | 'posted' | 'absent' | 'pending'> | MoveOutcome> {
    if (row.state === 'claimed' || row.state === 'unknown') {
      const resolved = await this.creates.resolve(row, signal);
      return resolved.kind === 'posted' ? { ...resolved, result: null } : resolved;
    }
    if (row.moving_to !== null && row.state === 'posted') return this.moves.reconcile(row, signal);
    return { kind: 'settled', row };
  }

  /** Moves the row's post to `to` in place (PATCH), or says why not (issue #36.3). */
  move(row: LedgerRow, to: string, signal?: AbortSignal): Promise<MoveOutcome> {
    return this.moves.move(row, to, signal);
  }

  /** Reads a post near or past its time: live, due, gone or failed there. */
  readFirst(row: LedgerRow, signal?: AbortSignal): Promise<MoveOutcome> {
    return this.moves.readFirst(row, signal);
  }

  /**
   * The one cancel (DESIGN §6.9): a post the ledger knows is out is never deleted, one under 2 min
   * from its time or past it is read first. `deleteLive`: the spec's /postsvc/delete, asked for by
   * name, which takes a published post down too.
   */
  async cancel(
    row: LedgerRow,
    options: { signal?: AbortSignal | undefined; deleteLive?: boolean } = {},
  ): Promise<Result<'cancelled' | 'live'>> {
    if (!options.deleteLive) return this.cancels.cancelRow(row, options.signal);
    const existed = await this.options.client.delete(row.postsvc_id!, options.signal);
    this.options.repo.markCancelled(row.id, this.options.now());
    return { kind: 'cancelled', existed };
  }

  /** The one cancel for a provider post by id (one the record names, the ledger may not know). */
  async cancelId(
    postsvcId: string,
    row: LedgerRow | undefined,
    options: { signal?: AbortSignal | undefined; deleteLive?: boolean } = {},
  ): Promise<Result<'cancelled' | 'live'>> {
    const outcome = options.deleteLive
      ? { kind: 'cancelled' as const, existed: await this.options.client.delete(postsvcId, options.signal) }
      : await this.cancels.cancelId(postsvcId, row?.publish_at ?? null, row, options.signal);
    if (outcome.kind === 'cancelled' && row?.state === 'posted')
      this.options.repo.markCancelled(row.id, this.options.now());
    return outcome;
  }

  /** Holds a live post for the operator, or lifts the hold (null); true when it changed. */
  hold(row: LedgerRow, hold: LiveHold | null): boolean {
    return this.options.repo.setLiveHold(row.id, hold, this.options.now());
  }

  /** What the provider said of a post (a confirmation check, Sync): kept on its row. */
  providerSays(
    row: LedgerRow,
    verdict: Pick<ProviderVerdict, 'status' | 'failure' | 'outcomes'>,
    publishedAt: string | null,
  ) {
    return this.options.repo.setProviderStatus(
      row.id,
      verdict.status,
      publishedAt,
      verdict.failure,
      this.options.now(),
      Object.keys(verdict.outcomes).length > 0 ? (verdict.outcomes as PlatformOutcomes) : null,
    );
  }

  /** The row's next confirmation check (null: none); `until` moves the end of the checks. */
  nextCheck(row: Pick<LedgerRow, 'id'>, at: Date | null, until: Date | null = null): boolean {
    return this.options.repo.setNextCheck(row.id, at, this.options.now(), until);
  }

  /** A post the provider has for a row that could not confirm it (found by Sync): the row owns it now. */
  adopt(row: LedgerRow, item: ProviderHistoryItem): boolean {
    const status = providerStatusOf(item.status);
    const { repo, now } = this.options;
    return row.state === 'unknown'
      ? repo.markPosted(row.id, { postsvcId: item.id, status }, now())
      : repo.adopt(row.id, item.id, status, now());
  }

  /** The provider no longer has the post: nothing more to check, move or cancel. */
  gone(row: LedgerRow): boolean {
    return this.options.repo.markGone(row.id, this.options.now());
  }

  /** A failed post of the API retried under a new key: the old row kept, out of the lists. */
  retire(row: LedgerRow): boolean {
    return this.options.repo.retire(row.id, this.options.now());
  }

  /** What a claim made by this process carries: its token, the time and today's quota. */
  claimContext() {
    return this.creates.claimContext();
  }
}

/** A provider 429 (nothing created) that asks for a wait of at most 3 s. */
function isShortRateLimit(error: unknown): error is PostsvcError {
  if (!(error instanceof PostsvcError) || error.code !== 'RATE_LIMIT' || error.status !== 429) return false;
  const retryAfterS = error.details.retryAfterS;
  return retryAfterS !== undefined && retryAfterS <= WAIT_OUT_RETRY_AFTER_S;
}
