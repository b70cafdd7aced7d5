import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * `webhook_deliveries_by_received` served one query, the retention prune, and every delivery paid
 * for it on insert (issue #13: the webhook path). Deliveries are numbered as they are received, so
 * the prune now finds its rows by id (repo.ts).
 */
export const deliveriesPrunedById: Migration = {
  version: 12,
  name: 'webhooks-deliveries-pruned-by-id',
  sql: `DROP INDEX IF EXISTS webhook_deliveries_by_received;`,
};
