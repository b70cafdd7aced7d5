import type { PublishState } from '../../../shared/api/publishing.js';
import type { Tone } from '../components/StatusPill.js';

/** Host statuses (DESIGN §5.3): live is the one to watch; revoked is the only bad end. */
export function broadcastTone(status: string | null): Tone {
  switch (status) {
    case 'live':
      return 'ok';
    case 'ready':
    case 'testing':
      return 'info';
    case 'created':
    case 'complete':
      return 'neutral';
    case 'revoked':
      return 'bad';
    default:
      return 'warn';
  }
}

export const publishTone: Record<PublishState, Tone> = {
  draft: 'neutral',
  queued: 'info',
  waiting: 'warn',
  publishing: 'info',
  published: 'ok',
  failed: 'bad',
};

export function publishLabel(state: PublishState, waitingOn: string | null): string {
  switch (state) {
    case 'draft':
      return 'Draft';
    case 'queued':
      return 'Queued';
    case 'waiting':
      return `Waiting on ${waitingOn ?? 'its dependency'}`;
    case 'publishing':
      return 'Publishing…';
    case 'published':
      return 'Published';
    case 'failed':
      return 'Failed';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:mm` of a date in local time: the value of an <input type="datetime-local">. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The next quarter hour at least an hour from `now`: a sensible default start. */
export function defaultStart(now: number): string {
  const date = new Date(now + 3_600_000);
  date.setSeconds(0, 0);
  date.setMinutes(Math.ceil(date.getMinutes() / 15) * 15);
  return toLocalInput(date);
}

/** A datetime-local value (local time) as ISO 8601 UTC, or null when it is not a complete date and time. */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** What the key field shows when hidden: never the key itself. */
export function maskKey(value: string): string {
  return value.length > 8 ? `••••${value.slice(-4)}` : '••••';
}

/**
 * Control-room order: live first, then what starts soonest, then the rest by most recent start.
 * Finished broadcasts (complete, revoked) go last whatever their date.
 */
export function sortBroadcasts<T extends { status: string | null; scheduledAt: string | null }>(
  records: readonly T[],
  now: number,
): T[] {
  const rank = (record: T): number => {
    if (record.status === 'live') return 0;
    if (record.status === 'complete' || record.status === 'revoked') return 3;
    const at = record.scheduledAt ? Date.parse(record.scheduledAt) : Number.NaN;
    return !Number.isNaN(at) && at >= now ? 1 : 2;
  };
  const time = (record: T): number => (record.scheduledAt ? Date.parse(record.scheduledAt) || 0 : 0);
  return [...records].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    return rank(a) === 1 ? time(a) - time(b) : time(b) - time(a);
  });
}
