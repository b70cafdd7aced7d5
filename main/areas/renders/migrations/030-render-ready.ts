import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #44.1: make ready. A render's ready state (`ready_json`: state, clip, error, progress, when)
 * and the media it put in the provider's store, one row per file and the thumbnail, with the access
 * URL's expiry; looked up by access URL when a post carries one (its expiry checked before posting).
 */
export const renderReady: Migration = {
  version: 30,
  name: 'render-ready',
  sql: `
    ALTER TABLE renders ADD COLUMN ready_json TEXT;
    CREATE TABLE render_media (
      render_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      access_url TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      uploaded_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (render_id, kind)
    );
    CREATE INDEX render_media_by_url ON render_media (access_url);
  `,
};
