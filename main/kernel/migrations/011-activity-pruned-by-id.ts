import type { Migration } from './migration.js';

/**
 * `activity_by_at` served one query, the hourly retention prune, and every activity row paid for
 * it on insert (the webhook path writes one or two a request: issue #13). The log's ids follow its
 * times, so the prune now finds its rows by id (kernel/activity/repo.ts).
 */
export const activityPrunedById: Migration = {
  version: 11,
  name: 'activity-pruned-by-id',
  sql: `DROP INDEX IF EXISTS activity_by_at;`,
};
