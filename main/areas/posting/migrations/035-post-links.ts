import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #44.2: a dashboard post made from a clip links to the clip and the production. The
 * production's thread reads its posts by `content_production_id` (the CRM's posts it reads from
 * the CRM). Rows written before link to nothing.
 */
export const postLinks: Migration = {
  version: 35,
  name: 'posting-post-links',
  sql: `
    ALTER TABLE social_post_ledger ADD COLUMN content_production_id TEXT;
    ALTER TABLE social_post_ledger ADD COLUMN clip_id TEXT;
    CREATE INDEX social_post_ledger_production ON social_post_ledger (content_production_id)
      WHERE content_production_id IS NOT NULL;
  `,
};
