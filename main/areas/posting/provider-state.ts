import type { PlatformKey } from '../../../shared/platforms.js';
import type { ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import { providerStatusOf } from './history-match.js';
import { outcomesOf } from './platform-states.js';
import type { LedgerRow, PlatformOutcomes, PostingRepo } from './repo.js';

/**
 * What the provider says of one of the bridge's posts right now (GET /history or GET /post/{id}),
 * read per platform (DESIGN §6.9): which platforms are out (with their URLs), which failed and
 * in the platform's words, and whether the post is final (nothing still scheduled).
 */
export interface ProviderVerdict {
  status: 'scheduled' | 'published' | 'error' | 'deleted';
  outcomes: PlatformOutcomes;
  /** Platforms the post is live on: never deleted unasked. */
  published: PlatformKey[];
  postUrls: string[];
  /** The platforms' own words for those that failed ("microblog: duplicate content"). */
  failure: string | null;
  /** Every platform published or failed, or the post deleted: no more checks. */
  final: boolean;
}

export function providerVerdict(
  row: Pick<LedgerRow, 'platforms'>,
  item: ProviderHistoryItem,
): ProviderVerdict {
  const status = providerStatusOf(item.status);
  const outcomes =
    item.postIds.length > 0
      ? outcomesOf(row.platforms, item.postIds, item.errors, 'the provider reports an error')
      : {};
  const entries = Object.entries(outcomes) as [PlatformKey, NonNullable<PlatformOutcomes[PlatformKey]>][];
  const published = entries.filter(([, o]) => o.status === 'published').map(([platform]) => platform);
  const failed = entries.filter(([, o]) => o.status === 'failed');
  const words = failed.map(([platform, o]) => `${platform}: ${o.error ?? 'failed'}`);
  const topErrors = item.errors
    .map((e) => [e.platform, e.message].filter(Boolean).join(': '))
    .filter(Boolean);
  return {
    status,
    outcomes,
    published,
    postUrls: entries.flatMap(([, o]) => (o.postUrl ? [o.postUrl] : [])),
    failure:
      words.length > 0
        ? words.join('; ')
        : status === 'error'
          ? topErrors.join('; ') || 'the provider reports an error'
          : null,
    final:
      status === 'deleted' ||
      (entries.length > 0 && entries.every(([, o]) => o.status !== 'scheduled')) ||
      (entries.length === 0 && status !== 'scheduled'),
  };
}

/** What the provider just said of a row's post, kept on the row; a final state needs no more timed checks. */
export function keepVerdict(
  repo: PostingRepo,
  row: Pick<LedgerRow, 'id'>,
  verdict: ProviderVerdict,
  item: ProviderHistoryItem,
  now: Date,
): void {
  repo.setProviderStatus(
    row.id,
    verdict.status,
    item.publishedAt ?? null,
    verdict.failure,
    now,
    verdict.outcomes,
  );
  if (verdict.final) repo.setNextCheck(row.id, null, now);
}
