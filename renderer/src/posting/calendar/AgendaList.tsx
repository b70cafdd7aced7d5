import type { PostView } from '../../../../shared/api/posting.js';
import { localDay } from '../time.js';
import { CalendarChip } from './CalendarChip.js';
import { postsByDay } from './model.js';

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });

/**
 * The narrow screen's calendar: the days of the window that have posts, each with its posts in
 * time order. Nothing to drag onto here: a scheduled post has "Move to…", a failed one Edit….
 */
export function AgendaList({
  days,
  posts,
  now,
  onEdit,
  onMoveTo,
}: {
  days: readonly Date[];
  posts: readonly PostView[];
  now: number;
  onEdit: (post: PostView) => void;
  onMoveTo: (post: PostView) => void;
}) {
  const byDay = postsByDay(posts);
  const today = localDay(new Date(now));
  const shown = days.filter((day) => byDay.has(localDay(day)));
  if (shown.length === 0)
    return (
      <p className="muted cal-agenda-empty" data-testid="calendar-agenda">
        No posts in this period.
      </p>
    );
  return (
    <div className="cal-agenda" data-testid="calendar-agenda">
      {shown.map((day) => {
        const key = localDay(day);
        const items = byDay.get(key)!;
        return (
          <section
            key={key}
            className={`cal-agenda-day ${key === today ? 'cal-agenda-today' : ''}`}
            aria-label={dayFormat.format(day)}
          >
            <h3 className="cal-agenda-head">
              {dayFormat.format(day)}
              {key === today ? <span className="cal-today-label">Today</span> : null}
              <span className="muted small">
                · {items.length} post{items.length === 1 ? '' : 's'}
              </span>
            </h3>
            <div className="cal-agenda-posts">
              {items.map((post) => (
                <CalendarChip key={post.key} post={post} now={now} onEdit={onEdit} onMoveTo={onMoveTo} />
              ))}
            </div>
          </section>
        );
      })}
    </div>
  );
}
