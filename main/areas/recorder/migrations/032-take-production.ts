import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #42.2: a take belongs to the production its name was given from (POST
 * /api/recorder/filename with contentProductionId, Companion's "filename from the next
 * production"), stored as the take starts; NULL: the name came from nowhere the bridge knows.
 */
export const takeProduction: Migration = {
  version: 32,
  name: 'recorder-take-production',
  sql: `
    ALTER TABLE recorder_takes ADD COLUMN content_production_id TEXT;
    CREATE INDEX recorder_takes_by_production ON recorder_takes (content_production_id, id)
      WHERE content_production_id IS NOT NULL;
  `,
};
