import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.6: an analysis is stored (its id returned, kept 30 days) so its exports can be fetched
 * and its suggestions reviewed. `answer_json` is the answer as sent (the suggestions), `sentences_json`
 * the transcript's sentences (times, text, quotability: captions, nudges and quotes without the
 * transcript), `windows_json` each suggestion's sentences [from, to] as suggested. `take_id` and
 * `take_file_name` (the EDL's clip name) are copied, not referenced: the take's row may go.
 */
export const clipAnalyses: Migration = {
  version: 21,
  name: 'clip-analyses',
  sql: `
    CREATE TABLE clip_analyses (
      id TEXT PRIMARY KEY,
      content_production_id TEXT NOT NULL,
      take_id INTEGER,
      take_file_name TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      answer_json TEXT NOT NULL,
      sentences_json TEXT NOT NULL,
      windows_json TEXT NOT NULL
    );
    CREATE INDEX clip_analyses_by_expiry ON clip_analyses (expires_at);
  `,
};
