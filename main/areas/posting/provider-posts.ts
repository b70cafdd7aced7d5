import type { HistoryItem } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { PostsvcClient, PostsvcStatus } from '../../peers/postsvc.js';
import type { PostMetrics, ProviderHistoryItem } from '../../peers/postsvc-wire.js';
import { peerAppError } from '../../peers/peer-app-error.js';
import { AppError } from '../../kernel/app-error.js';
import type { PostingEngine } from './engine.js';
import type { LedgerRow, PostingRepo } from './repo.js';
import type { SocialPostChanges, SocialPostRecord, SocialPostRecords } from './social-post-record.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { providerStatusOf } from './history-match.js';
import { outcomesOf, rowPlatformStates } from './platform-states.js';

export interface SyncResult {
  synced: number;
  updated: number;
  errors: number;
  failures: { socialPostId: string; error: string }[];
}

/** What a SocialPost record should say, given its provider post (null: leave it). */
export function syncChange(
  item: ProviderHistoryItem,
  record: Pick<SocialPostRecord, 'status'>,
  knownPostsvcId: boolean,
): SocialPostChanges | null {
  const status = record.status;
  const change: SocialPostChanges = {};
  switch (item.status) {
    case 'success':
      if (status !== 'Published') change.status = 'Published';
      break;
    case 'error': {
      const error = errorsOf(item).join('; ') || 'the provider reports an error';
      if (status !== 'Failed') Object.assign(change, { status: 'Failed', error });
      break;
    }
    case 'scheduled':
      // Only a Failed record is moved back: a Draft one is being cancelled, a Published one is ahead.
      if (status === 'Failed') Object.assign(change, { status: 'Scheduled', error: null });
      break;
  }
  if (Object.keys(change).length === 0) return null;
  if (!knownPostsvcId) change.postsvcId = item.id;
  return change;
}

function errorsOf(item: ProviderHistoryItem): string[] {
  return item.errors.map((e) => [e.platform, e.message].filter(Boolean).join(': ')).filter(Boolean);
}

/**
 * What the operator sees of a ledger row (each platform's state, reason, provider post and URL),
 * as one comparable string: Sync counts a row as updated when this changed, not when it only
 * refined a timestamp or filled in what the row already implied.
 */
function ledgerFacts(row: LedgerRow): string {
  return JSON.stringify(rowPlatformStates(row));
}

/** A provider post's likes, comments and shares as last collected (zeros when never collected). */
export type LatestPostNumbers = (postsvcId: string) => { likes: number; comments: number; shares: number };

/** Provider history for the API and the sync of SocialPost statuses from it (spec §4.1). */
export class ProviderPosts {
  constructor(
    private readonly deps: {
      client: PostsvcClient;
      records: SocialPostRecords | null;
      /** The ledger's transitions (a post adopted, what the provider says of it). */
      engine: PostingEngine;
      repo: PostingRepo;
      activity: ActivityLog;
      /** A post's latest stored numbers (DESIGN §6.5), from the analytics area. */
      latestNumbers: LatestPostNumbers;
      now: () => Date;
    },
  ) {}

  async history(query: {
    limit: number;
    status?: 'scheduled' | 'published' | 'error' | undefined;
    platform?: PlatformKey | undefined;
  }): Promise<HistoryItem[]> {
    const { client, repo } = this.deps;
    const status: PostsvcStatus | undefined = query.status === 'published' ? 'success' : query.status;
    const filter = {
      ...(status ? { status } : {}),
      ...(query.platform ? { platforms: [query.platform] } : {}),
    };
    const items =
      query.limit <= 100
        ? (await client.history({ limit: query.limit, ...filter })).items
        : await client.historyAll({ ...filter, maxItems: query.limit });
    return items.slice(0, query.limit).map((item) => ({
      id: item.id,
      post: item.post,
      platforms: item.platforms,
      status: providerStatusOf(item.status),
      publishedAt:
        item.publishedAt ?? (item.status === 'success' ? (item.scheduleDate ?? item.created ?? null) : null),
      scheduleDate: item.scheduleDate ?? null,
      created: item.created ?? null,
      analytics: this.deps.latestNumbers(item.id),
      errors: errorsOf(item),
      socialPostId: repo.byPostsvcId(item.id)?.social_post_id ?? null,
    }));
  }

