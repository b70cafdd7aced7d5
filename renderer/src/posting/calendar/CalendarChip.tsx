import { useDraggable } from '@dnd-kit/core';
import type { CSSProperties } from 'react';
import type { PostView } from '../../../../shared/api/posting.js';
import { platformColor } from '../../chart-palette.js';
import { formatLocal, formatTime, formatUtc } from '../../format.js';
import { platformLabel } from '../status.js';
import { calendarState, stateMark, stateWords, whyNotMovable, type CalendarState } from './model.js';

/** What a dragged chip carries to the drop (DndContext's `active.data`). */
export interface ChipData {
  post: PostView;
  home: string;
}

interface ChipProps {
  post: PostView;
  now: number;
  /** The droppable the post sits on in this view (where the keyboard starts from). */
  home?: string;
  /** Opens the Edit dialog of a failed post. */
  onEdit?: (post: PostView) => void;
  /** Opens "Move to…" for a scheduled post where it is not dragged (the agenda, the day's list). */
  onMoveTo?: (post: PostView) => void;
  /** Shows the day as well as the time (the day's list, the agenda). */
  withDay?: boolean;
}

/**
 * One post in the calendar: its platforms' colours as a stripe, its state as a mark and words
 * (never colour alone), local time, UTC in the tooltip. A scheduled post still ahead is draggable
 * (mouse, touch, or focus + Enter, arrows, Enter) in the grids, and has "Move to…" where it is not
 * dragged (the narrow agenda, the day's list); the others say why not in their tooltip.
 */
export function CalendarChip(props: ChipProps) {
  const movable = props.home !== undefined && whyNotMovable(props.post, props.now) === null;
  return movable ? <DraggableChip {...props} home={props.home!} /> : <ChipBody {...props} />;
}

function DraggableChip(props: ChipProps & { home: string }) {
  const { post, home } = props;
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: `post:${post.key}`,
    data: { post, home } satisfies ChipData,
  });
  return (
    <ChipBody
      {...props}
      nodeRef={setNodeRef}
      dragProps={{ ...attributes, ...listeners }}
      dragging={isDragging}
    />
  );
}

function stripe(platforms: readonly string[]): CSSProperties {
  const colours = platforms.map((platform, index) => platformColor(platform, index));
  if (colours.length <= 1) return { borderLeftColor: colours[0] ?? 'var(--border)' };
  const step = 100 / colours.length;
  const stops = colours.map((c, i) => `${c} ${i * step}% ${(i + 1) * step}%`).join(', ');
  return { borderImage: `linear-gradient(to bottom, ${stops}) 1` };
}

const moveHints = {
  drag: 'Drag to another day or time, or focus it and press Enter, the arrow keys, Enter',
  'move-to': 'Move to… gives it another day or time',
  none: 'Edit… in the list below changes it',
};

function chipTitle(
  post: PostView,
  state: CalendarState,
  why: string | null,
  move: keyof typeof moveHints,
): string {
  const when = post.publishAt ? `${formatLocal(post.publishAt)} (${formatUtc(post.publishAt)})` : 'no time';
  const hint = why ?? moveHints[move];
  return `${stateWords[state]} · ${when} · ${post.platforms.map(platformLabel).join(', ')}\n${post.name ?? post.post}\n${hint}`;
}

function ChipBody({
  post,
  now,
  onEdit,
  onMoveTo,
  withDay = false,
  nodeRef,
  dragProps,
  dragging = false,
}: ChipProps & {
  nodeRef?: (node: HTMLElement | null) => void;
  dragProps?: Record<string, unknown>;
  dragging?: boolean;
}) {
  const state = calendarState(post, now);
  const why = whyNotMovable(post, now);
  const editable = (state === 'failed' || state === 'partial') && onEdit !== undefined;
  const movableTo = !dragProps && why === null && onMoveTo !== undefined;
  const move = dragProps ? 'drag' : movableTo ? 'move-to' : 'none';
  return (
    <div
      ref={nodeRef}
      className={`cal-chip cal-chip-${state} ${dragProps ? 'cal-chip-movable' : ''} ${dragging ? 'cal-chip-dragging' : ''}`}
      style={stripe(post.platforms)}
      title={chipTitle(post, state, dragProps ? null : why, move)}
      data-testid={`cal-post-${post.key}`}
      data-state={state}
      {...dragProps}
    >
      <span className="cal-chip-line">
        <span className="cal-chip-mark" aria-hidden="true">
          {stateMark[state]}
        </span>
        <span className="visually-hidden">{stateWords[state]}: </span>
        <span className="cal-chip-time">
          {post.publishAt ? (withDay ? formatLocal(post.publishAt) : formatTime(post.publishAt)) : '—'}
        </span>
        <span className="cal-chip-platforms">{post.platforms.map(platformLabel).join(', ')}</span>
      </span>
      <span className="cal-chip-text">{post.name ?? post.post}</span>
      {editable ? (
        <button type="button" className="cal-chip-edit" onClick={() => onEdit(post)}>
          {stateWords[state]} · Edit…
        </button>
      ) : null}
      {movableTo ? (
        <button type="button" className="cal-chip-edit cal-chip-move" onClick={() => onMoveTo(post)}>
          Move to…
        </button>
      ) : null}
    </div>
  );
}
