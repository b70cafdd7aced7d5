import type { PlatformKey } from '../../../shared/platforms.js';
import { isUnknownPost, PostsvcError, type PostsvcClient } from '../../peers/postsvc.js';
import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import { MOVE_MARGIN_MS } from './decide.js';
import { contentHash } from './keys.js';
import { utcMinute } from './late-posts.js';
import { mayHaveCreated } from './creates.js';
import { keepVerdict, providerVerdict } from './provider-state.js';
import type { LedgerRow, PostingRepo } from './repo.js';

/** What became of a move (or of reading a post before one). */
export type MoveOutcome =
  | { kind: 'moved'; row: LedgerRow; from: string }
  /** Out on these platforms: not moved, nothing cancelled. */
  | { kind: 'live'; row: LedgerRow; platforms: PlatformKey[]; postUrls: string[] }
  /** Still scheduled and due within 2 min (or past): read, not moved. */
  | { kind: 'due'; row: LedgerRow }
  /** The provider no longer has it (404, code 186): marked gone, nothing re-created. */
  | { kind: 'gone'; row: LedgerRow }
  /** Not moved, for the reason said (the plan, a time too close, the provider's refusal or its failure). */
  | { kind: 'refused'; row: LedgerRow; message: string };

/**
 * The posting engine's moves in place (engine.ts; issue #36.3): PATCH /post on plans that allow it,
 * crash-safe. The target is committed on the ledger row (`moving_to`) before the call and the new
 * time after it; a row left with `moving_to` is settled from GET /post/{id}. Never to a time under
 * now + 2 min; a post under 2 min from its time, or past it, is read and not moved; a PATCH
 * refused because the post is out is never followed by a cancel or a create.
 */
export class ProviderMoves {
  constructor(private readonly deps: { client: PostsvcClient; repo: PostingRepo; now: () => Date }) {}

  async move(row: LedgerRow, to: string, signal?: AbortSignal): Promise<MoveOutcome> {
    const from = row.schedule_date ?? row.publish_at;
    if (Date.parse(from) - this.deps.now().getTime() < MOVE_MARGIN_MS) return this.readFirst(row, signal);
    return this.patch(row, to, signal);
  }

  /** A post near or past its time, read instead of moved: live, due, gone or failed there. */
  async readFirst(row: LedgerRow, signal?: AbortSignal): Promise<MoveOutcome> {
    const item = await this.deps.client.getPost(row.postsvc_id!, signal);
    return this.asTheProviderSays(row, item) ?? { kind: 'due', row };
  }

  /**
   * A move left half-done (a crash, an unknown outcome): the new date at the provider settles it;
   * the old one, still scheduled, is moved again while the target is 2 min ahead or more, else the
   * move fails in words; a post that is out, failed or gone is settled as the provider says.
   */
  async reconcile(row: LedgerRow, signal?: AbortSignal): Promise<MoveOutcome> {
    const to = row.moving_to!;
    const item = await this.deps.client.getPost(row.postsvc_id!, signal);
    const settled = this.asTheProviderSays(row, item);
    if (settled) return settled;
    const from = row.schedule_date ?? row.publish_at;
    if (sameTime(item!.scheduleDate, to)) return this.moved(row, from, to);
    if (Date.parse(to) - this.deps.now().getTime() >= MOVE_MARGIN_MS) return this.patch(row, to, signal);
    this.deps.repo.clearMove(row.id, this.deps.now());
    return {
      kind: 'refused',
      row: this.deps.repo.get(row.id)!,
      message: `not moved: the move to ${utcMinute(to)} was cut off (the bridge stopped or the provider did not answer) and that time is now under 2 min away; the post still goes out at ${utcMinute(from)}`,
    };
  }

  private async patch(row: LedgerRow, to: string, signal?: AbortSignal): Promise<MoveOutcome> {
    const { client, repo, now } = this.deps;
    const from = row.schedule_date ?? row.publish_at;
    if (Date.parse(to) - now().getTime() < MOVE_MARGIN_MS) {
      repo.clearMove(row.id, now());
      return {
        kind: 'refused',
        row,
        message: `not moved: ${utcMinute(to)} is under 2 min from now; a post is moved in place only to a time at least 2 min ahead`,
      };
    }
    repo.startMove(row.id, to, now());
    try {
      await client.move(row.postsvc_id!, to, signal);
    } catch (error) {
      if (!(error instanceof PostsvcError)) throw error; // aborted: `moving_to` stays, settled next time
      if (isUnknownPost(error)) return this.gone(row);
      // The answer may be lost while the move happened: `moving_to` stays, the next run reads the post.
      if (mayHaveCreated(error)) throw error;
      // Not sent (held back) or refused: nothing moved. Read what the post is, never cancel or create.
      if (error.status === 429) {
        repo.clearMove(row.id, now());
        throw error;
      }
      const item = await client.getPost(row.postsvc_id!, signal);
      const settled = this.asTheProviderSays(row, item);
      if (settled) return settled;
      repo.clearMove(row.id, now());
      return {
        kind: 'refused',
        row: repo.get(row.id)!,
        message: `not moved: the provider refused to move it (${error.providerMessage}); it still goes out at ${utcMinute(from)}`,
      };
    }
    return this.moved(row, from, to);
  }

  private moved(row: LedgerRow, from: string, to: string): MoveOutcome {
    const { repo, now } = this.deps;
    const hash = contentHash({
      post: row.post,
      platforms: row.platforms,
      mediaUrls: row.media_urls,
      scheduleDate: to,
    });
    repo.finishMove(row.id, to, hash, now());
    return { kind: 'moved', row: repo.get(row.id)!, from };
  }

  private gone(row: LedgerRow): MoveOutcome {
    this.deps.repo.markGone(row.id, this.deps.now());
    return { kind: 'gone', row: this.deps.repo.get(row.id)! };
  }

  /** What the provider's answer settles: gone, out, or failed there (kept on the row); undefined: still scheduled. */
  private asTheProviderSays(row: LedgerRow, item: ProviderHistoryItem | null): MoveOutcome | undefined {
    const { repo, now } = this.deps;
    if (item === null) return this.gone(row);
    const verdict = providerVerdict(row, item);
    if (verdict.published.length === 0 && !(verdict.final && verdict.status !== 'scheduled'))
      return undefined;
    keepVerdict(repo, row, verdict, item, now());
    repo.clearMove(row.id, now());
    const current = repo.get(row.id)!;
    if (verdict.published.length > 0)
      return { kind: 'live', row: current, platforms: verdict.published, postUrls: verdict.postUrls };
    if (verdict.status === 'deleted') return this.gone(row);
    return {
      kind: 'refused',
      row: current,
      message: `not moved: ${verdict.failure ?? 'the provider reports an error'}`,
    };
  }
}

function sameTime(a: string | null | undefined, b: string): boolean {
  return a != null && Math.abs(Date.parse(a) - Date.parse(b)) < 1_000;
}