  /** One provider post's numbers per platform; a post the provider does not know is 404 naming it (DESIGN §5.2). */
  async postAnalytics(postId: string): Promise<{
    analytics: Record<string, PostMetrics>;
    errors: Record<string, string>;
  }> {
    let perPlatform;
    try {
      perPlatform = await this.deps.client.analyticsPost(postId);
    } catch (error) {
      throw peerAppError(error, {
        notFound: `postId: the provider has no post ${postId} (never created, or deleted)`,
      });
    }
    const analytics: Record<string, PostMetrics> = {};
    const errors: Record<string, string> = {};
    for (const [platform, value] of Object.entries(perPlatform)) {
      if (value.ok) analytics[platform] = value.metrics;
      else errors[platform] = value.error;
    }
    return { analytics, errors };
  }

  /** A platform account's numbers: followers, following, impressions, engagement and its rate. */
  async accountAnalytics(platform: PlatformKey) {
    const answer = (await this.deps.client.analyticsSocial([platform]))[platform];
    if (!answer?.ok) {
      throw AppError.peer(
        'PLATFORM_ERROR',
        `posting provider has no analytics for ${platform}`,
        answer?.error,
      );
    }
    const { followers, following, impressions, engagement, engagementRate } = answer.metrics;
    return { followers, following, impressions, engagement, engagementRate };
  }

  /**
   * Reads every provider post and brings matching SocialPost records in line: by the record's
   * postsvcId, or through the ledger when the write-back of postsvcId had not happened.
   */
  async sync(): Promise<SyncResult> {
    const { client, records: crm, repo, engine, activity } = this.deps;
    const items = await client.historyAll();
    const records = crm ? await crm.list([]) : [];
    const byPostsvcId = new Map(records.flatMap((r) => (r.postsvcId ? [[r.postsvcId, r] as const] : [])));
    const byId = new Map(records.map((r) => [r.id, r]));
    const result: SyncResult = { synced: 0, updated: 0, errors: 0, failures: [] };

    for (const item of items) {
      const row =
        repo.byPostsvcId(item.id) ?? (item.idempotencyKey ? repo.byKey(item.idempotencyKey) : undefined);
      let changed = false;
      if (row) {
        const before = ledgerFacts(row);
        // The provider has the post an earlier attempt could not confirm: the ledger owns it now.
        if (!row.postsvc_id && (row.state === 'failed' || row.state === 'unknown')) engine.adopt(row, item);
        engine.providerSays(
          row,
          {
            status: providerStatusOf(item.status),
            failure: errorsOf(item).join('; ') || null,
            outcomes:
              item.postIds.length > 0
                ? outcomesOf(row.platforms, item.postIds, item.errors, 'the provider reports an error')
                : {},
          },
          item.publishedAt ?? null,
        );
        const after = repo.get(row.id);
        changed = after !== undefined && ledgerFacts(after) !== before;
        // A final state found here needs no timed check any more (DESIGN §6.9).
        if (after?.confirm_at && item.status !== 'scheduled') engine.nextCheck(row, null);
      }
      const viaLedger = row?.social_post_id && row.active ? byId.get(row.social_post_id) : undefined;
      const record = byPostsvcId.get(item.id) ?? viaLedger;
      if (record && crm) result.synced++;
      // A live post held for the operator (DESIGN §6.9) is not written over by Sync either.
      const held = row?.live_hold != null;
      const change = record && crm && !held ? syncChange(item, record, record.postsvcId === item.id) : null;
      if (!change || !record || !crm) {
        if (changed) result.updated++;
        continue;
      }
      try {
        if ((await crm.write(record.id, change)) === 'gone')
          throw new Error(`SocialPost ${record.id} is gone from the CRM`);
        changed = true;
      } catch (error) {
        result.errors++;
        result.failures.push({
          socialPostId: record.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      // Counted once per post, whether its ledger row, its record or both changed.
      if (changed) result.updated++;
    }
    activity.record(
      'posting.sync',
      result.errors > 0 ? 'warn' : 'info',
      `sync: ${items.length} provider posts read, ${result.synced} SocialPost records matched, ${result.updated} posts updated (ledger or record), ${result.errors} errors`,
      { ...result, failures: result.failures.slice(0, 20) },
    );
    return result;
  }
}
