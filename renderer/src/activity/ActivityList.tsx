import type { ActivityLevel, StoredActivityEvent } from '../../../shared/api/activity.js';
import { formatClock, formatDateTime, formatRelative, useNow } from '../format.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';

const levelTone: Record<ActivityLevel, Tone> = { info: 'info', warn: 'warn', error: 'bad' };

export interface ActivityRow {
  /** Any event, typed or not: stored history may hold types this build does not know. */
  event: StoredActivityEvent;
  /** Arrived over /events after the list was loaded. */
  live: boolean;
}

/** Activity events, newest first: time, level, type, message; live arrivals are marked "new". */
export function ActivityList({ rows, compact = false }: { rows: readonly ActivityRow[]; compact?: boolean }) {
  const now = useNow(15_000);
  return (
    <ol className={`activity-list ${compact ? 'activity-compact' : ''}`.trim()}>
      {rows.map(({ event, live }) => (
        <li
          key={event.id}
          className={`activity-item ${live ? 'activity-live' : ''}`.trim()}
          data-testid="activity-item"
          data-live={live ? 'true' : undefined}
        >
          <time className="activity-time" dateTime={event.at} title={formatDateTime(event.at)}>
            {compact ? formatRelative(event.at, now) : formatClock(event.at)}
          </time>
          <StatusPill tone={levelTone[event.level]}>{event.level}</StatusPill>
          <div className="activity-main">
            <div className="activity-headline">
              <span className="activity-type mono">{event.type}</span>
              {live ? <span className="tag-new">new</span> : null}
            </div>
            <p className="activity-message">{event.message}</p>
            {!compact && event.data && Object.keys(event.data).length > 0 ? (
              <details className="activity-data">
                <summary>Details</summary>
                <pre>{JSON.stringify(event.data, null, 2)}</pre>
              </details>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Live events first (newest first), then the loaded ones; each id once. */
export function mergeActivity(
  live: readonly StoredActivityEvent[],
  loaded: readonly StoredActivityEvent[],
  accept: (event: StoredActivityEvent) => boolean = () => true,
): ActivityRow[] {
  const newestLoaded = loaded.reduce((max, event) => Math.max(max, event.id), 0);
  const seen = new Set<number>();
  const rows: ActivityRow[] = [];
  for (const event of live) {
    if (event.id <= newestLoaded || seen.has(event.id) || !accept(event)) continue;
    seen.add(event.id);
    rows.push({ event, live: true });
  }
  for (const event of loaded) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    rows.push({ event, live: false });
  }
  return rows;
}
