import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #41.3: what the host forgets once a broadcast ends (it reports viewerCount 0 and no end
 * time). Each live read of the sync is a sample: the peak, and viewers × time between samples for
 * the average; `ended_at` when the bridge first reads it complete, after `last_live_at`.
 */
export const broadcastRuns: Migration = {
  version: 34,
  name: 'broadcast-runs',
  sql: `
    CREATE TABLE broadcast_runs (
      streamhost_id TEXT PRIMARY KEY,
      first_live_at TEXT NOT NULL,
      last_live_at TEXT NOT NULL,
      last_viewers INTEGER NOT NULL,
      peak_viewers INTEGER NOT NULL,
      viewer_ms INTEGER NOT NULL DEFAULT 0,
      sampled_ms INTEGER NOT NULL DEFAULT 0,
      samples INTEGER NOT NULL,
      ended_at TEXT
    );
  `,
};
