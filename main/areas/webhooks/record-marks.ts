import type { Db } from '../../kernel/db.js';

/**
 * The "last touched" mark of each CRM record (DESIGN §6.1.2): a counter raised by every item
 * received for the record and by every write-back of the bridge, whether or not its echo ever
 * arrives. An identical item is a redelivery only while the record's mark is the one that item set.
 */
export function createRecordMarks(db: Db) {
  const read = db.prepare<[string, string], { mark: number }>(
    'SELECT mark FROM record_marks WHERE entity = ? AND record_id = ?',
  );
  const raise = db.prepare<[string, string, string], { mark: number }>(
    `INSERT INTO record_marks (entity, record_id, mark, touched_at) VALUES (?, ?, 1, ?)
     ON CONFLICT (entity, record_id) DO UPDATE SET mark = mark + 1, touched_at = excluded.touched_at
     RETURNING mark`,
  );
  return {
    current: (entity: string, recordId: string): number => read.get(entity, recordId)?.mark ?? 0,
    /** Raises the record's mark and returns the new one. */
    touch: (entity: string, recordId: string, now: string): number => raise.get(entity, recordId, now)!.mark,
  };
}
export type RecordMarks = ReturnType<typeof createRecordMarks>;
