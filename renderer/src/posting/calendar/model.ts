import type { PostView } from '../../../../shared/api/posting.js';
import { timingWarnings } from '../../../../shared/post-rules.js';
import { addDays, localDay, startOfWeek } from '../time.js';

/**
 * The calendar's pure logic (issue #31): which days a view shows, posts by local day, each post's
 * state in words, which posts may be moved, where a drop puts a post, and what a move is checked
 * against before it is asked (the Edit dialog's rules: a time ahead, spacing, the day's quota).
 */

export type CalendarMode = 'month' | 'week';

/** The most posts the bridge lists in one answer (GET /api/posts `limit`): the calendar asks for that many. */
export const CALENDAR_LIMIT = 1000;

/** The state a post shows, in words as well as colour: "due" is a scheduled post past its time. */
export type CalendarState =
  'scheduled' | 'due' | 'published' | 'failed' | 'partial' | 'cancelled' | 'sending';

export const stateWords: Record<CalendarState, string> = {
  scheduled: 'Scheduled',
  due: 'Due — checking',
  published: 'Published',
  failed: 'Failed',
  partial: 'Partly failed',
  cancelled: 'Cancelled',
  sending: 'Sending',
};

/** A one-character mark per state, so that the state reads without colour even in a narrow chip. */
export const stateMark: Record<CalendarState, string> = {
  scheduled: '◷',
  due: '…',
  published: '✓',
  failed: '✕',
  partial: '!',
  cancelled: '⊘',
  sending: '↑',
};

export function calendarState(post: PostView, now: number): CalendarState {
  switch (post.status) {
    case 'scheduled':
      return post.publishAt !== null && Date.parse(post.publishAt) <= now ? 'due' : 'scheduled';
    case 'checking':
      return 'due';
    case 'draft':
      return 'cancelled';
    default:
      return post.status;
  }
}

/** Why a post cannot be dragged, or null when it can: only a scheduled post still ahead moves. */
export function whyNotMovable(post: PostView, now: number): string | null {
  if (post.socialPostId === null && post.ledgerId === null)
    return 'Not sent through this bridge: edit it at the provider';
  const state = calendarState(post, now);
  if (state === 'scheduled') return null;
  if (state === 'published') return 'Published: it is out, it cannot be moved';
  if (state === 'due') return 'Due: the bridge is checking whether it went out, it cannot be moved';
  if (state === 'cancelled') return 'Cancelled: use Edit in the list to send it again';
  if (state === 'failed' || state === 'partial') return 'Failed: use Edit to give it a new time';
  return 'Being sent right now';
}

/** The 42 days (six Monday-first weeks) of the month holding `month`, in local time. */
/**
 * The post as a move dialog's title names it: its CRM name, else its text up to ~40 characters
 * ending on a whole word (issue #41.5: "…questions ab" read as a cut-off title).
 */
export function postTitle(post: Pick<PostView, 'name' | 'post'>, max = 40): string {
  if (post.name) return post.name;
  const text = post.post.trim().replace(/\s+/g, ' ');
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const end = cut.lastIndexOf(' ');
  return `${(end > max / 2 ? cut.slice(0, end) : text.slice(0, max)).replace(/[\s,.:;!?·—–-]+$/, '')}…`;
}

export function monthDays(month: Date): Date[] {
  const first = startOfWeek(new Date(month.getFullYear(), month.getMonth(), 1));
  return Array.from({ length: 42 }, (_, i) => addDays(first, i));
}

export function weekDays(weekStart: Date): Date[] {
  return Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
}

/** The posts of each local day, each day's in time order. */
export function postsByDay(posts: readonly PostView[]): Map<string, PostView[]> {
  const byDay = new Map<string, PostView[]>();
  for (const post of posts) {
    if (!post.publishAt) continue;
    const key = localDay(new Date(post.publishAt));
    const list = byDay.get(key);
    if (list) list.push(post);
    else byDay.set(key, [post]);
  }
  for (const list of byDay.values()) list.sort((a, b) => a.publishAt!.localeCompare(b.publishAt!));
  return byDay;
}

/** Droppable ids: a day of the month view, or a 15-minute step of the week view (local time). */
export const dayTarget = (day: string) => `day:${day}`;
export const slotTarget = (day: string, minutes: number) => `slot:${day}:${minutes}`;

