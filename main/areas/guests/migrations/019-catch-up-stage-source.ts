import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Issue #22.6: a stage transition CRM catch-up found (DESIGN §6.9) is recorded with source
 * `catch-up`, not `webhook`, so the operator can tell a change seen late from one seen live.
 *
 * SQLite cannot change a CHECK in place, and foreign_keys cannot be switched off inside the
 * migration's transaction: guest_stages (referenced by workflow_runs and guest_holds) is copied
 * aside, dropped with its foreign keys deferred, created again under its own name and refilled
 * with the same ids, which satisfies every reference again before the commit checks them.
 * content_stages (referenced by nothing) the same way.
 */
export const catchUpStageSource: Migration = {
  version: 19,
  name: 'catch-up stage source',
  sql: `
    PRAGMA defer_foreign_keys = ON;

    CREATE TEMP TABLE guest_stages_copy AS SELECT * FROM guest_stages;
    DROP TABLE guest_stages;
    CREATE TABLE guest_stages (
      id INTEGER PRIMARY KEY,
      guest_id TEXT NOT NULL,
      stage TEXT NOT NULL,
      previous_stage TEXT,
      entered_at TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('created', 'webhook', 'dashboard', 'fetched', 'demo', 'catch-up')),
      recorded_at TEXT NOT NULL
    );
    INSERT INTO guest_stages SELECT * FROM guest_stages_copy;
    DROP TABLE guest_stages_copy;
    CREATE INDEX guest_stages_by_guest ON guest_stages (guest_id, id);

    CREATE TEMP TABLE content_stages_copy AS SELECT * FROM content_stages;
    DROP TABLE content_stages;
    CREATE TABLE content_stages (
      id INTEGER PRIMARY KEY,
      content_id TEXT NOT NULL,
      stage TEXT NOT NULL,
      previous_stage TEXT,
      entered_at TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('created', 'webhook', 'fetched', 'catch-up')),
      recorded_at TEXT NOT NULL
    );
    INSERT INTO content_stages SELECT * FROM content_stages_copy;
    DROP TABLE content_stages_copy;
    CREATE INDEX content_stages_by_content ON content_stages (content_id, id);
  `,
};
