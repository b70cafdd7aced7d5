import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Guests and content (issue #7): the stage history the bridge keeps for every guest and
 * content record (transitions are detected against it, DESIGN §6.1.5; the pipeline ratios
 * are computed from it), and one row per automation workflow run.
 */
export const guests: Migration = {
  version: 5,
  name: 'guests',
  sql: `
    CREATE TABLE guest_stages (
      id INTEGER PRIMARY KEY,
      guest_id TEXT NOT NULL,
      stage TEXT NOT NULL,
      previous_stage TEXT,
      entered_at TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('created', 'webhook', 'dashboard', 'fetched', 'demo')),
      recorded_at TEXT NOT NULL
    );
    CREATE INDEX guest_stages_by_guest ON guest_stages (guest_id, id);

    -- A stage change starts its workflow once per guest and stage (the partial unique index);
    -- the operator's "run again" adds rows.
    CREATE TABLE workflow_runs (
      id INTEGER PRIMARY KEY,
      guest_id TEXT NOT NULL,
      guest_name TEXT,
      stage TEXT NOT NULL,
      workflow TEXT NOT NULL,
      trigger TEXT NOT NULL CHECK (trigger IN ('stage-change', 'run-again')),
      stage_entry_id INTEGER REFERENCES guest_stages (id),
      status TEXT NOT NULL CHECK (status IN ('queued', 'started', 'failed')),
      message TEXT,
      hint TEXT,
      http_status INTEGER,
      attempts INTEGER NOT NULL DEFAULT 0,
      job_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      started_at TEXT,
      failed_at TEXT
    );
    CREATE UNIQUE INDEX workflow_runs_once ON workflow_runs (guest_id, stage) WHERE trigger = 'stage-change';
    CREATE INDEX workflow_runs_by_guest ON workflow_runs (guest_id, id);
    CREATE INDEX workflow_runs_latest ON workflow_runs (guest_id, stage, id);

    CREATE TABLE content_stages (
      id INTEGER PRIMARY KEY,
      content_id TEXT NOT NULL,
      stage TEXT NOT NULL,
      previous_stage TEXT,
      entered_at TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('created', 'webhook', 'fetched')),
      recorded_at TEXT NOT NULL
    );
    CREATE INDEX content_stages_by_content ON content_stages (content_id, id);
  `,
};