export const SLOT_MINUTES = 15;

/** The local midnight of a `YYYY-MM-DD` day. */
export function dayStart(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/**
 * The time a drop means: onto a day, the same local time of day on that day; onto a week slot,
 * that slot's start. Null for an id that is no target.
 */
export function dropTime(target: string, publishAt: string): Date | null {
  const [kind, day, minutes] = target.split(':');
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const at = dayStart(day);
  if (kind === 'day') {
    const from = new Date(publishAt);
    at.setHours(from.getHours(), from.getMinutes(), from.getSeconds(), 0);
    return at;
  }
  if (kind === 'slot' && minutes !== undefined && /^\d+$/.test(minutes)) {
    at.setMinutes(Number(minutes));
    return at;
  }
  return null;
}

/** The target a post sits on in a view: its day, or the 15-minute step holding its time. */
export function homeTarget(mode: CalendarMode, publishAt: string): string {
  const at = new Date(publishAt);
  const day = localDay(at);
  if (mode === 'month') return dayTarget(day);
  const minutes = at.getHours() * 60 + at.getMinutes();
  return slotTarget(day, minutes - (minutes % SLOT_MINUTES));
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/** The target next to `target` in a direction: a day or a week (month), a day or 15 minutes (week). */
export function neighbourTarget(target: string, direction: Direction): string | null {
  const [kind, day, minutes] = target.split(':');
  if (!day) return null;
  const start = dayStart(day);
  if (kind === 'day') {
    const step = { left: -1, right: 1, up: -7, down: 7 }[direction];
    return dayTarget(localDay(addDays(start, step)));
  }
  if (kind !== 'slot' || minutes === undefined) return null;
  if (direction === 'left' || direction === 'right')
    return slotTarget(localDay(addDays(start, direction === 'left' ? -1 : 1)), Number(minutes));
  const next = Number(minutes) + (direction === 'up' ? -SLOT_MINUTES : SLOT_MINUTES);
  if (next < 0 || next >= 24 * 60) return null;
  return slotTarget(day, next);
}

export interface MovePlan {
  post: PostView;
  at: Date;
}

export type MoveVerdict =
  | { kind: 'same' }
  | { kind: 'refused'; reason: string }
  | { kind: 'ask'; warnings: string[]; quotaLeft: number | null };

/** Whether the provider plan moves a scheduled post in place (PATCH, issue #36.3: premium and up). */
export function movesInPlace(plan: string | null | undefined): boolean {
  return plan === 'premium' || plan === 'business';
}

/**
 * What a drop leads to, checked as the Edit dialog checks a new time: a time that has passed is
 * refused in words (nothing is asked); on the free plan so is a day with no quota left, since a
 * move there creates a new post and the cancelled one still counts (DESIGN §6.2); on premium and
 * business a move is made in place and uses no quota. Otherwise the move is asked, with the
 * rules' warnings (under 10 minutes ahead; another post within 2 h on the same platform, the
 * post's own old time left out). The bridge checks the same again when the move is sent.
 */
export function judgeMove(
  plan: MovePlan,
  context: { now: number; posts: readonly PostView[]; quotaLeft: number | null; plan?: string | null },
): MoveVerdict {
  const { post, at } = plan;
  if (post.publishAt !== null && Date.parse(post.publishAt) === at.getTime()) return { kind: 'same' };
  if (at.getTime() <= context.now) {
    return {
      kind: 'refused',
      reason: `${localDay(at) === localDay(new Date(context.now)) ? 'That time today' : 'That day'} has passed: a post moves only to a time ahead.`,
    };
  }
  if (!movesInPlace(context.plan) && context.quotaLeft !== null && context.quotaLeft < 1) {
    return {
      kind: 'refused',
      reason:
        "Today's posting quota is used up: a move creates the post anew (the cancelled one still counts), so it waits until the quota resets.",
    };
  }
  const nearby = context.posts
    .filter((other) => other.key !== post.key && other.publishAt !== null)
    .filter((other) => ['scheduled', 'published', 'checking', 'sending', 'partial'].includes(other.status))
    .map((other) => ({ platforms: other.platforms, at: other.publishAt! }));
  const warnings = timingWarnings(post.platforms, at.getTime(), new Date(context.now), nearby);
  return { kind: 'ask', warnings, quotaLeft: context.quotaLeft };
}
