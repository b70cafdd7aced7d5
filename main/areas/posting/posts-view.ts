import type { PostView, PostViewStatus } from '../../../shared/api/posting.js';
import type { CrmClient, CrmRecord } from '../../peers/crm.js';
import type { LedgerRow, PostingRepo } from './repo.js';

/** The ledger row's state as the dashboard shows it. */
export function ledgerStatus(row: LedgerRow): PostViewStatus {
  switch (row.state) {
    case 'claimed':
      return 'sending';
    case 'unknown':
      return 'checking';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'posted':
      if (row.error || row.provider_status === 'error') return 'failed';
      if (row.provider_status === 'deleted') return 'cancelled';
      return row.provider_status === 'published' ? 'published' : 'scheduled';
  }
}

/** A CRM record's status, refined by the ledger while a create is in flight or unconfirmed. */
export function recordStatus(record: CrmRecord, row: LedgerRow | undefined): PostViewStatus {
  if (row && row.active && (row.state === 'claimed' || row.state === 'unknown')) return ledgerStatus(row);
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

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function fromLedger(row: LedgerRow): PostView {
  return {
    key: row.social_post_id ? `crm:${row.social_post_id}` : `api:${row.id}`,
    source: row.source,
    socialPostId: row.social_post_id,
    ledgerId: row.id,
    name: null,
    status: ledgerStatus(row),
    crmStatus: null,
    post: row.post,
    platforms: row.platforms,
    mediaUrls: row.media_urls,
    scheduleDate: row.schedule_date,
    publishAt: row.publish_at,
    postsvcId: row.postsvc_id,
    error: row.error,
  };
}

function fromRecord(record: CrmRecord, row: LedgerRow | undefined): PostView {
  const platform = str(record.platform);
  const mediaUrl = str(record.mediaUrl);
  const scheduledAt = str(record.scheduledAt);
  return {
    key: `crm:${record.id}`,
    source: 'crm',
    socialPostId: record.id,
    ledgerId: row?.id ?? null,
    name: str(record.name),
    status: recordStatus(record, row),
    crmStatus: str(record.status),
    post: str(record.content) ?? row?.post ?? '',
    platforms: platform ? [platform.toLowerCase()] : [],
    mediaUrls: mediaUrl ? [mediaUrl] : [],
    scheduleDate: scheduledAt,
    publishAt: scheduledAt ?? row?.publish_at ?? null,
    postsvcId: str(record.postsvcId) ?? (row?.state === 'posted' ? row.postsvc_id : null),
    error: str(record.error) ?? (row?.state === 'failed' ? row.error : null),
  };
}

/**
 * The dashboard's list: every post the ledger knows, merged with the CRM's Scheduled,
 * Published and Failed SocialPosts (the CRM's status wins for its records). Without the CRM,
 * the ledger alone, and the reason.
 */
export async function listPostViews(
  deps: { repo: PostingRepo; crm: CrmClient | null },
  query: { from?: string | undefined; to?: string | undefined; limit: number },
): Promise<{ data: PostView[]; crmError: string | null }> {
  const { repo, crm } = deps;
  const from = query.from ? new Date(query.from).toISOString() : null;
  const to = query.to ? new Date(query.to).toISOString() : null;
  const rows =
    from || to ? repo.inWindow(from ?? '0000', to ?? '9999', query.limit) : repo.recent(query.limit);
  const inWindow = (at: string | null) => at !== null && (!from || at >= from) && (!to || at < to);

  let records: CrmRecord[] = [];
  let crmError: string | null = null;
  if (crm) {
    try {
      records = await crm.listAll('SocialPost', {
        where: [{ type: 'in', attribute: 'status', value: ['Scheduled', 'Published', 'Failed'] }],
      });
    } catch (error) {
      crmError = error instanceof Error ? error.message : String(error);
    }
  } else {
    crmError = 'no CRM configured';
  }

  const views = new Map<string, PostView>();
  for (const row of rows) {
    if (!row.active || (row.source === 'crm' && crm && !crmError)) continue;
    views.set(row.social_post_id ? `crm:${row.social_post_id}` : `api:${row.id}`, fromLedger(row));
  }
  for (const record of records) {
    const view = fromRecord(record, repo.active(record.id));
    if ((from || to) && !inWindow(view.publishAt)) continue;
    views.set(view.key, view);
  }
  const data = [...views.values()]
    .sort((a, b) => (b.publishAt ?? '').localeCompare(a.publishAt ?? ''))
    .slice(0, query.limit);
  return { data, crmError };
}
