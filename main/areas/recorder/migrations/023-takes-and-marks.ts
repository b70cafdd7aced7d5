import type { Migration } from '../../../kernel/migrations/index.js';

/**
 * DESIGN §6.7: every recording OBS makes is a take (a row from its start; stopped_at, file_path
 * and duration_ms once it stops), and marks are moments of a take (offset_ms from its start,
 * pauses excluded) or, with no take recording, of the wall clock alone.
 * `base_name` is the name the operator asked for, from which `_T02`, `_T03`… are made;
 * `stop_seen` is 0 when the bridge was not connected as it stopped (closed on reconnecting).
 */
export const takesAndMarks: Migration = {
  version: 23,
  name: 'recorder-takes-and-marks',
  sql: `
    CREATE TABLE recorder_takes (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      base_name TEXT NOT NULL,
      file_path TEXT,
      started_at TEXT NOT NULL,
      stopped_at TEXT,
      duration_ms INTEGER,
      stop_seen INTEGER NOT NULL DEFAULT 1 CHECK (stop_seen IN (0, 1))
    );
    CREATE INDEX recorder_takes_by_name ON recorder_takes (name);
    CREATE INDEX recorder_takes_open ON recorder_takes (id) WHERE stopped_at IS NULL;
    CREATE TABLE recorder_marks (
      id INTEGER PRIMARY KEY,
      take_id INTEGER REFERENCES recorder_takes (id),
      label TEXT,
      at TEXT NOT NULL,
      offset_ms INTEGER,
      CHECK ((take_id IS NULL) = (offset_ms IS NULL))
    );
    CREATE INDEX recorder_marks_by_take ON recorder_marks (take_id, id);
  `,
};
