import { z } from 'zod';
import { activityLevel } from '../activity-level.js';
import { activitySubject } from '../activity-subject.js';
import { defineContract, queryInt, TWO_NOT_SPACES } from './contract.js';

/**
 * What the bridge did, for the operator: every webhook delivery, job outcome, peer failure,
 * collection progress and broadcast status change. Stored (activity table) and streamed
 * live on GET /events with the same shape. The event types and their `data` payloads are
 * in shared/activity-events.ts, not imported here: the activity list's contract would bring
 * them into the dashboard's first screen.
 */
export { activityLevel, type ActivityLevel } from '../activity-level.js';

/**
 * The wire and storage shape of an event, any type: what GET /api/activity answers and the
 * activity table holds. Loose on purpose (`type` any string, `data` any object): history
 * written by an older bridge, or a type this build does not know, still lists. For typed
 * `data`, parse with `parseActivityEvent` into the typed `ActivityEvent`.
 *
 * `message` is written for a person, in the names they know (issue #30.4): an event about one
 * post, broadcast, guest, episode, publish record or clip carries `data.subject` (`{kind, id,
 * name}`, shared/activity-subject.ts) and its message names it the same way ("Post “Teaser for
 * Thursday…” cancelled at the provider"); the ids stay in `data` for integrators. Dashboards show
 * the message as it is.
 */
export const storedActivityEvent = z.object({
  id: z.number(),
  at: z.string(),
  type: z.string(),
  level: activityLevel,
  message: z.string(),
  data: z.looseObject({ subject: activitySubject.optional() }).nullable(),
});
export type StoredActivityEvent = z.infer<typeof storedActivityEvent>;

/** What an activity type is made of (`posting.still-live`, `clips.draft-created`). */
export const activityTypePrefixPattern = /^[A-Za-z0-9._-]+$/;

export const listActivity = defineContract({
  method: 'get',
  path: '/api/activity',
  tag: 'operational',
  summary:
    'Recent activity, newest first; by level, by type exactly or by the start of the type, and by text in the message.',
  auth: 'key',
  query: z.object({
    limit: queryInt(1, 500).default(100),
    level: activityLevel.optional(),
    /** One type exactly, e.g. `posting.scheduled`. */
    type: z.string().max(100).optional(),
    /**
     * Types starting with this, e.g. `posting` for posting.scheduled, posting.cancelled…: what the
     * Activity page's type filter sends as the operator types. Event types are ASCII, so the rule
     * keeps the prefix to their characters.
     */
    typePrefix: z
      .string()
      .min(1)
      .max(100)
      .regex(
        activityTypePrefixPattern,
        'must be the start of an event type: letters, digits, ".", "_" or "-"',
      )
      .optional(),
    /**
     * Messages holding this text, case ignored (in ASCII letters): a scan of the 14 days the log
     * keeps, newest first, stopping at `limit` matches. `%` and `_` are themselves.
     */
    q: z
      .string()
      .min(2)
      .max(100)
      .regex(TWO_NOT_SPACES, 'must have at least 2 characters other than spaces')
      .trim()
      .optional(),
    beforeId: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  }),
  response: z.object({ success: z.literal(true), data: z.array(storedActivityEvent) }),
});

export const streamEvents = defineContract({
  method: 'get',
  path: '/events',
  tag: 'operational',
  summary:
    'Server-Sent Events: one `activity` event per activity, its data one ActivityEvent as JSON. The key may be given as ?key= here (EventSource cannot send headers), as on the files of renders.',
  auth: 'key',
  query: z.object({ key: z.string().optional() }),
  response: z.string(),
  responseType: 'text/event-stream',
});

export const listJobs = defineContract({
  method: 'get',
  path: '/api/jobs',
  tag: 'operational',
  summary: 'Durable job queue: jobs newest first, optionally by status.',
  auth: 'key',
  query: z.object({
    status: z.enum(['pending', 'running', 'done', 'failed']).optional(),
    kind: z.string().max(100).optional(),
    limit: queryInt(1, 500).default(100),
  }),
  response: z.object({
    success: z.literal(true),
    data: z.array(
      z.object({
        id: z.number(),
        kind: z.string(),
        status: z.string(),
        attempts: z.number(),
        runAt: z.string(),
        lastError: z.string().nullable(),
        createdAt: z.string(),
        finishedAt: z.string().nullable(),
      }),
    ),
  }),
});
