import type {
  ProductionPublishing,
  PublishRecordView,
  PublishState,
} from '../../../shared/api/publishing.js';
import type { CrmRecord } from '../../peers/crm.js';
import type { PublishRouteTable } from '../../config/publish-routes.js';
import type { LedgerRow } from './repo.js';
import { maskKey } from '../../kernel/secret-mask.js';
import { chooseRoute, resolveDependency, toPublishRecord, type PublishRecord } from './plan.js';
import { STALE_CLAIM_MS } from './service.js';

/**
 * What the publishing panel shows for a record: the CRM's status refined by the bridge's
 * knowledge (in flight, waiting on its dependency, the retry note). The stream key is masked.
 */
export function publishView(
  table: PublishRouteTable,
  raw: CrmRecord,
  ledger: LedgerRow | undefined,
  siblings: readonly PublishRecord[],
  nowMs: number,
): PublishRecordView {
  const record = toPublishRecord(raw);
  const text = (key: string): string | null => {
    const value = raw[key];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  let state: PublishState = 'draft';
  let waitingOn: string | null = null;
  let note: string | null = null;
  if (record.status === 'Published') state = 'published';
  else if (record.status === 'Failed') state = 'failed';
  else if (record.status === 'Queued') {
    state = 'queued';
    const route = chooseRoute(table, record.platform, record.publishType);
    if (ledger?.status === 'publishing') {
      state = 'publishing';
      const stale = ledger.claimed_at !== null && nowMs - Date.parse(ledger.claimed_at) > STALE_CLAIM_MS;
      note = stale
        ? `started ${ledger.claimed_at} and never reported back: the outcome is unknown, check ${record.platform ?? 'the platform'} before retrying`
        : `publishing since ${ledger.claimed_at}`;
    } else if (!route.ok) {
      note = route.error;
    } else if (route.dependsOn) {
      const dependency = resolveDependency(table, record, route.dependsOn, siblings);
      if (dependency.kind === 'wait') {
        state = 'waiting';
        waitingOn = dependency.on;
        note = dependency.reason;
      } else if (dependency.kind === 'fail') {
        note = dependency.error;
      }
    }
    if (state === 'queued' && note === null && ledger?.status === 'retrying') note = ledger.note;
  }
  const streamKey = text('streamKey');
  return {
    id: record.id,
    name: text('name'),
    platform: record.platform,
    publishType: record.publishType,
    title: text('title'),
    status: record.status,
    state,
    waitingOn,
    note,
    platformUrl: text('platformUrl'),
    platformId: text('platformId') ?? (typeof raw.platformId === 'number' ? String(raw.platformId) : null),
    streamUrl: text('streamUrl'),
    streamKey: streamKey === null ? null : maskKey(streamKey),
    apiResponse: text('apiResponse'),
    scheduledAt: text('scheduledAt'),
    publishedAt: text('publishedAt'),
    modifiedAt: text('modifiedAt'),
  };
}

/** Records grouped by ContentProduction, groups in the order their first record was created. */
export function groupByProduction(
  table: PublishRouteTable,
  records: readonly CrmRecord[],
  ledger: ReadonlyMap<string, LedgerRow>,
  nowMs: number,
): ProductionPublishing[] {
  const groups = new Map<string | null, CrmRecord[]>();
  for (const record of records) {
    const key = typeof record.contentProductionId === 'string' ? record.contentProductionId : null;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  return [...groups].map(([contentProductionId, group]) => {
    const siblings = group.map(toPublishRecord);
    const name = group.find((r) => typeof r.contentProductionName === 'string')?.contentProductionName;
    return {
      contentProductionId,
      contentProductionName: typeof name === 'string' ? name : null,
      records: group.map((raw) => publishView(table, raw, ledger.get(raw.id), siblings, nowMs)),
    };
  });
}
