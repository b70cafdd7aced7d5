import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.9: a guest workflow CRM catch-up finds late is held for the operator. Such a hold
 * has a `reason` ('late', next to the §6.8 'missing-values') and a `note` saying why it is late;
 * it waits on no template value and may be for a stage with no email, so `moment` becomes
 * nullable. guest_holds is referenced by nothing: it is rebuilt under its own name, same ids.
 */
export const lateHolds: Migration = {
  version: 20,
  name: 'late-holds',
  sql: `
    CREATE TABLE guest_holds_new (
      id INTEGER PRIMARY KEY,
      guest_id TEXT NOT NULL,
      guest_name TEXT,
      stage TEXT NOT NULL,
      workflow TEXT NOT NULL,
      moment TEXT,
      stage_entry_id INTEGER NOT NULL REFERENCES guest_stages (id),
      content_id TEXT,
      missing TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('waiting', 'released', 'sent-anyway', 'superseded')),
      run_id INTEGER REFERENCES workflow_runs (id),
      created_at TEXT NOT NULL,
      checked_at TEXT NOT NULL,
      resolved_at TEXT,
      reason TEXT NOT NULL DEFAULT 'missing-values' CHECK (reason IN ('missing-values', 'late')),
      note TEXT
    );
    INSERT INTO guest_holds_new (id, guest_id, guest_name, stage, workflow, moment, stage_entry_id,
      content_id, missing, status, run_id, created_at, checked_at, resolved_at)
    SELECT id, guest_id, guest_name, stage, workflow, moment, stage_entry_id, content_id, missing,
      status, run_id, created_at, checked_at, resolved_at FROM guest_holds;
    DROP TABLE guest_holds;
    ALTER TABLE guest_holds_new RENAME TO guest_holds;
    CREATE UNIQUE INDEX guest_holds_once ON guest_holds (guest_id, stage);
    CREATE UNIQUE INDEX guest_holds_waiting ON guest_holds (guest_id) WHERE status = 'waiting';
    CREATE INDEX guest_holds_by_content ON guest_holds (content_id) WHERE status = 'waiting';
    CREATE INDEX guest_holds_open ON guest_holds (status, id);
  `,
};
