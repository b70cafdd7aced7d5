import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useMemo, useState } from 'react';
import type { PostView } from '../../../../shared/api/posting.js';
import { QueryContent } from '../../components/QueryPanel.js';
import { formatLocal, timeZoneName, useNow } from '../../format.js';
import { useQuota, useReschedulePost } from '../api.js';
import { RescheduleDialog } from '../RescheduleDialog.js';
import { addDays, startOfWeek } from '../time.js';
import { useCalendarPosts } from './api.js';
import { AgendaList } from './AgendaList.js';
import { CalendarChip, type ChipData } from './CalendarChip.js';
import { CalendarLegend } from './CalendarLegend.js';
import { DayListDialog } from './DayListDialog.js';
import { calendarKeyboard } from './keyboard.js';
import {
  CALENDAR_LIMIT,
  dayStart,
  dropTime,
  judgeMove,
  movesInPlace,
  monthDays,
  postsByDay,
  weekDays,
  type CalendarMode,
  type MovePlan,
} from './model.js';
import { MonthGrid } from './MonthGrid.js';
import { MoveDialog } from './MoveDialog.js';
import { MoveToDialog } from './MoveToDialog.js';
import { localWithUtc } from '../post-words.js';
import { useMediaQuery } from './use-media-query.js';
import { WeekGrid } from './WeekGrid.js';
import { CrmUnreadNote } from '../CrmUnreadNote.js';
import './calendar.css';

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const rangeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
/** Below this width the month (and the week) become an agenda list grouped by day. */
const NARROW = '(max-width: 640px)';

/** The pointer's target when there is a pointer; the keyboard's (a centred chip) otherwise. */
const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : closestCenter(args);
};

function describeTarget(id: string | number | undefined): string {
  if (id === undefined) return 'no day';
  const [, day, minutes] = String(id).split(':');
  if (!day) return 'no day';
  const at = dayStart(day);
  if (minutes !== undefined) at.setMinutes(Number(minutes));
  return minutes !== undefined ? formatLocal(at.toISOString()) : at.toDateString();
}

const announcements: Announcements = {
  onDragStart: ({ active }) =>
    `Picked up the post of ${describeTarget((active.data.current as ChipData).home)}. Arrow keys move it, Enter drops it, Escape puts it back.`,
  onDragOver: ({ over }) => `Over ${describeTarget(over?.id)}.`,
  onDragEnd: ({ over }) => `Dropped on ${describeTarget(over?.id)}.`,
  onDragCancel: () => 'Put back where it was.',
};

type Notice = { tone: 'ok' | 'bad'; text: string };

/**
 * The Posts page's calendar (issue #31): a month or a week of posts in the operator's time zone;
 * a scheduled post is dragged to another day (month) or 15-minute step (week) to move it, through
 * the Edit dialog's route (POST /api/posts/reschedule), after one question. At 640 px and below,
 * an agenda list grouped by day, where a post is moved with "Move to…" (issue #40.1).
 */
