import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #14.11: each platform of a post has its own state. `platform_states` (JSON, by platform:
 * status, the provider's reason, the platform's post id) is what the provider answered per
 * platform; NULL on rows written before it (their row state stands for every platform).
 * `retry_of`: a post that sends only the failed platforms of an earlier, partly failed one
 * points at that first post, so the dashboard shows them as one post.
 */
export const platformStates: Migration = {
  version: 7,
  name: 'posting-platform-states',
  sql: `
    ALTER TABLE social_post_ledger ADD COLUMN platform_states TEXT;
    ALTER TABLE social_post_ledger ADD COLUMN retry_of INTEGER REFERENCES social_post_ledger (id);
    CREATE INDEX social_post_ledger_by_retry_of ON social_post_ledger (retry_of) WHERE retry_of IS NOT NULL;
  `,
};
