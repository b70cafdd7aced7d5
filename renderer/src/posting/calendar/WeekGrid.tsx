import { useDroppable } from '@dnd-kit/core';
import { useEffect, useRef } from 'react';
import type { PostView } from '../../../../shared/api/posting.js';
import { localDay } from '../time.js';
import { CalendarChip } from './CalendarChip.js';
import { homeTarget, slotTarget, SLOT_MINUTES } from './model.js';

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const hourFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const QUARTERS = Array.from({ length: 60 / SLOT_MINUTES }, (_, i) => i * SLOT_MINUTES);
/** The hour the week opens scrolled to when nothing is earlier: the working day. */
const FIRST_HOUR_SHOWN = 7;

interface WeekGridProps {
  days: readonly Date[];
  posts: readonly PostView[];
  now: number;
  dragging: boolean;
  onEdit: (post: PostView) => void;
}

/** Seven days by 24 hours; each hour four 15-minute drop targets (shown while a post is dragged). */
export function WeekGrid({ days, posts, now, dragging, onEdit }: WeekGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const byHour = new Map<string, PostView[]>();
  for (const post of posts) {
    if (!post.publishAt) continue;
    const at = new Date(post.publishAt);
    const key = `${localDay(at)}:${at.getHours()}`;
    byHour.set(key, [...(byHour.get(key) ?? []), post]);
  }
  const earliest = Math.min(
    FIRST_HOUR_SHOWN,
    ...posts.map((p) => (p.publishAt ? new Date(p.publishAt).getHours() : 24)),
  );
  useEffect(() => {
    const row = scroller.current?.querySelector<HTMLElement>(`[data-hour="${earliest}"]`);
    if (scroller.current && row) scroller.current.scrollTop = row.offsetTop - 40;
    // Once per week shown: scrolling back while the operator reads would be rude.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [days[0]?.getTime()]);
  const today = localDay(new Date(now));
  return (
    <div
      className={`cal-week ${dragging ? 'cal-week-dragging' : ''}`}
      role="grid"
      aria-label="Week"
      data-testid="calendar-week"
    >
      <div className="cal-week-head" role="row">
        <div className="cal-week-gutter" />
        {days.map((day) => {
          const key = localDay(day);
          return (
            <div
              key={key}
              role="columnheader"
              className={`cal-week-day ${key === today ? 'cal-week-today' : ''}`}
            >
              {dayFormat.format(day)}
              {key === today ? <span className="cal-today-label">Today</span> : null}
            </div>
          );
        })}
      </div>
      <div className="cal-week-scroll" ref={scroller}>
        {HOURS.map((hour) => (
          <div key={hour} className="cal-week-row" role="row" data-hour={hour}>
            <div className="cal-week-gutter cal-week-hour">
              {hourFormat.format(new Date(2000, 0, 1, hour))}
            </div>
            {days.map((day) => {
              const key = localDay(day);
              const items = byHour.get(`${key}:${hour}`) ?? [];
              items.sort((a, b) => a.publishAt!.localeCompare(b.publishAt!));
              return (
                <div
                  key={key}
                  role="gridcell"
                  className={`cal-hour ${key === today ? 'cal-hour-today' : ''} ${key < today || (key === today && hour < new Date(now).getHours()) ? 'cal-hour-past' : ''}`}
                >
                  {QUARTERS.map((minute) => (
                    <Quarter key={minute} day={key} minutes={hour * 60 + minute} />
                  ))}
                  {items.map((post) => (
                    <CalendarChip
                      key={post.key}
                      post={post}
                      now={now}
                      home={homeTarget('week', post.publishAt!)}
                      onEdit={onEdit}
                    />
                  ))}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

function Quarter({ day, minutes }: { day: string; minutes: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: slotTarget(day, minutes) });
  const offset = minutes % 60;
  return (
    <div
      ref={setNodeRef}
      className={`cal-quarter ${isOver ? 'cal-quarter-over' : ''}`}
      style={{ top: `${(offset / 60) * 100}%` }}
      data-testid={`cal-slot-${day}-${minutes}`}
    >
      {isOver ? hourFormat.format(new Date(2000, 0, 1, Math.floor(minutes / 60), offset)) : null}
    </div>
  );
}
