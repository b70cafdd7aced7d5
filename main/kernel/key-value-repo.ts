import type { Db } from './db.js';

/** Small key/value store for state the bridge owns (e.g. email templates), JSON values. */
export function createKeyValueRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const put = db.prepare<[string, string, string]>(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    get<T>(key: string): T | undefined {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    put(key: string, value: unknown, now: string): void {
      put.run(key, JSON.stringify(value), now);
    },
  };
}
export type KeyValueRepo = ReturnType<typeof createKeyValueRepo>;
