import type { StoredActivityEvent, ActivityLevel } from '../../../shared/api/activity.js';
import { preparedBySql, whereAll, type Db } from '../db.js';
import { likeContaining } from '../like-pattern.js';
import { pruneByIdBefore } from '../prune-by-id.js';

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

interface ListFilters {
  level: boolean;
  type: boolean;
  /** Types from `typeFrom` (the prefix) up to, not including, `typeTo` (see prefixEnd). */
  typePrefix?: boolean;
  /** The message contains `:text` (a LIKE pattern: likeContaining). */
  text?: boolean;
  beforeId: boolean;
}

/**
 * The first string after every string starting with `prefix`: its last character moved one on
 * ("posting" → "postinh"). `type >= prefix AND type < end` is then "starts with prefix" as an
 * index range, which LIKE is not (it ignores case, so SQLite cannot use the index for it).
 * Prefixes are ASCII (listActivity's rule), so the next character is always one character.
 */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export interface ActivityListFilter {
  limit: number;
  level?: string;
  type?: string;
  typePrefix?: string;
  /** Text the message holds (ASCII case ignored). */
  q?: string;
  beforeId?: number;
}

/**
 * The activity list's SQL for the filters it has, newest first. One statement per set of filters,
 * not `(:type IS NULL OR type = :type)`: SQLite plans a statement once, and with that form it can
 * use no index, so a filter for a rare type read the whole log back to its oldest row.
 */
export function activityListSql(by: ListFilters): string {
  const where = whereAll([
    by.level ? 'level = :level' : null,
    by.type ? 'type = :type' : null,
    by.typePrefix ? 'type >= :typeFrom AND type < :typeTo' : null,
    // A scan, newest first, that stops at :limit matches: the log holds 14 days (issue #42.3 measured it).
    by.text ? "message LIKE :text ESCAPE '\\'" : null,
    by.beforeId ? 'id < :beforeId' : null,
  ]);
  return `SELECT * FROM activity${where} ORDER BY id DESC LIMIT :limit`;
}

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
  type ListParams = {
    limit: number;
    level?: string;
    type?: string;
    typeFrom?: string;
    typeTo?: string;
    text?: string;
    beforeId?: number;
  };
  const listStatement = preparedBySql<ListParams, ActivityRow>(db);
  const prune = pruneByIdBefore(db, 'activity', 'at');

  return {
    /** The highest id stored (0 for none): the log numbers its events on from there. */
    maxId: () => maxId.get()?.id ?? 0,
    /** Stores events numbered by the caller, in one transaction. */
    insertAll: (events: readonly StoredActivityEvent[]) => insertAll(events),
    list(filter: ActivityListFilter): StoredActivityEvent[] {
      const by = {
        level: filter.level !== undefined,
        type: filter.type !== undefined,
        typePrefix: filter.typePrefix !== undefined,
        text: filter.q !== undefined,
        beforeId: filter.beforeId !== undefined,
      };
      const params: ListParams = { limit: filter.limit };
      if (by.level) params.level = filter.level;
      if (by.type) params.type = filter.type;
      if (filter.typePrefix !== undefined) {
        params.typeFrom = filter.typePrefix;
        params.typeTo = prefixEnd(filter.typePrefix);
      }
      if (filter.q !== undefined) params.text = likeContaining(filter.q);
      if (by.beforeId) params.beforeId = filter.beforeId;
      return listStatement(activityListSql(by)).all(params).map(toEvent);
    },
    pruneBefore: prune,
  };
}
export type ActivityRepo = ReturnType<typeof createActivityRepo>;
