import { useDroppable } from '@dnd-kit/core';
import type { PostView } from '../../../../shared/api/posting.js';
import { useShownMark } from '../../overview/shown-mark.js';
import { localDay } from '../time.js';
import { CalendarChip } from './CalendarChip.js';
import { dayTarget, homeTarget, postsByDay } from './model.js';
import { CALENDAR_MONTH_MARK } from './shown-mark.js';

/** Posts shown in a day's cell; the rest are behind "+N more". */
export const DAY_CELL_POSTS = 3;

const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const dayLabelFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });

interface MonthGridProps {
  days: readonly Date[];
  month: number;
  posts: readonly PostView[];
  now: number;
  onMore: (day: string) => void;
  onEdit: (post: PostView) => void;
}

/** Six Monday-first weeks; each day a drop target that takes a post to that day at its time of day. */
export function MonthGrid({ days, month, posts, now, onMore, onEdit }: MonthGridProps) {
  const byDay = postsByDay(posts);
  const today = localDay(new Date(now));
  useShownMark(CALENDAR_MONTH_MARK, true);
  return (
    <div className="cal-month" role="grid" aria-label="Month" data-testid="calendar-month">
      <div className="cal-month-head" role="row">
        {days.slice(0, 7).map((day) => (
          <div key={day.getDay()} role="columnheader" className="cal-weekday">
            {weekdayFormat.format(day)}
          </div>
        ))}
      </div>
      <div className="cal-month-body">
        {days.map((day) => {
          const key = localDay(day);
          return (
            <DayCell
              key={key}
              day={key}
              label={dayLabelFormat.format(day)}
              date={day.getDate()}
              outside={day.getMonth() !== month}
              today={key === today}
              past={key < today}
              posts={byDay.get(key) ?? []}
              now={now}
              onMore={onMore}
              onEdit={onEdit}
            />
          );
        })}
      </div>
    </div>
  );
}

function DayCell(props: {
  day: string;
  label: string;
  date: number;
  outside: boolean;
  today: boolean;
  past: boolean;
  posts: readonly PostView[];
  now: number;
  onMore: (day: string) => void;
  onEdit: (post: PostView) => void;
}) {
  const { day, posts, now } = props;
  const { setNodeRef, isOver } = useDroppable({ id: dayTarget(day) });
  const hidden = posts.length - DAY_CELL_POSTS;
  const classes = ['cal-day'];
  if (props.outside) classes.push('cal-day-outside');
  if (props.today) classes.push('cal-day-today');
  if (props.past) classes.push('cal-day-past');
  if (isOver) classes.push('cal-day-over');
  return (
    <div
      ref={setNodeRef}
      role="gridcell"
      className={classes.join(' ')}
      aria-label={`${props.label}${props.today ? ', today' : ''}: ${posts.length} post${posts.length === 1 ? '' : 's'}`}
      data-testid={`cal-day-${day}`}
    >
      <div className="cal-day-head">
        <span className="cal-day-number">{props.date}</span>
        {props.today ? <span className="cal-today-label">Today</span> : null}
      </div>
      {posts.slice(0, DAY_CELL_POSTS).map((post) => (
        <CalendarChip
          key={post.key}
          post={post}
          now={now}
          home={homeTarget('month', post.publishAt!)}
          onEdit={props.onEdit}
        />
      ))}
      {hidden > 0 ? (
        <button type="button" className="cal-more" onClick={() => props.onMore(day)}>
          +{hidden} more
        </button>
      ) : null}
    </div>
  );
}
