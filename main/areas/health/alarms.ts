import type { Alarm } from '../../../shared/api/health.js';
import type { PeerHealth, PeerName } from '../../../shared/api/health.js';
import type { JobQueue } from '../../kernel/jobs/queue.js';

/** A job or publish still not done this long after it was due raises an alarm (DESIGN §6.9). */
export const OVERDUE_GRACE_MS = 2 * 60_000;

/** Jobs still pending more than 2 min after their run time: the queue is stuck or held up. */
export function overdueJobAlarms(jobs: JobQueue, now: Date): Alarm[] {
  return jobs.overdue(OVERDUE_GRACE_MS).map((job) => ({
    id: `job:${job.id}`,
    kind: 'job',
    message: `job ${job.id} (${job.what}) was due ${minutesAgo(job.runAt, now)} and has not run`,
    since: job.runAt,
  }));
}

/** "5 min ago" / "2 h 10 min ago" from an ISO time. */
export function minutesAgo(iso: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''} ago`;
}

/** Configured peers refused their key or unreachable, one line each, for `reasons`. */
export function peerReasons(peers: Record<PeerName, PeerHealth>): string[] {
  return Object.entries(peers).flatMap(([name, peer]) => {
    if (!peer.configured) return [];
    if (peer.refusedKeyFor !== null) return [`${name}: ${peer.lastError}`];
    return peer.reachable === false
      ? [`${name} unreachable${peer.lastError ? `: ${peer.lastError}` : ''}`]
      : [];
  });
}
