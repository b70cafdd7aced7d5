import type { Migration } from './migration.js';

export const foundation: Migration = {
  version: 1,
  name: 'foundation',
  sql: `
    CREATE TABLE activity (
      id INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      type TEXT NOT NULL,
      level TEXT NOT NULL CHECK (level IN ('info', 'warn', 'error')),
      message TEXT NOT NULL,
      data TEXT
    );
    CREATE INDEX activity_by_type ON activity (type, id);
    CREATE INDEX activity_by_level ON activity (level, id);
    CREATE INDEX activity_by_at ON activity (at);

    -- Every webhook request as received (payload kept 14 days, DESIGN §6.1).
    CREATE TABLE webhook_deliveries (
      id INTEGER PRIMARY KEY,
      received_at TEXT NOT NULL,
      event TEXT NOT NULL,
      item_count INTEGER NOT NULL,
      signed_by TEXT,
      payload TEXT NOT NULL,
      response_status INTEGER,
      finished_at TEXT
    );
    CREATE INDEX webhook_deliveries_by_received ON webhook_deliveries (received_at);

    -- One row per webhook item ever seen, by idempotency key: a redelivery finds it.
    CREATE TABLE processed_events (
      key TEXT PRIMARY KEY,
      event TEXT NOT NULL,
      entity_id TEXT NOT NULL,
      delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      job_id INTEGER,
      status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
      outcome TEXT,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX processed_events_by_entity ON processed_events (entity_id, created_at);
    CREATE INDEX processed_events_by_delivery ON processed_events (delivery_id);

    -- Durable job queue: claimed by conditional update; one job at a time per lane.
    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      lane TEXT,
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      run_at TEXT NOT NULL,
      dedupe_key TEXT UNIQUE,
      last_error TEXT,
      result TEXT,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT
    );
    CREATE INDEX jobs_due ON jobs (status, run_at);
    CREATE INDEX jobs_by_lane ON jobs (lane, status, id);
    CREATE INDEX jobs_by_kind ON jobs (kind, id);

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
  `,
};
