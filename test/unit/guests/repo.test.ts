import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/kernel/db.js';
import { migrations } from '../../../main/areas/guests/migrations/index.js';
import { createGuestsRepo } from '../../../main/areas/guests/repo.js';

const NOW = '2026-03-01T10:00:00.000Z';

describe('guests repository (migration 005)', () => {
  it('keeps the stage history in order and answers the last known stage', () => {
    const repo = createGuestsRepo(openDatabase(':memory:', { migrations }));
    repo.addStage(
      { guestId: 'g1', stage: 'Outreach', previous: null, enteredAt: NOW, source: 'created' },
      NOW,
    );
    const entry = repo.addStage(
      { guestId: 'g1', stage: 'Responded', previous: 'Outreach', enteredAt: NOW, source: 'webhook' },
      NOW,
    );
    expect(repo.lastStage('g1')).toEqual(entry);
    expect(repo.stagesOf('g1').map((s) => s.stage)).toEqual(['Outreach', 'Responded']);
    expect(repo.lastStage('g2')).toBeUndefined();
  });

  it('allows one stage-change run per guest and stage, and any number of runs again', () => {
    const repo = createGuestsRepo(openDatabase(':memory:', { migrations }));
    const run = { guestId: 'g1', guestName: 'Ada', stage: 'Confirmed' as const, workflow: 'guest-confirmed' };
    const first = repo.insertRun({ ...run, trigger: 'stage-change', stageEntryId: null }, NOW);
    expect(first).toMatchObject({ status: 'queued', attempts: 0 });
    expect(repo.insertRun({ ...run, trigger: 'stage-change', stageEntryId: null }, NOW)).toBeUndefined();
    expect(
      repo.insertRun({ ...run, stage: 'Scheduled', trigger: 'stage-change', stageEntryId: null }, NOW),
    ).toBeDefined();
    const again = repo.insertRun({ ...run, trigger: 'run-again', stageEntryId: null }, NOW);
    const twice = repo.insertRun({ ...run, trigger: 'run-again', stageEntryId: null }, NOW);
    expect(again?.id).not.toBe(twice?.id);
    expect(repo.autoRun('g1', 'Confirmed')?.id).toBe(first?.id);
    repo.markFailed(first!.id, { message: 'not registered', hint: 'activate it', httpStatus: 404 }, NOW);
    repo.markStarted(twice!.id, 'Workflow was started', 200, NOW);
    expect(repo.latestRuns().map((r) => [r.stage, r.id, r.status])).toEqual([
      ['Scheduled', 2, 'queued'],
      ['Confirmed', twice!.id, 'started'],
    ]);
    expect(repo.getRun(first!.id)).toMatchObject({ status: 'failed', hint: 'activate it', http_status: 404 });
  });

  it('uses an index for every query it runs', () => {
    const db = openDatabase(':memory:', { migrations });
    const plan = (sql: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
    expect(plan("SELECT * FROM guest_stages WHERE guest_id = 'g' ORDER BY id DESC LIMIT 1")).toContain(
      'guest_stages_by_guest',
    );
    expect(plan('SELECT * FROM guest_stages ORDER BY guest_id, id')).toContain('guest_stages_by_guest');
    expect(plan("SELECT * FROM content_stages WHERE content_id = 'c' ORDER BY id DESC LIMIT 1")).toContain(
      'content_stages_by_content',
    );
    expect(plan("SELECT * FROM workflow_runs WHERE guest_id = 'g' ORDER BY id")).toContain(
      'workflow_runs_by_guest',
    );
    expect(
      plan(
        "SELECT * FROM workflow_runs WHERE guest_id = 'g' AND stage = 'Confirmed' AND trigger = 'stage-change'",
      ),
    ).toMatch(/workflow_runs_once|workflow_runs_latest/);
    expect(
      plan(`SELECT r.* FROM workflow_runs r
            WHERE r.id = (SELECT MAX(o.id) FROM workflow_runs o WHERE o.guest_id = r.guest_id AND o.stage = r.stage)`),
    ).toContain('workflow_runs_latest');
    expect(plan('SELECT * FROM workflow_runs ORDER BY id DESC LIMIT 5')).not.toContain('TEMP B-TREE');
  });

  it('holds (migration 008): one per guest and stage, one waiting per guest, ended once', () => {
    const repo = createGuestsRepo(openDatabase(':memory:', { migrations }));
    const entry = repo.addStage(
      { guestId: 'g1', stage: 'Confirmed', previous: 'Responded', enteredAt: NOW, source: 'webhook' },
      NOW,
    );
    const hold = {
      guestId: 'g1',
      guestName: 'Ada',
      stage: 'Confirmed' as const,
      workflow: 'guest-confirmed',
      moment: 'confirmation' as const,
      stageEntryId: entry.id,
      contentId: 'c1',
      missing: ['date', 'time'],
      reason: 'missing-values' as const,
      note: null,
    };
    const first = repo.insertHold(hold, NOW);
    expect(first).toMatchObject({ status: 'waiting', missing: ['date', 'time'], runId: null });
    expect(repo.insertHold(hold, NOW)).toBeUndefined();
    expect(repo.waitingHoldsOfContent('c1').map((h) => h.id)).toEqual([first?.id]);
    // A second waiting hold for the same guest is not inserted (a guest is at one stage).
    expect(repo.insertHold({ ...hold, stage: 'Recorded', moment: 'thank-you' }, NOW)).toBeUndefined();
    repo.markHoldChecked(first!.id, ['time'], null, NOW);
    expect(repo.waitingHoldOf('g1')).toMatchObject({ missing: ['time'], contentId: null });
    expect(repo.resolveHold(first!.id, 'released', ['time'], NOW)).toBe(true);
    expect(repo.resolveHold(first!.id, 'sent-anyway', ['time'], NOW)).toBe(false);
    expect(repo.holdOf('g1', 'Confirmed')).toMatchObject({ status: 'released', resolvedAt: NOW });
    expect(repo.waitingHolds()).toEqual([]);
  });

  it('uses an index for the hold queries', () => {
    const db = openDatabase(':memory:', { migrations });
    const plan = (sql: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
    expect(plan("SELECT * FROM guest_holds WHERE guest_id = 'g' AND stage = 'Confirmed'")).toContain(
      'guest_holds_once',
    );
    expect(plan("SELECT * FROM guest_holds WHERE guest_id = 'g' AND status = 'waiting'")).toContain(
      'guest_holds_waiting',
    );
    expect(
      plan("SELECT * FROM guest_holds WHERE content_id = 'c' AND status = 'waiting' ORDER BY id"),
    ).toContain('guest_holds_by_content');
    expect(plan("SELECT * FROM guest_holds WHERE status = 'waiting' ORDER BY id")).toContain(
      'guest_holds_open',
    );
  });
});
