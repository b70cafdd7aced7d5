import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.1.2 decides a redelivery by the item that set the record's current mark: one
 * identical to it (event and bytes) is a redelivery. That was a search of `processed_events`
 * (`processed_events_by_item`) for the latest identical item, then a read of the mark, then the
 * mark's raise: three statements and an index insert per item (issue #13: the webhook path).
 * The mark row now names the item that set it, and one conditional raise decides: it does not
 * raise the mark when its setter is identical. Marks set before are given their setter here
 * (the original item logged with that mark; none when a write-back of the bridge set it).
 */
export const marksKnowTheirItem: Migration = {
  version: 13,
  name: 'webhooks-marks-know-their-item',
  sql: `
    ALTER TABLE record_marks ADD COLUMN set_by_event TEXT;
    ALTER TABLE record_marks ADD COLUMN set_by_hash TEXT;
    ALTER TABLE record_marks ADD COLUMN set_by_key TEXT;
    UPDATE record_marks SET (set_by_event, set_by_hash, set_by_key) = (
      SELECT p.event, p.item_hash, p.key FROM processed_events p
      WHERE p.entity = record_marks.entity AND p.entity_id = record_marks.record_id
        AND p.mark = record_marks.mark AND p.same_as IS NULL
      ORDER BY p.created_at DESC LIMIT 1
    );
    DROP INDEX IF EXISTS processed_events_by_item;
  `,
};
