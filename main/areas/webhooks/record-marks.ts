import type { Db } from '../../kernel/db.js';

/** The item a mark is raised for: what makes another one identical to it, and its key. */
export interface MarkingItem {
  event: string;
  /** idempotency.ts itemHash */
  hash: string;
  /** `<deliveryId>:<index>` */
  key: string;
}

/**
 * The "last touched" mark of each CRM record (DESIGN §6.1.2): a counter raised by every item
 * received for the record and by every write-back of the bridge, whether or not its echo ever
 * arrives. An identical item is a redelivery only while the record's mark is the one that item
 * set: the mark row names the item that set it (none for a write-back), so one conditional raise
 * both decides and records (migration 013).
 */
export function createRecordMarks(db: Db) {
  const raiseBy = (condition: string) =>
    // Positional parameters: this runs for every webhook item, and binding by name costs a lookup each.
    db.prepare<
      [
        entity: string,
        recordId: string,
        now: string,
        event: string | null,
        hash: string | null,
        key: string | null,
      ],
      { mark: number }
    >(
      `INSERT INTO record_marks (entity, record_id, mark, touched_at, set_by_event, set_by_hash, set_by_key)
       VALUES (?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (entity, record_id) DO UPDATE SET mark = mark + 1, touched_at = excluded.touched_at,
         set_by_event = excluded.set_by_event, set_by_hash = excluded.set_by_hash, set_by_key = excluded.set_by_key
       ${condition}
       RETURNING mark`,
    );
  const raise = raiseBy('');
  // With a false WHERE the upsert changes nothing and returns no row.
  const raiseUnlessSame = raiseBy(
    'WHERE NOT (set_by_event IS excluded.set_by_event AND set_by_hash IS excluded.set_by_hash)',
  );
  const setter = db.prepare<[string, string], { mark: number; key: string | null }>(
    'SELECT mark, set_by_key AS key FROM record_marks WHERE entity = ? AND record_id = ?',
  );
  return {
    /**
     * Raises the record's mark for an item and returns the new mark; returns null, changing
     * nothing, when the current mark was set by an identical item (a redelivery). `evenIfSame`
     * raises it whatever set it.
     */
    raiseForItem(
      entity: string,
      recordId: string,
      item: MarkingItem,
      now: string,
      options: { evenIfSame?: boolean } = {},
    ): number | null {
      const statement = options.evenIfSame ? raise : raiseUnlessSame;
      return statement.get(entity, recordId, now, item.event, item.hash, item.key)?.mark ?? null;
    },
    /** A write-back by the bridge: raises the record's mark, set by no item. Returns the new mark. */
    touch: (entity: string, recordId: string, now: string): number =>
      raise.get(entity, recordId, now, null, null, null)!.mark,
    /** The listener of the bridge's CRM write-backs: each touches its record (echo or not). */
    writeListener:
      (now: () => Date) =>
      (entity: string, recordId: string): void =>
        void raise.get(entity, recordId, now().toISOString(), null, null, null),
    /** The record's mark and the key of the item that set it (null: a write-back did). */
    setter: (entity: string, recordId: string) => setter.get(entity, recordId),
  };
}
export type RecordMarks = ReturnType<typeof createRecordMarks>;
