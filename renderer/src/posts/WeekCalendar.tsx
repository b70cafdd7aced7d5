import { useMemo, useState } from 'react';
import type { PostView } from '../../../shared/api/posting.js';
import { QueryContent } from '../components/QueryPanel.js';
import { usePosts } from './api.js';
import { platformLabel } from './PostList.js';
import { statusLabel } from './status.js';
import { formatTime, timeZoneName } from '../format.js';
import { addDays, localDay, startOfWeek } from './time.js';

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const rangeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });

/** One week (Monday first, the operator's time zone) of posts by the time they go out. */
export function WeekCalendar() {
  const [weekStart, setWeekStart] = useState(() => startOfWeek(new Date()));
  const window = useMemo(
    () => ({ from: weekStart.toISOString(), to: addDays(weekStart, 7).toISOString() }),
    [weekStart],
  );
  const posts = usePosts(window);
  const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
  const today = localDay(new Date());
  return (
    <div className="posts-week" data-testid="post-calendar">
      <div className="posts-week-nav">
        <button
          type="button"
          className="button button-small"
          onClick={() => setWeekStart(addDays(weekStart, -7))}
        >
          ← Previous
        </button>
        <span className="posts-week-range">
          {rangeFormat.format(weekStart)} – {rangeFormat.format(addDays(weekStart, 6))}{' '}
          <span className="muted small">({timeZoneName()})</span>
        </span>
        <button
          type="button"
          className="button button-small"
          onClick={() => setWeekStart(startOfWeek(new Date()))}
        >
          This week
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => setWeekStart(addDays(weekStart, 7))}
        >
          Next →
        </button>
      </div>
      <QueryContent query={posts} what="this week's posts" skeletonLines={4}>
        {(data) => {
          const byDay = new Map<string, PostView[]>();
          for (const post of data.data) {
            if (!post.publishAt) continue;
            const key = localDay(new Date(post.publishAt));
            byDay.set(key, [...(byDay.get(key) ?? []), post]);
          }
          return (
            <div className="posts-week-grid">
              {days.map((day) => {
                const key = localDay(day);
                const items = (byDay.get(key) ?? []).sort((a, b) =>
                  (a.publishAt ?? '').localeCompare(b.publishAt ?? ''),
                );
                return (
                  <div key={key} className={`posts-day ${key === today ? 'posts-day-today' : ''}`}>
                    <div className="posts-day-head">{dayFormat.format(day)}</div>
                    {items.length === 0 ? <div className="posts-day-empty">—</div> : null}
                    {items.map((post) => (
                      <div
                        key={post.key}
                        className={`posts-event posts-event-${post.status}`}
                        title={`${statusLabel[post.status]}: ${post.post}`}
                      >
                        <span className="posts-event-time">{formatTime(post.publishAt!)}</span>
                        <span className="posts-event-platform">
                          {post.platforms.map(platformLabel).join(', ')}
                        </span>
                        <span className="posts-event-text">{post.name ?? post.post}</span>
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          );
        }}
      </QueryContent>
    </div>
  );
}
