import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * `processed_events_by_entity` (entity_id, created_at) came with the first schema, when items were
 * looked up by record. Since migration 006 they are looked up by `processed_events_by_item`, and no
 * query reads this one; every item insert still paid for it (issue #13: the webhook path).
 */
export const dropUnusedIndex: Migration = {
  version: 9,
  name: 'webhooks-drop-unused-index',
  sql: `DROP INDEX IF EXISTS processed_events_by_entity;`,
};
