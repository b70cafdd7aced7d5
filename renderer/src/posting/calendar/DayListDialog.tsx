import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { PostView } from '../../../../shared/api/posting.js';
import { CalendarChip } from './CalendarChip.js';

const dayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** "+N more": every post of one day, in time order, in a modal (Escape or Close shuts it). */
export function DayListDialog({
  day,
  posts,
  now,
  onEdit,
  onMoveTo,
  onClose,
}: {
  day: Date;
  posts: readonly PostView[];
  now: number;
  onEdit: (post: PostView) => void;
  onMoveTo: (post: PostView) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return createPortal(
    <dialog
      ref={ref}
      className="posts-dialog cal-day-dialog"
      aria-labelledby="cal-day-title"
      data-testid="calendar-day-list"
      onClose={onClose}
    >
      <h2 id="cal-day-title" className="posts-dialog-title">
        {dayFormat.format(day)}: {posts.length} post{posts.length === 1 ? '' : 's'}
      </h2>
      <div className="cal-day-list">
        {posts.map((post) => (
          <CalendarChip key={post.key} post={post} now={now} onEdit={onEdit} onMoveTo={onMoveTo} />
        ))}
      </div>
      <div className="posts-dialog-actions">
        <button type="button" className="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
