import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.8: a stage workflow whose email would render empty variables is held on the guest
 * instead of started. One hold per guest and stage (the workflow's once-per-guest-and-stage
 * rule); at most one waiting per guest (a guest is at one stage). `missing` is a JSON array of
 * variable names. A hold ends released (the values came), sent-anyway (the operator's choice) or
 * superseded (the guest moved on to another stage first).
 */
export const guestHolds: Migration = {
  version: 8,
  name: 'guest-holds',
  sql: `
    CREATE TABLE guest_holds (
      id INTEGER PRIMARY KEY,
      guest_id TEXT NOT NULL,
      guest_name TEXT,
      stage TEXT NOT NULL,
      workflow TEXT NOT NULL,
      moment TEXT NOT NULL,
      stage_entry_id INTEGER NOT NULL REFERENCES guest_stages (id),
      content_id TEXT,
      missing TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('waiting', 'released', 'sent-anyway', 'superseded')),
      run_id INTEGER REFERENCES workflow_runs (id),
      created_at TEXT NOT NULL,
      checked_at TEXT NOT NULL,
      resolved_at TEXT
    );
    CREATE UNIQUE INDEX guest_holds_once ON guest_holds (guest_id, stage);
    CREATE UNIQUE INDEX guest_holds_waiting ON guest_holds (guest_id) WHERE status = 'waiting';
    CREATE INDEX guest_holds_by_content ON guest_holds (content_id) WHERE status = 'waiting';
    CREATE INDEX guest_holds_open ON guest_holds (status, id);
  `,
};
