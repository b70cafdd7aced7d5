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

/** The close watch (DESIGN §6.9): from 10 min before a broadcast's start until 6 h past it. */
const WATCH_BEFORE_MS = 10 * 60_000;
const WATCH_AFTER_MS = 6 * 3_600_000;

/**
 * When a broadcast is read every few seconds instead of every 30: from 10 min before its start
 * (scheduledAt) until 6 h past its start (when it went live, else scheduledAt). Null: never
 * (finished, or no time known).
 */
export function closeWatchWindow(record: BroadcastRecord): { from: number; until: number } | null {
  if (!isActiveBroadcast(record.status)) return null;
  const scheduled = record.scheduledAt ? Date.parse(record.scheduledAt) : NaN;
  const started = record.startedAt ? Date.parse(record.startedAt) : NaN;
  const start = Number.isNaN(started) ? scheduled : started;
  if (Number.isNaN(start)) return null;
  const from = Math.min(Number.isNaN(scheduled) ? start : scheduled, start) - WATCH_BEFORE_MS;
  return { from, until: start + WATCH_AFTER_MS };
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
