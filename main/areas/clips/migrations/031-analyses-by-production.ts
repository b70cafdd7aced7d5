import type { Migration } from '../../../kernel/migrations/index.js';

/** Issue #42: a production's thread reads its analyses by content record. */
export const analysesByProduction: Migration = {
  version: 31,
  name: 'clip-analyses-by-production',
  sql: `
    CREATE INDEX clip_analyses_by_production ON clip_analyses (content_production_id, created_at);
  `,
};
