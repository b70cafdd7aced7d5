import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #41.4: content metrics arrive only by POST /analytics/content-ingest (spec §4.2), and the
 * page says when they last did. `collected_at` is the sender's time of the figures, so the bridge
 * keeps its own time of receipt; null for rows from before 033 and the sandbox's demo rows, which
 * nothing sent.
 */
export const contentReceived: Migration = {
  version: 33,
  name: 'analytics-content-received',
  sql: `
    ALTER TABLE content_metrics ADD COLUMN received_at TEXT;
    CREATE INDEX content_metrics_by_received ON content_metrics (received_at);
  `,
};
