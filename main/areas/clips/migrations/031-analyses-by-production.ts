import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #44.3: the Clips page lists recent analyses (all, or a production's) and finds the drafts of
 * the same moment among a production's analyses: both read clip_analyses by production and time.
 */
export const analysesByProduction: Migration = {
  version: 31,
  name: 'clip-analyses-by-production',
  sql: `
    CREATE INDEX clip_analyses_by_production ON clip_analyses (content_production_id, created_at);
    CREATE INDEX clip_analyses_by_created ON clip_analyses (created_at);
  `,
};
