import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.1.2 (revised): EspoCRM items carry no event id, so a genuine repeat can be
 * byte-identical to an earlier item. An item is a redelivery only when an identical one came
 * before and nothing touched the record since. `record_marks` counts every touch of a record
 * (an item received for it, a write-back by the bridge); each logged item keeps the mark it
 * set. New items are keyed per delivery and position (`<deliveryId>:<index>`), not by content.
 */
export const repeats: Migration = {
  version: 6,
  name: 'webhook-repeats',
  sql: `
    CREATE TABLE record_marks (
      entity TEXT NOT NULL,
      record_id TEXT NOT NULL,
      mark INTEGER NOT NULL,
      touched_at TEXT NOT NULL,
      PRIMARY KEY (entity, record_id)
    ) WITHOUT ROWID;

    ALTER TABLE processed_events ADD COLUMN entity TEXT;
    ALTER TABLE processed_events ADD COLUMN item_hash TEXT;
    ALTER TABLE processed_events ADD COLUMN mark INTEGER;
    -- The key of the earlier item this one is a redelivery of (its outcome is the answer).
    ALTER TABLE processed_events ADD COLUMN same_as TEXT;
    CREATE INDEX processed_events_by_item ON processed_events (entity, entity_id, event, item_hash, mark);
  `,
};
