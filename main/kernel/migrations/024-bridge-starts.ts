import type { Migration } from './migration.js';

/**
 * A row per start records the release (DESIGN §7, issue #35.2): a release that refuses a database
 * a newer one migrated names the release that last started on it. `migration` is the highest
 * migration that release knew.
 */
export const bridgeStarts: Migration = {
  version: 24,
  name: 'bridge-starts',
  sql: `
    CREATE TABLE bridge_starts (
      id INTEGER PRIMARY KEY,
      release TEXT NOT NULL,
      started_at TEXT NOT NULL,
      migration INTEGER NOT NULL
    );`,
};
