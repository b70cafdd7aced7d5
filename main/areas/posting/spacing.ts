import type { NearbyPost } from '../../../shared/post-rules.js';
import { MIN_SPACING_MS } from '../../../shared/post-timing.js';
import type { PostingRepo } from './repo.js';
import type { SocialPostRecords } from './social-post-record.js';

/**
 * Every post going out within the spacing window of `at` (the 2-hour warning, DESIGN §6.2):
 * the ledger's, and the CRM's Scheduled SocialPosts, which the ledger may never have seen
 * (scheduled before the bridge was installed, or straight at the provider). A CRM that cannot
 * be read leaves the ledger's: spacing is a warning, not worth failing a post for.
 */
export async function postsNear(
  deps: { repo: PostingRepo; records: SocialPostRecords | null },
  at: number,
  exclude: { socialPostId?: string | null; id?: number } = {},
): Promise<NearbyPost[]> {
  const from = at - MIN_SPACING_MS;
  const to = at + MIN_SPACING_MS;
  const ledger = deps.repo
    .nearby(new Date(from).toISOString(), new Date(to).toISOString(), exclude)
    .map((row) => ({ platforms: row.platforms, at: row.publish_at }));
  if (!deps.records) return ledger;
  let scheduled;
  try {
    scheduled = await deps.records.list(
      [{ type: 'equals', attribute: 'status', value: 'Scheduled' }],
      ['id', 'platform', 'scheduledAt'],
    );
  } catch {
    return ledger;
  }
  const fromCrm = scheduled.flatMap((record): NearbyPost[] => {
    const time = record.scheduledAt ? Date.parse(record.scheduledAt) : NaN;
    if (record.id === exclude.socialPostId || Number.isNaN(time) || time < from || time > to) return [];
    return [{ platforms: [record.platform.toLowerCase()], at: new Date(time).toISOString() }];
  });
  return [...ledger, ...fromCrm];
}
