import type { StoredActivityEvent, ActivityLevel } from '../../../shared/api/activity.js';
import type { Db } from '../db.js';

interface ActivityRow {
  id: number;
  at: string;
  type: string;
  level: ActivityLevel;
  message: string;
  data: string | null;
}

const toEvent = (row: ActivityRow): StoredActivityEvent => ({
  ...row,
  data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
});

export function createActivityRepo(db: Db) {
  const insert = db.prepare<[number, string, string, string, string, string | null]>(
    'INSERT INTO activity (id, at, type, level, message, data) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const maxId = db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM activity');
  const insertAll = db.transaction((events: readonly StoredActivityEvent[]) => {
    for (const event of events) {
      const data = event.data === null ? null : JSON.stringify(event.data);
      insert.run(event.id, event.at, event.type, event.level, event.message, data);
    }
  });
  const list = db.prepare<
    { limit: number; level: string | null; type: string | null; beforeId: number | null },
    ActivityRow
  >(
    `SELECT * FROM activity
     WHERE (:level IS NULL OR level = :level) AND (:type IS NULL OR type = :type)
       AND (:beforeId IS NULL OR id < :beforeId)
     ORDER BY id DESC LIMIT :limit`,
  );
  const prune = db.prepare<[string]>('DELETE FROM activity WHERE at < ?');

  return {
    /** The highest id stored (0 for none): the log numbers its events on from there. */
    maxId: () => maxId.get()?.id ?? 0,
    /** Stores events numbered by the caller, in one transaction. */
    insertAll: (events: readonly StoredActivityEvent[]) => insertAll(events),
    list(filter: { limit: number; level?: string; type?: string; beforeId?: number }): StoredActivityEvent[] {
      return list
        .all({
          limit: filter.limit,
          level: filter.level ?? null,
          type: filter.type ?? null,
          beforeId: filter.beforeId ?? null,
        })
        .map(toEvent);
    },
    pruneBefore(isoTime: string): number {
      return prune.run(isoTime).changes;
    },
  };
}
export type ActivityRepo = ReturnType<typeof createActivityRepo>;
