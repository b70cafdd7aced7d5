import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { areaMigrations } from '../../../main/areas/migrations.js';
import { migrate } from '../../../main/kernel/db.js';

/**
 * Migration 019 rebuilds guest_stages (a CHECK gains 'catch-up') while workflow_runs points at
 * its rows, with foreign keys on as the bridge runs: the ids and references must survive.
 */
it('019 keeps every stage row and the workflow runs that reference them, and accepts catch-up', () => {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    areaMigrations.filter((m) => m.version < 19),
  );
  const t = '2026-01-01T00:00:00.000Z';
  const stage = db.prepare(
    `INSERT INTO guest_stages (guest_id, stage, previous_stage, entered_at, source, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  stage.run('g1', 'Responded', null, t, 'created', t);
  stage.run('g1', 'Confirmed', 'Responded', t, 'webhook', t);
  db.prepare(
    `INSERT INTO workflow_runs (guest_id, stage, workflow, trigger, stage_entry_id, status, created_at, updated_at)
     VALUES ('g1', 'Confirmed', 'guest-confirmed', 'stage-change', 2, 'queued', ?, ?)`,
  ).run(t, t);
  expect(() => stage.run('g1', 'Recorded', 'Confirmed', t, 'catch-up', t)).toThrow(/CHECK/);

  expect(migrate(db, areaMigrations)).toContain(19);

  stage.run('g1', 'Recorded', 'Confirmed', t, 'catch-up', t);
  expect(db.prepare('SELECT id, source FROM guest_stages ORDER BY id').all()).toEqual([
    { id: 1, source: 'created' },
    { id: 2, source: 'webhook' },
    { id: 3, source: 'catch-up' },
  ]);
  expect(db.pragma('foreign_key_check')).toEqual([]);
  expect(db.prepare('SELECT stage_entry_id FROM workflow_runs').get()).toEqual({ stage_entry_id: 2 });
  // The references still name guest_stages (not a table renamed away).
  const runs = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'workflow_runs'").get() as {
    sql: string;
  };
  expect(runs.sql).toContain('REFERENCES guest_stages (id)');
  db.close();
});