export function PostCalendar() {
  const [mode, setMode] = useState<CalendarMode>('month');
  const [anchor, setAnchor] = useState(() => new Date());
  const narrow = useMediaQuery(NARROW);
  const now = useNow(30_000);
  const days = useMemo(
    () => (mode === 'month' ? monthDays(anchor) : weekDays(startOfWeek(anchor))),
    [mode, anchor],
  );
  const window = useMemo(
    () => ({ from: days[0]!.toISOString(), to: addDays(days[days.length - 1]!, 1).toISOString() }),
    [days],
  );
  const posts = useCalendarPosts(window);
  const quota = useQuota();
  const reschedule = useReschedulePost();
  const [dragged, setDragged] = useState<PostView | null>(null);
  const [plan, setPlan] = useState<(MovePlan & { warnings: string[]; quotaLeft: number | null }) | null>(
    null,
  );
  const [notice, setNotice] = useState<Notice | null>(null);
  const [moreOf, setMoreOf] = useState<string | null>(null);
  const [editing, setEditing] = useState<PostView | null>(null);
  const [movingTo, setMovingTo] = useState<PostView | null>(null);

  const [keyboard] = useState(calendarKeyboard);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboard.getter }),
  );

  function step(direction: -1 | 1) {
    setAnchor((current) =>
      mode === 'month'
        ? new Date(current.getFullYear(), current.getMonth() + direction, 1)
        : addDays(current, 7 * direction),
    );
  }

  function openMoveTo(post: PostView) {
    setNotice(null);
    reschedule.reset();
    setMovingTo(post);
  }

  function onDragStart({ active }: DragStartEvent) {
    setNotice(null);
    const { post, home } = active.data.current as ChipData;
    keyboard.start(home);
    setDragged(post);
  }

  function onDragEnd({ active, over, delta }: DragEndEvent) {
    setDragged(null);
    const { post } = active.data.current as ChipData;
    // Dropped where it was picked up (Enter twice): no move, whatever the chip overlaps.
    if (!over || !post.publishAt || (delta.x === 0 && delta.y === 0)) return;
    const at = dropTime(String(over.id), post.publishAt);
    if (!at) return;
    // Judged at the drop, against a fresh clock (the page's `now` ticks every 30 s).
    const verdict = judgeMove(
      { post, at },
      {
        now: Date.now(),
        posts: posts.data?.data ?? [],
        quotaLeft: quota.data?.quota.left ?? null,
        plan: quota.data?.quota.plan ?? null,
      },
    );
    if (verdict.kind === 'refused') setNotice({ tone: 'bad', text: `Not moved: ${verdict.reason}` });
    if (verdict.kind === 'ask')
      setPlan({ post, at, warnings: verdict.warnings, quotaLeft: verdict.quotaLeft });
  }

  function confirmMove() {
    if (plan) move(plan.post, plan.at);
  }

  /** A move asked and answered (a drop, or "Move to…"): through the Edit dialog's route. */
  function move(post: PostView, at: Date) {
    const target =
      post.source === 'crm' ? { socialPostId: post.socialPostId! } : { ledgerId: post.ledgerId! };
    reschedule.mutate(
      { ...target, post: post.post, scheduleDate: at.toISOString(), mediaUrls: post.mediaUrls },
      {
        onSuccess: (answer) => {
          setPlan(null);
          setMovingTo(null);
          setNotice({
            tone: answer.status === 'failed' ? 'bad' : 'ok',
            text:
              answer.status === 'failed'
                ? answer.how === 'moved-in-place' || movesInPlace(quota.data?.quota.plan)
                  ? `Not moved: ${answer.message}.`
                  : `Cancelled at the provider, but the new post was refused: ${answer.message}. Edit it to try again.`
                : answer.how === 'moved-in-place'
                  ? `Moved to ${localWithUtc(at.toISOString())}, in place at the provider (no quota used).`
                  : `Moved to ${localWithUtc(at.toISOString())}.`,
          });
        },
      },
    );
  }

  function closeMove() {
    setPlan(null);
    setMovingTo(null);
    reschedule.reset();
  }

  const title =
    mode === 'month'
      ? monthFormat.format(anchor)
      : `${rangeFormat.format(days[0]!)} – ${rangeFormat.format(days[6]!)}`;

  return (
    <div className="cal" data-testid="post-calendar">
      <div className="cal-nav">
        <span className="cal-title" aria-live="polite">
          {title} <span className="muted small">({timeZoneName()})</span>
        </span>
        <div className="cal-modes" role="group" aria-label="View">
          {(['month', 'week'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={`chip ${mode === m ? 'chip-active' : ''}`}
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
            >
              {m === 'month' ? 'Month' : 'Week'}
            </button>
          ))}
        </div>
        <button type="button" className="button button-small" onClick={() => step(-1)}>
          ← Previous
        </button>
        <button type="button" className="button button-small" onClick={() => setAnchor(new Date())}>
          Today
        </button>
        <button type="button" className="button button-small" onClick={() => step(1)}>
          Next →
        </button>
      </div>
      <CalendarLegend />
      {notice ? (
        <p
          className={`banner banner-${notice.tone === 'ok' ? 'ok' : 'bad'}`}
          role={notice.tone === 'ok' ? 'status' : 'alert'}
          data-testid="calendar-notice"
        >
          {notice.text}
        </p>
      ) : null}
      <QueryContent query={posts} what="the calendar's posts" skeletonLines={6}>
        {(data) => {
          const shown = data.data;
          return (
            <>
              <CrmUnreadNote crmError={data.crmError} crmFailure={data.crmFailure} />
              {shown.length >= CALENDAR_LIMIT ? (
                <p className="banner banner-warn" role="status">
                  Showing the first {CALENDAR_LIMIT.toLocaleString()} posts of this period; the week view
                  shows the rest.
                </p>
              ) : null}
              {narrow ? (
                <AgendaList
                  days={mode === 'month' ? days.filter((d) => d.getMonth() === anchor.getMonth()) : days}
                  posts={shown}
                  now={now}
                  onEdit={setEditing}
                  onMoveTo={openMoveTo}
                />
              ) : (
                <DndContext
                  sensors={sensors}
                  collisionDetection={collision}
                  onDragStart={onDragStart}
                  onDragEnd={onDragEnd}
                  onDragCancel={() => setDragged(null)}
                  accessibility={{
                    announcements,
                    screenReaderInstructions: {
                      draggable:
                        'A scheduled post: press Enter to pick it up, the arrow keys to move it a day, a week or 15 minutes, Enter to drop it, Escape to put it back.',
                    },
                  }}
                >
                  {mode === 'month' ? (
                    <MonthGrid
                      days={days}
                      month={anchor.getMonth()}
                      posts={shown}
                      now={now}
                      onMore={setMoreOf}
                      onEdit={setEditing}
                    />
                  ) : (
                    <WeekGrid
                      days={days}
                      posts={shown}
                      now={now}
                      dragging={dragged !== null}
                      onEdit={setEditing}
                    />
                  )}
                  <DragOverlay dropAnimation={null}>
                    {dragged ? <CalendarChip post={dragged} now={now} /> : null}
                  </DragOverlay>
                </DndContext>
              )}
              {moreOf ? (
                <DayListDialog
                  day={dayStart(moreOf)}
                  posts={postsByDay(shown).get(moreOf) ?? []}
                  now={now}
                  onEdit={(post) => {
                    setMoreOf(null);
                    setEditing(post);
                  }}
                  onMoveTo={(post) => {
                    setMoreOf(null);
                    openMoveTo(post);
                  }}
                  onClose={() => setMoreOf(null)}
                />
              ) : null}
            </>
          );
        }}
      </QueryContent>
      {plan ? (
        <MoveDialog
          post={plan.post}
          at={plan.at}
          warnings={plan.warnings}
          quotaLeft={plan.quotaLeft}
          inPlace={movesInPlace(quota.data?.quota.plan)}
          pending={reschedule.isPending}
          error={reschedule.error}
          onConfirm={confirmMove}
          onCancel={closeMove}
        />
      ) : null}
      {movingTo ? (
        <MoveToDialog
          post={movingTo}
          posts={posts.data?.data ?? []}
          quotaLeft={quota.data?.quota.left ?? null}
          plan={quota.data?.quota.plan ?? null}
          inPlace={movesInPlace(quota.data?.quota.plan)}
          pending={reschedule.isPending}
          error={reschedule.error}
          onMove={(at) => move(movingTo, at)}
          onCancel={closeMove}
        />
      ) : null}
      {editing ? <RescheduleDialog post={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
