import { activityLevel, activityTypePrefixPattern } from '../../../shared/api/activity.js';
import type { ActivityLevel } from '../../../shared/api/activity.js';

/**
 * The Activity page's filters, kept in the search params of the hash route
 * (`#/activity?type=posting&level=error&jobs=failed`) so reload, Back and a shared link show
 * the same view, as on Analytics (analytics/filters.ts). Only set filters are written; a value
 * the page would not send (an unknown level, a type no event type can start with) is dropped.
 */
export const jobStatuses = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof jobStatuses)[number];

export interface ActivityFilters {
  level: ActivityLevel | null;
  /** The start of the event type ("posting" for posting.scheduled, posting.cancelled…); '' for any. */
  type: string;
  /** Text the message holds ("nadia"); '' for any. */
  q: string;
  /** The job queue's status chip; null for all. */
  jobs: JobStatus | null;
}

export function readActivityFilters(params: URLSearchParams): ActivityFilters {
  const level = activityLevel.safeParse(params.get('level'));
  const type = params.get('type')?.trim() ?? '';
  const jobs = params.get('jobs');
  const q = params.get('q')?.trim() ?? '';
  return {
    level: level.success ? level.data : null,
    type: isTypePrefix(type) ? type : '',
    q: isMessageText(q) ? q : '',
    jobs: jobStatuses.find((status) => status === jobs) ?? null,
  };
}

/** Whether `text` can start an event type (what GET /api/activity accepts as typePrefix). */
export function isTypePrefix(text: string): boolean {
  return text.length <= 100 && activityTypePrefixPattern.test(text);
}

export const MESSAGE_TEXT_MAX = 100;

/** Whether `text` is what GET /api/activity accepts as q: 2 to 100 characters. */
export function isMessageText(text: string): boolean {
  return text.length >= 2 && text.length <= MESSAGE_TEXT_MAX;
}

/** New search params with `change` applied; unset filters are removed, other params kept. */
export function applyActivityFilters(
  params: URLSearchParams,
  change: Partial<ActivityFilters>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(change)) {
    if (value === null || value === '' || value === undefined) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** Whether a live event passes the events filters, as the bridge's query would have it. */
export function acceptsEvent(
  filters: ActivityFilters,
  event: { type: string; level: ActivityLevel; message: string },
): boolean {
  return (
    (filters.level === null || event.level === filters.level) &&
    event.type.startsWith(filters.type) &&
    // The bridge ignores case in ASCII letters (SQLite's LIKE); a live event is judged the same way.
    asciiLower(event.message).includes(asciiLower(filters.q))
  );
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
