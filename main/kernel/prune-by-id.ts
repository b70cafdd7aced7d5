import type { Db } from './db.js';

/**
 * Retention for a log whose ids follow its times (rows numbered as they are written: the activity
 * log, the webhook delivery log): the rows older than a cutoff are the lowest ids, bounded by the
 * first row kept. That row is found from the oldest up, past the rows to delete (an hour's worth
 * at an hourly prune), so the log needs no index of times that every insert would pay for.
 * Returns a function deleting the rows before an ISO time, returning how many it deleted.
 */
export function pruneByIdBefore(db: Db, table: string, timeColumn: string): (isoTime: string) => number {
  const firstKept = db.prepare<[string], { id: number }>(
    `SELECT id FROM ${table} WHERE ${timeColumn} >= ? ORDER BY id LIMIT 1`,
  );
  const deleteBelow = db.prepare<[number]>(`DELETE FROM ${table} WHERE id < ?`);
  const deleteAll = db.prepare(`DELETE FROM ${table}`);
  return (isoTime) => {
    const kept = firstKept.get(isoTime);
    return (kept ? deleteBelow.run(kept.id) : deleteAll.run()).changes;
  };
}
