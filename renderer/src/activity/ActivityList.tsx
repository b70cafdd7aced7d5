import type { ActivityLevel, StoredActivityEvent } from '../../../shared/api/activity.js';
import { formatClock, formatDateTime, formatRelative, formatUtc, useNow } from '../format.js';
import { activityText } from './activity-words.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';

const levelTone: Record<ActivityLevel, Tone> = { info: 'info', warn: 'warn', error: 'bad' };

export interface ActivityRow {
  /** Any event, typed or not: stored history may hold types this build does not know. */
  event: StoredActivityEvent;
  /** Arrived over /events after the list was loaded. */
  live: boolean;
}

/**
 * Activity events, newest first: time, level, type and what happened, in the bridge's words
 * (names, not ids; local time with UTC beside it). The bridge's own message and the event's ids are in
 * "Details" (full list) or the tooltip (compact feed); live arrivals are marked "new".
 */
export function ActivityList({ rows, compact = false }: { rows: readonly ActivityRow[]; compact?: boolean }) {
  const now = useNow(15_000);
  return (
    <ol className={`activity-list ${compact ? 'activity-compact' : ''}`.trim()}>
      {rows.map(({ event, live }) => {
        const words = activityText(event);
        const hasData = event.data !== null && Object.keys(event.data).length > 0;
        return (
          <li
            key={event.id}
            className={`activity-item ${live ? 'activity-live' : ''}`.trim()}
            data-testid="activity-item"
            data-live={live ? 'true' : undefined}
            data-type={event.type}
          >
            <time
              className="activity-time"
              dateTime={event.at}
              title={`${formatDateTime(event.at)} · ${formatUtc(event.at)}`}
            >
              {compact ? (
                formatRelative(event.at, now)
              ) : (
                <>
                  <span data-testid="time-local">{formatClock(event.at)}</span>
                  {event.level === 'error' ? (
                    <span className="activity-utc small mono" data-testid="time-utc">
                      {formatUtc(event.at).slice(11)}
                    </span>
                  ) : null}
                </>
              )}
            </time>
            <StatusPill tone={levelTone[event.level]}>{event.level}</StatusPill>
            <div className="activity-main">
              <div className="activity-headline">
                <span className="activity-type mono">{event.type}</span>
                {live ? <span className="tag-new">new</span> : null}
              </div>
              <p
                className="activity-message"
                title={compact && words !== event.message ? event.message : undefined}
              >
                {words}
              </p>
              {!compact && (hasData || words !== event.message) ? (
                <details className="activity-data">
                  <summary>Details</summary>
                  {words !== event.message ? (
                    <p className="small activity-raw">
                      Logged as: <span className="mono">{event.message}</span>
                    </p>
                  ) : null}
                  {hasData ? <pre>{JSON.stringify(event.data, null, 2)}</pre> : null}
                </details>
              ) : null}
            </div>
          </li>
        );
      })}
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
