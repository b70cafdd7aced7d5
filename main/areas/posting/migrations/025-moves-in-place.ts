import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #36.3: a move is a move where the provider allows it. `body_hash` is the hash of what a
 * post says and where (text, media, platforms) apart from its time, so a time-only change is told
 * from a content change (`content_hash` keeps covering both, and after a move the new time; the
 * idempotency key stays the one the post was created with). `moving_to` is the time a PATCH is
 * moving the post to, committed before the call and cleared after it: a row left with it (a crash,
 * an unknown outcome) is settled from GET /post/{id}. Rows written before get their body hash at
 * the area's start (it needs SHA-256).
 */
export const movesInPlace: Migration = {
  version: 25,
  name: 'posting-moves-in-place',
  sql: `
    ALTER TABLE social_post_ledger ADD COLUMN body_hash TEXT;
    ALTER TABLE social_post_ledger ADD COLUMN moving_to TEXT;
    CREATE INDEX social_post_ledger_moving ON social_post_ledger (id) WHERE moving_to IS NOT NULL;
    CREATE INDEX social_post_ledger_without_body_hash ON social_post_ledger (id) WHERE body_hash IS NULL;
  `,
};
