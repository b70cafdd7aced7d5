import type { BroadcastRun, ListedBroadcast } from '../../../shared/api/broadcasts.js';
import { formatDuration, formatLocal } from '../format.js';

/** Viewer counts as the operator reads them ("1,137"). */
const viewers = new Intl.NumberFormat();
export function formatViewers(count: number): string {
  return viewers.format(count);
}

/** Reads this far apart, the bridge saw the end as it happened (a sync every 5 s while live). */
const END_SEEN_WITHIN_MS = 60_000;

/**
 * An ended broadcast in one line (issue #41.3): "Ended Tue, Dec 1, 10:58 PM · ran 13 min 2 s ·
 * peak 1,137 viewers · average 842". The end is "by" a time when the bridge was away as it ended
 * (then the run is at least until it was last seen live). Null without a run: the bridge never saw
 * it live, so it has no figures of it.
 */
export function endedWords(record: Pick<ListedBroadcast, 'startedAt'>, run: BroadcastRun): string | null {
  if (run.endedAt === null) return null;
  const lastLive = Date.parse(run.lastLiveAt);
  const seen = Date.parse(run.endedAt) - lastLive <= END_SEEN_WITHIN_MS;
  const start = Date.parse(record.startedAt ?? run.firstLiveAt);
  const end = seen ? Date.parse(run.endedAt) : lastLive;
  const ran = Number.isNaN(start) ? null : formatDuration((end - start) / 1000);
  const viewers = run.peakViewers === 1 ? 'viewer' : 'viewers';
  return [
    `Ended ${seen ? '' : 'by '}${formatLocal(run.endedAt)}`,
    ...(ran ? [`ran ${seen ? '' : 'at least '}${ran}`] : []),
    `peak ${formatViewers(run.peakViewers)} ${viewers}`,
    `average ${formatViewers(run.averageViewers)}`,
  ].join(' · ');
}
