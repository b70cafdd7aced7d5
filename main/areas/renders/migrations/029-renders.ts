import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #43: clip renders (DESIGN §6.10). A render keeps what it was asked for as it stood (the take
 * and its file, the reviewed in/out, each format's cues), so it runs, and runs again after a restart,
 * whatever becomes of the analysis; its files are listed as written (`files_json`) and their bytes
 * summed (`bytes`) for the disk use Settings shows. Newest first by rowid.
 */
export const renders: Migration = {
  version: 29,
  name: 'clip-renders',
  sql: `
    CREATE TABLE renders (
      id TEXT PRIMARY KEY,
      analysis_id TEXT NOT NULL,
      clip_number INTEGER NOT NULL,
      take_json TEXT NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL,
      formats_json TEXT NOT NULL,
      captions_json TEXT,
      crop_x REAL NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'rendering', 'done', 'failed', 'cancelled')),
      notes_json TEXT NOT NULL DEFAULT '[]',
      error TEXT,
      restarts INTEGER NOT NULL DEFAULT 0,
      loudness_json TEXT,
      files_json TEXT NOT NULL DEFAULT '[]',
      bytes INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      expires_at TEXT,
      CHECK (start_time < end_time)
    );
    CREATE INDEX renders_by_clip ON renders (analysis_id, clip_number);
    CREATE INDEX renders_by_expiry ON renders (expires_at) WHERE expires_at IS NOT NULL;
    CREATE INDEX renders_by_state ON renders (state, created_at);
  `,
};
