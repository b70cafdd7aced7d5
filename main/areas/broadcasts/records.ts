import type { BroadcastRecord, RemoteBroadcast } from '../../../shared/api/broadcasts.js';
import { finishedBroadcastStatuses } from '../../../shared/api/broadcasts.js';
import type { CrmRecord } from '../../peers/crm.js';

/** StreamhostBroadcast (spec §2.6) as the dashboard shows it; missing fields are null. */
export function toBroadcastRecord(record: CrmRecord): BroadcastRecord {
  const text = (key: string): string | null => {
    const value = record[key];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  const viewers = Number(record.viewerCount ?? 0);
  return {
    id: record.id,
    name: text('name') ?? '(unnamed)',
    streamhostId: text('streamhostId'),
    status: text('status'),
    viewerCount: Number.isFinite(viewers) ? viewers : 0,
    scheduledAt: text('scheduledAt'),
    startedAt: text('startedAt'),
    channelId: text('channelId'),
    embedUrl: text('embedUrl'),
    dashboardUrl: text('dashboardUrl'),
    contentProductionId: text('contentProductionId'),
    contentProductionName: text('contentProductionName'),
  };
}

export interface BroadcastChange {
  /** Only the fields to PUT. */
  changes: { status: string; viewerCount: number; startedAt?: string };
  /** The status before, when it changed (null: it was empty). */
  statusChangedFrom: string | null | undefined;
}

/**
 * Sync rule (spec §3.6, issue #6): when the host's status or viewerCount differs from the
 * record, both are overwritten (startedAt too, once the host has one). Null: nothing to write.
 */
export function broadcastChange(record: BroadcastRecord, remote: RemoteBroadcast): BroadcastChange | null {
  const statusDiffers = record.status !== remote.status;
  if (!statusDiffers && record.viewerCount === remote.viewerCount) return null;
  const startedAtDiffers = remote.startedAt !== null && !sameInstant(record.startedAt, remote.startedAt);
  return {
    changes: {
      status: remote.status,
      viewerCount: remote.viewerCount,
      ...(startedAtDiffers && remote.startedAt ? { startedAt: remote.startedAt } : {}),
    },
    statusChangedFrom: statusDiffers ? record.status : undefined,
  };
}

function sameInstant(a: string | null, b: string): boolean {
  if (a === null) return false;
  const left = Date.parse(a);
  const right = Date.parse(b);
  return Number.isNaN(left) || Number.isNaN(right) ? a === b : left === right;
}

/** Still to watch: not complete or revoked (an unknown or empty status counts as active). */
export function isActiveBroadcast(status: string | null): boolean {
  return status === null || !finishedBroadcastStatuses.includes(status);
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
