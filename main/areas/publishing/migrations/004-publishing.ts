import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * Publish ledger (issue #6, DESIGN §6.2's rule applied to platform publishing): one row per
 * PlatformPublish record, claimed with a conditional upsert before the gateway call, so the
 * same Queued event twice, a redelivery or a retry never publishes twice.
 */
export const publishing: Migration = {
  version: 4,
  name: 'publishing',
  sql: `
    CREATE TABLE publish_ledger (
      record_id TEXT PRIMARY KEY,
      platform TEXT,
      content_production_id TEXT,
      -- waiting: its dependency has not published. retrying: released after a transient failure.
      -- publishing: a gateway call is in flight (claimed). published / failed: outcome known.
      status TEXT NOT NULL CHECK (status IN ('waiting', 'retrying', 'publishing', 'published', 'failed')),
      -- Claims made; a claim's writes name its generation, so a stale run cannot overwrite a newer one.
      generation INTEGER NOT NULL DEFAULT 0,
      waiting_on TEXT,
      note TEXT,
      -- The gateway's answer (JSON) of a publish: rewritten to the CRM if the first write-back failed.
      result TEXT,
      -- The outcome has reached the CRM record.
      written_back INTEGER NOT NULL DEFAULT 0,
      -- A primary's waiting siblings have been handed to the queue.
      dependents_released INTEGER NOT NULL DEFAULT 0,
      claimed_at TEXT,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX publish_ledger_by_production ON publish_ledger (content_production_id, status);
  `,
};
