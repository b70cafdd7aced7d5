import type { PostView, PostViewStatus } from '../../../shared/api/posting.js';
import type { PeerFailure } from '../../../shared/api/contract.js';
import type { SocialPostRecord, SocialPostRecords } from './social-post-record.js';
import { peerFailureIn } from '../../peers/peer-failure.js';
import { mergedPlatformStates, overallStatus, rowPlatformStates } from './platform-states.js';
import type { LedgerRow, PostingRepo } from './repo.js';

/** The ledger row's state as the dashboard shows it (its platforms' states taken together). */
export function ledgerStatus(row: LedgerRow): PostViewStatus {
  return overallStatus(rowPlatformStates(row));
}

/**
 * A CRM record's status, refined by the ledger while a create is in flight or unconfirmed; a
 * Draft record whose post the bridge cancelled is a cancelled post (it can be rescheduled).
 */
export function recordStatus(record: SocialPostRecord, row: LedgerRow | undefined): PostViewStatus {
  if (row && row.active && (row.state === 'claimed' || row.state === 'unknown')) return ledgerStatus(row);
  if (record.status === 'Draft' && row?.active && row.state === 'cancelled') return 'cancelled';
  switch (record.status) {
    case 'Scheduled':
      return 'scheduled';
    case 'Published':
      return 'published';
    case 'Failed':
      return 'failed';
    default:
      return 'draft';
  }
}

/**
 * DESIGN §6.9: a post past its time that the provider still holds as scheduled is "due" while
 * the bridge's checks run, "unconfirmed" once they stopped (an hour after its time).
 */
export function confirmationOf(row: LedgerRow | undefined, now: Date): PostView['confirmation'] {
  if (!row?.active || row.state !== 'posted' || row.provider_status !== 'scheduled') return null;
  if (Date.parse(row.publish_at) > now.getTime()) return null;
  return row.confirm_at !== null ? 'due' : 'unconfirmed';
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A dashboard post as Posts shows it (its retries of failed platforms merged in). */
export function fromLedger(row: LedgerRow, retries: readonly LedgerRow[], now: Date): PostView {
  const platformStates = mergedPlatformStates(row, retries);
  const status = overallStatus(platformStates);
  return {
    key: row.social_post_id ? `crm:${row.social_post_id}` : `api:${row.id}`,
    source: row.source,
    socialPostId: row.social_post_id,
    ledgerId: row.id,
    name: null,
    contentProductionId: row.content_production_id,
    contentProductionName: null,
    clipId: row.clip_id,
    status,
    crmStatus: null,
    post: row.post,
    platforms: row.platforms,
    platformStates,
    mediaUrls: row.media_urls,
    scheduleDate: row.schedule_date,
    publishAt: row.publish_at,
    postsvcId: row.postsvc_id,
    // A post that is partly out carries its failures per platform; the row's error is the whole call's.
    error: status === 'failed' ? row.error : null,
    confirmation: status === 'scheduled' ? confirmationOf(row, now) : null,
    liveHold: row.live_hold,
  };
}

function fromRecord(record: SocialPostRecord, row: LedgerRow | undefined, now: Date): PostView {
  const platform = str(record.platform)?.toLowerCase() ?? null;
  const mediaUrl = str(record.mediaUrl);
  const scheduledAt = str(record.scheduledAt);
  const status = recordStatus(record, row);
  const postsvcId = str(record.postsvcId) ?? (row?.state === 'posted' ? row.postsvc_id : null);
  const error = str(record.error) ?? (row?.state === 'failed' ? row.error : null);
  return {
    key: `crm:${record.id}`,
    source: 'crm',
    socialPostId: record.id,
    ledgerId: row?.id ?? null,
    name: str(record.name),
    contentProductionId: record.contentProductionId ?? null,
    contentProductionName: record.contentProductionName ?? null,
    clipId: record.clipId ?? null,
    status,
    crmStatus: str(record.status),
    post: str(record.content) ?? row?.post ?? '',
    platforms: platform ? [platform] : [],
    // A SocialPost has one platform: its state is the record's (its URL the ledger's, once published).
    platformStates: platform
      ? [{ platform, status, error, postsvcId, postUrl: publishedUrl(row, platform, postsvcId, status) }]
      : [],
    mediaUrls: mediaUrl ? [mediaUrl] : [],
    scheduleDate: scheduledAt,
    publishAt: scheduledAt ?? row?.publish_at ?? null,
    postsvcId,
    error,
    confirmation: status === 'scheduled' ? confirmationOf(row, now) : null,
    liveHold: row?.active ? row.live_hold : null,
  };
}

function publishedUrl(
  row: LedgerRow | undefined,
  platform: string,
  postsvcId: string | null,
  status: PostViewStatus,
): string | null {
  if (status !== 'published' || !row || row.postsvc_id !== postsvcId) return null;
  return row.platform_states?.[platform as keyof typeof row.platform_states]?.postUrl ?? null;
}

/**
 * The dashboard's list: every post the ledger knows, merged with the CRM's Scheduled,
 * Published and Failed SocialPosts (the CRM's status wins for its records). Without the CRM,
 * the ledger alone, and the reason.
 */
export async function listPostViews(
  deps: { repo: PostingRepo; records: SocialPostRecords | null; now: () => Date },
  query: { from?: string | undefined; to?: string | undefined; limit: number },
): Promise<{ data: PostView[]; crmError: string | null; crmFailure: PeerFailure | null }> {
  const { repo, records: crm } = deps;
  const now = deps.now();
  const from = query.from ? new Date(query.from).toISOString() : null;
  const to = query.to ? new Date(query.to).toISOString() : null;
  const rows =
    from || to ? repo.inWindow(from ?? '0000', to ?? '9999', query.limit) : repo.recent(query.limit);
  const inWindow = (at: string | null) => at !== null && (!from || at >= from) && (!to || at < to);

  let records: SocialPostRecord[] = [];
  let crmError: string | null = null;
  let crmFailure: PeerFailure | null = null;
  if (crm) {
    try {
      records = await crm.list([
        { type: 'in', attribute: 'status', value: ['Scheduled', 'Published', 'Failed', 'Draft'] },
      ]);
    } catch (error) {
      crmError = error instanceof Error ? error.message : String(error);
      crmFailure = peerFailureIn(error) ?? null;
    }
  } else {
    crmError = 'no CRM configured';
  }

  const views = new Map<string, PostView>();
  for (const row of rows) {
    // A retry of failed platforms is shown within the post it retries.
    // A CRM post's view is its record's, unless the record was deleted while its post is live.
    const shownByRecord = row.source === 'crm' && crm && !crmError && row.live_hold !== 'crm-deleted';
    if (!row.active || row.retry_of !== null || shownByRecord) continue;
    const key = row.social_post_id ? `crm:${row.social_post_id}` : `api:${row.id}`;
    views.set(key, fromLedger(row, repo.retriesOf(row.id), now));
  }
  for (const record of records) {
    const row = repo.active(record.id);
    // Drafts are the CRM's business, unless the bridge cancelled their post (they can be rescheduled here).
    if (record.status === 'Draft' && !(row?.state === 'cancelled')) continue;
    const view = fromRecord(record, row, now);
    if ((from || to) && !inWindow(view.publishAt)) continue;
    views.set(view.key, view);
  }
  const data = [...views.values()]
    .sort((a, b) => (b.publishAt ?? '').localeCompare(a.publishAt ?? ''))
    .slice(0, query.limit);
  return { data, crmError, crmFailure };
}
