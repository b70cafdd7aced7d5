import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #28.5: the exact in/out of a reviewed suggestion (nudged by whole sentences), kept beside its
 * analysis because the CRM's Clip record has no in/out fields; and the Draft Clip made from it.
 * A suggestion without a row is as suggested. Goes with its analysis.
 */
export const clipReviews: Migration = {
  version: 22,
  name: 'clip-reviews',
  sql: `
    CREATE TABLE clip_reviews (
      analysis_id TEXT NOT NULL REFERENCES clip_analyses (id) ON DELETE CASCADE,
      clip_number INTEGER NOT NULL,
      from_sentence INTEGER NOT NULL,
      to_sentence INTEGER NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      draft_clip_id TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (analysis_id, clip_number),
      CHECK (from_sentence <= to_sentence AND start_time < end_time)
    );
  `,
};
