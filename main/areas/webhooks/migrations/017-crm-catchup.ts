import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.9's CRM catch-up. `crm_catchup_marks`: per entity, the high-water mark (the highest
 * `modifiedAt` handled, CRM time) and where the next listing starts (the mark minus 2 min, held
 * back by unknown records left to their webhooks; or the seed). `crm_catchup_seen`: the version
 * (`modifiedAt`) of each record catch-up last queued, so the 2-minute overlap and a second start
 * cost no CRM read. `crm_catchup_runs`: each run's figures for the Overview and /health; `alarm`
 * is a JSON list of the posts that still go out when a mass disappearance cancelled nothing.
 */
export const crmCatchUp: Migration = {
  version: 17,
  name: 'webhooks-crm-catchup',
  sql: `
    CREATE TABLE crm_catchup_marks (
      entity TEXT PRIMARY KEY,
      mark TEXT,
      list_from TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE crm_catchup_seen (
      entity TEXT NOT NULL,
      record_id TEXT NOT NULL,
      modified_at TEXT NOT NULL,
      PRIMARY KEY (entity, record_id)
    ) WITHOUT ROWID;
    CREATE TABLE crm_catchup_runs (
      id INTEGER PRIMARY KEY,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
      attempt INTEGER NOT NULL,
      seen INTEGER NOT NULL DEFAULT 0,
      acted INTEGER NOT NULL DEFAULT 0,
      errors INTEGER NOT NULL DEFAULT 0,
      queued INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      alarm TEXT
    );
  `,
};
