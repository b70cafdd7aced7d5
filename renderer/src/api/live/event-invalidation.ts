import type { QueryKey } from '@tanstack/react-query';
import type { ActivityEvent, ActivityType } from '../../../../shared/activity-events.js';
import type { WebhookEvent } from '../../../../shared/api/webhooks.js';
import { queryKeys } from '../transport/query-keys.js';

/**
 * What a live event from GET /events makes stale: the one table from event type to the
 * react-query keys to refetch, used by the live connection (use-live-activity.ts). Decided by
 * the event's `type` and its typed `data`, never by its message text.
 *
 * The keys are area roots (query-keys.ts): invalidating one refetches the area's queries
 * that are on screen and marks the others stale. The table is exhaustive: a new event type in
 * shared/activity-events.ts does not compile until it has a row here.
 */
type Keys = readonly QueryKey[];
type Rule<T extends ActivityType> = Keys | ((event: ActivityEvent<T>) => Keys);

/** Every event may move the job queue and /health (job counts, peers, quota, last collection). */
export const keysForEveryEvent: Keys = [queryKeys.jobs, queryKeys.health];

/** A CRM webhook delivery (or its failure), by the webhook: the area whose records it changed. */
export const keysByWebhook: { readonly [E in WebhookEvent | 'test']: Keys } = {
  'guest-created': [queryKeys.guests],
  'guest-updated': [queryKeys.guests],
  // The guest timeline shows the linked content's stage history.
  'content-created': [queryKeys.guests],
  'content-updated': [queryKeys.guests],
  'platform-created': [queryKeys.publishing],
  'platform-updated': [queryKeys.publishing],
  'clip-created': [],
  'clip-updated': [],
  'social-created': [queryKeys.posts],
  'social-updated': [queryKeys.posts],
  'social-deleted': [queryKeys.posts],
  test: [],
};

export const invalidationTable: { readonly [T in ActivityType]: Rule<T> } = {
  'bridge.started': [],
  'jobs.recovered': [],
  'job.done': [],
  // Guest workflow runs are jobs: a retry or a final failure changes the runs panel.
  'job.retry': [queryKeys.guests],
  'job.failed': [queryKeys.guests],

  'webhook.received': (event) => keysByWebhook[event.data.event],
  'webhook.failed': (event) => keysByWebhook[event.data.event],
  'webhook.test': [],

  // /health (the Overview's catch-up panel) is refreshed by every event; what it acted on shows where it acted.
  'catchup.finished': [queryKeys.posts, queryKeys.guests, queryKeys.publishing],
  'catchup.failed': [],
  'catchup.alarm': [queryKeys.posts],

  'posting.scheduled': [queryKeys.posts],
  'posting.cancelled': [queryKeys.posts],
  'posting.moved': [queryKeys.posts],
  'posting.confirmed': [queryKeys.posts],
  'posting.failed': [queryKeys.posts],
  'posting.retry': [queryKeys.posts],
  'posting.published': [queryKeys.posts],
  'posting.unconfirmed': [queryKeys.posts],
  'posting.still-live': [queryKeys.posts],
  'posting.sync': [queryKeys.posts],

  'publish.abandoned': [queryKeys.publishing],
  'publish.vanished': [queryKeys.publishing],
  'publish.retry': [queryKeys.publishing],
  'publish.waiting': [queryKeys.publishing],
  'publish.published': [queryKeys.publishing],
  'publish.dependents': [queryKeys.publishing],
  'publish.duplicate': [queryKeys.publishing],
  'publish.failed': [queryKeys.publishing],

  'broadcast.created': [queryKeys.broadcasts],
  'broadcast.deleted': [queryKeys.broadcasts],
  'broadcast.ended': [queryKeys.broadcasts],
  'broadcast.linked': [queryKeys.broadcasts, queryKeys.productions],
  'broadcast.status': [queryKeys.broadcasts],
  'broadcast.sync': [queryKeys.broadcasts],

  'analytics.demo': [queryKeys.analytics],
  // A run that starts shows in the runs list; its progress is read from the events themselves.
  'collection.progress': (event) => (event.data.phase === 'started' ? [queryKeys.analyticsRuns] : []),
  'collection.finished': [queryKeys.analytics],

  'guests.stage': [queryKeys.guests],
  'guests.workflow': [queryKeys.guests],
  // A hold shows on the guest, the Guests page and the Overview (all under the guests root).
  'guests.hold': [queryKeys.guests],
  'guests.templates': [queryKeys.guestTemplates],
  'guests.demo': [queryKeys.guests],

  'clips.analyzed': [],
  'clips.draft-created': [],
  'clips.fit': [],

  // A render's progress is read from the events themselves; its state changes refresh its lists.
  'render.state': [queryKeys.renders, queryKeys.productions],
  'render.progress': [],
  'render.ready': [queryKeys.renders],

  'recorder.filename': [queryKeys.recorderFilename, queryKeys.recorderStatus],
  'recorder.connected': [queryKeys.recorderFilename, queryKeys.recorderStatus],
  'recorder.disconnected': [queryKeys.recorderStatus],
  'recorder.take': [
    queryKeys.recorderFilename,
    queryKeys.recorderStatus,
    queryKeys.recorderTakes,
    queryKeys.productions,
  ],
  'recorder.mark': [queryKeys.recorderTakes, queryKeys.productions],
  'settings.updated': [queryKeys.settings],
};

/** The keys one event makes stale: `keysForEveryEvent` and its row of the table. */
export function staleKeysFor<T extends ActivityType>(event: ActivityEvent<T>): Keys {
  const rule: Rule<T> = invalidationTable[event.type as T];
  return [...keysForEveryEvent, ...(typeof rule === 'function' ? rule(event) : rule)];
}

/**
 * Adds `keys` to a burst's pending keys, once each: a key already covered by a pending prefix
 * (`['analytics']` covers `['analytics', 'runs']`) is left out, and a new prefix replaces the
 * keys it covers.
 */
export function addPendingKeys(pending: QueryKey[], keys: Keys): QueryKey[] {
  let next = pending;
  for (const key of keys) {
    if (next.some((known) => isPrefix(known, key))) continue;
    next = [...next.filter((known) => !isPrefix(key, known)), key];
  }
  return next;
}

function isPrefix(prefix: QueryKey, key: QueryKey): boolean {
  return prefix.length <= key.length && prefix.every((part, index) => part === key[index]);
}
