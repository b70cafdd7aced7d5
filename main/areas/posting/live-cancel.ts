import type { PlatformKey } from '../../../shared/platforms.js';
import type { PostsvcClient } from '../../peers/postsvc.js';
import { knownLive, postUrlsOf } from './live-state.js';
import { keepVerdict, providerVerdict } from './provider-state.js';
import type { LedgerRow, PostingRepo } from './repo.js';

/** Closer to its time than this (or past it), a post may already be out: the provider is read first. */
export const READ_FIRST_WITHIN_MS = 2 * 60_000;

export type LiveCancelOutcome =
  /** Cancelled at the provider (`existed` false: the provider no longer had it). */
  | { kind: 'cancelled'; existed: boolean }
  /** Already published on these platforms: nothing was deleted. */
  | { kind: 'live'; platforms: PlatformKey[]; postUrls: string[] };

/**
 * The posting engine's cancel (engine.ts), the one every path uses — dashboard, CRM webhooks, catch-up, reschedule (DESIGN §6.9
 * "Cancel never deletes a live post unasked"). The provider's DELETE /post also takes a
 * published post down from the platform, so a post the ledger knows is out is never deleted,
 * and one whose time is less than 2 min away or past is read first (GET /post/{id}): the
 * provider publishes at its time without telling anyone. What the read finds is kept on the
 * ledger. Only the spec's /postsvc/delete deletes a live post, when the operator asks for it.
 */
export class LiveSafeCancel {
  constructor(private readonly deps: { client: PostsvcClient; repo: PostingRepo; now: () => Date }) {}

  /** Cancels the post of a ledger row (state `posted`), unless it is live. */
  async cancelRow(row: LedgerRow, signal?: AbortSignal): Promise<LiveCancelOutcome> {
    const { repo, now } = this.deps;
    const known = knownLive(row);
    if (known.length > 0) return { kind: 'live', platforms: known, postUrls: postUrlsOf(row) };
    const outcome = await this.cancelId(row.postsvc_id!, row.publish_at, row, signal);
    if (outcome.kind === 'cancelled') repo.markCancelled(row.id, now());
    return outcome;
  }

  /**
   * Cancels a provider post by id; `publishAt` null (a post the ledger does not know) is read
   * first whatever its time. `row`: the ledger row whose state a read updates.
   */
  async cancelId(
    postsvcId: string,
    publishAt: string | null,
    row: LedgerRow | undefined,
    signal?: AbortSignal,
  ): Promise<LiveCancelOutcome> {
    const { client, repo, now } = this.deps;
    const at = publishAt === null ? Number.NaN : Date.parse(publishAt);
    if (Number.isNaN(at) || at - now().getTime() < READ_FIRST_WITHIN_MS) {
      const item = await client.getPost(postsvcId, signal);
      if (item === null) return { kind: 'cancelled', existed: false };
      const verdict = providerVerdict(row ?? { platforms: item.platforms as PlatformKey[] }, item);
      if (verdict.published.length > 0) {
        // Seen live here, the record is brought in line by the caller.
        if (row) keepVerdict(repo, row, verdict, item, now());
        return { kind: 'live', platforms: verdict.published, postUrls: verdict.postUrls };
      }
      if (verdict.status === 'deleted') return { kind: 'cancelled', existed: false };
    }
    return { kind: 'cancelled', existed: await client.delete(postsvcId, signal) };
  }
}
