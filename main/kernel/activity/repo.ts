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
  const insert = db.prepare<[string, string, string, string, string | null]>(
    'INSERT INTO activity (at, type, level, message, data) VALUES (?, ?, ?, ?, ?)',
  );
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
    insert(event: Omit<StoredActivityEvent, 'id'>): StoredActivityEvent {
      const data = event.data === null ? null : JSON.stringify(event.data);
      const { lastInsertRowid } = insert.run(event.at, event.type, event.level, event.message, data);
      return { ...event, id: Number(lastInsertRowid) };
    },
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
