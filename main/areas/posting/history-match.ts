import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import type { LedgerRow } from './repo.js';

/** How far the provider's `created` may be before the bridge's claim (clock skew). */
const SKEW_MS = 5 * 60_000;

/**
 * The provider post a ledger row's unknown-outcome create produced, if any (DESIGN §6.2):
 * by idempotency key when the provider echoes it, else by the same text, platforms and
 * schedule date, created after the claim, and not already another row's post.
 */
export function findCreatedPost(
  row: Pick<LedgerRow, 'idempotency_key' | 'post' | 'platforms' | 'schedule_date' | 'claimed_at'>,
  history: readonly ProviderHistoryItem[],
  ownedElsewhere: (postsvcId: string) => boolean,
): ProviderHistoryItem | null {
  const byKey = history.find((item) => item.idempotencyKey === row.idempotency_key);
  if (byKey) return byKey;
  const platforms = row.platforms.slice().sort().join(',');
  const claimedAt = Date.parse(row.claimed_at);
  const sameTime = (a: string | null | undefined, b: string | null) =>
    a == null || b === null ? (a ?? null) === b : Math.abs(Date.parse(a) - Date.parse(b)) < 1_000;
  const candidates = history.filter(
    (item) =>
      (item.idempotencyKey == null || item.idempotencyKey === '') &&
      item.post === row.post &&
      [...item.platforms].sort().join(',') === platforms &&
      sameTime(item.scheduleDate, row.schedule_date) &&
      (item.created == null || Date.parse(item.created) >= claimedAt - SKEW_MS) &&
      !ownedElsewhere(item.id),
  );
  // Newest first is the provider's order; the earliest after the claim is the one our call made.
  return candidates.at(-1) ?? null;
}

/** True once the history page reaches posts created well before the claim: no need to read further. */
export function olderThanClaim(item: ProviderHistoryItem, claimedAt: string): boolean {
  return item.created != null && Date.parse(item.created) < Date.parse(claimedAt) - SKEW_MS;
}

/** The provider's status words as the bridge's (spec §4.1): `success` is published. */
export function providerStatusOf(status: string): 'scheduled' | 'published' | 'error' | 'deleted' {
  if (status === 'success') return 'published';
  if (status === 'scheduled' || status === 'error' || status === 'deleted') return status;
  return 'error';
}
