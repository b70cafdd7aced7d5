import type { ActivityEvent } from '../../../../shared/activity-events.js';

/**
 * Failures the operator must notice (issue #14.6): a failed post, publish, guest workflow or
 * analytics collection. Each raises a desktop notification (when the operator turned them on)
 * and counts as unread on its page and on Activity in the navigation until that page is opened.
 * Decided by event type and typed data, never by message text.
 */

/** The page where a failure is dealt with: the route of shell/routes.ts. */
export type FailurePage = '/posts' | '/broadcasts' | '/guests' | '/analytics';
export const ACTIVITY_PAGE = '/activity';

export interface Failure {
  page: FailurePage;
  /** Notification title, e.g. "Post failed". */
  title: string;
  /** The bridge's own one-line account of it. */
  body: string;
}

/** The failure an event reports, or null. `job.failed` is left out: the area's own event says it better. */
export function failureOf(event: ActivityEvent): Failure | null {
  switch (event.type) {
    case 'posting.failed':
      return { page: '/posts', title: 'Post failed', body: event.message };
    case 'publish.failed':
      return {
        page: '/broadcasts',
        title: `Publish to ${event.data.platform ?? 'a platform'} failed`,
        body: event.message,
      };
    case 'guests.workflow':
      return event.level === 'error'
        ? { page: '/guests', title: 'Guest workflow failed', body: event.message }
        : null;
    case 'collection.finished':
      return event.data.status === 'failed'
        ? { page: '/analytics', title: 'Analytics collection failed', body: event.message }
        : null;
    default:
      return null;
  }
}

/** Unread failures per page. */
export type UnreadFailures = Readonly<Partial<Record<FailurePage, number>>>;

export function addUnread(unread: UnreadFailures, page: FailurePage): UnreadFailures {
  return { ...unread, [page]: (unread[page] ?? 0) + 1 };
}

/** Opening a failing page reads its failures; opening Activity reads them all. */
export function markSeen(unread: UnreadFailures, openedPath: string): UnreadFailures {
  if (openedPath === ACTIVITY_PAGE) return totalUnread(unread) === 0 ? unread : {};
  if (!(openedPath in unread)) return unread;
  const rest: Partial<Record<FailurePage, number>> = { ...unread };
  delete rest[openedPath as FailurePage];
  return rest;
}

export function totalUnread(unread: UnreadFailures): number {
  return Object.values(unread).reduce((sum, count) => sum + count, 0);
}

/** The unread count a navigation entry shows: Activity shows them all. */
export function unreadFor(unread: UnreadFailures, path: string): number {
  if (path === ACTIVITY_PAGE) return totalUnread(unread);
  return unread[path as FailurePage] ?? 0;
}
