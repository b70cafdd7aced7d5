import type { Db } from '../../kernel/db.js';

export interface CatchUpMark {
  entity: string;
  /** The highest `modifiedAt` handled (CRM time, ISO); null until a record was. */
  mark: string | null;
  /** Where the next listing starts (ISO). */
  list_from: string;
}

export interface CatchUpRunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'ok' | 'failed';
  attempt: number;
  seen: number;
  acted: number;
  errors: number;
  queued: number;
  error: string | null;
  alarm: string | null;
}

export interface CatchUpFigures {
  seen: number;
  acted: number;
  errors: number;
  queued: number;
  error: string | null;
  alarm: unknown[] | null;
}

/** Catch-up's tables (migration 017): marks per entity, the last version queued per record, the runs. */
export function createCatchUpRepo(db: Db) {
  const markOf = db.prepare<[string], CatchUpMark>(
    'SELECT entity, mark, list_from FROM crm_catchup_marks WHERE entity = ?',
  );
  const putMark = db.prepare<{ entity: string; mark: string | null; listFrom: string; now: string }>(
    `INSERT INTO crm_catchup_marks (entity, mark, list_from, updated_at) VALUES (@entity, @mark, @listFrom, @now)
     ON CONFLICT (entity) DO UPDATE SET mark = excluded.mark, list_from = excluded.list_from, updated_at = excluded.updated_at`,
  );
  const seenAt = db.prepare<[string, string], { modified_at: string }>(
    'SELECT modified_at FROM crm_catchup_seen WHERE entity = ? AND record_id = ?',
  );
  const putSeen = db.prepare<[string, string, string]>(
    `INSERT INTO crm_catchup_seen (entity, record_id, modified_at) VALUES (?, ?, ?)
     ON CONFLICT (entity, record_id) DO UPDATE SET modified_at = excluded.modified_at`,
  );
  const pruneSeen = db.prepare<[string, string]>(
    'DELETE FROM crm_catchup_seen WHERE entity = ? AND modified_at < ?',
  );
  const startRun = db.prepare<[string, number]>(
    "INSERT INTO crm_catchup_runs (started_at, status, attempt) VALUES (?, 'running', ?)",
  );
  const finishRun = db.prepare<{
    id: number;
    status: 'ok' | 'failed';
    now: string;
    seen: number;
    acted: number;
    errors: number;
    queued: number;
    error: string | null;
    alarm: string | null;
  }>(
    `UPDATE crm_catchup_runs SET status = @status, finished_at = @now, seen = @seen, acted = @acted,
       errors = @errors, queued = @queued, error = @error, alarm = @alarm WHERE id = @id`,
  );
  const lastRun = db.prepare<[], CatchUpRunRow>(
    "SELECT * FROM crm_catchup_runs WHERE status != 'running' ORDER BY id DESC LIMIT 1",
  );
  const lastOk = db.prepare<[], CatchUpRunRow>(
    "SELECT * FROM crm_catchup_runs WHERE status = 'ok' ORDER BY id DESC LIMIT 1",
  );
  const interrupted = db.prepare<[string]>(
    "UPDATE crm_catchup_runs SET status = 'failed', finished_at = ?, error = 'interrupted: the bridge stopped' WHERE status = 'running'",
  );
  const latestDelivery = db.prepare<[], { received_at: string }>(
    'SELECT received_at FROM webhook_deliveries ORDER BY id DESC LIMIT 1',
  );

  return {
    mark: (entity: string): CatchUpMark | undefined => markOf.get(entity),
    setMark(entity: string, mark: string | null, listFrom: string, now: string): void {
      putMark.run({ entity, mark, listFrom, now });
    },
    /** The `modifiedAt` of the record's version catch-up last queued. */
    seenAt: (entity: string, id: string): string | undefined => seenAt.get(entity, id)?.modified_at,
    markSeen(entity: string, id: string, modifiedAt: string): void {
      putSeen.run(entity, id, modifiedAt);
    },
    /** Versions older than the listing's start are never listed again: their rows only take room. */
    pruneSeen(entity: string, before: string): void {
      pruneSeen.run(entity, before);
    },
    startRun: (now: string, attempt: number): number => Number(startRun.run(now, attempt).lastInsertRowid),
    finishRun(id: number, status: 'ok' | 'failed', figures: CatchUpFigures, now: string): void {
      finishRun.run({
        id,
        status,
        now,
        seen: figures.seen,
        acted: figures.acted,
        errors: figures.errors,
        queued: figures.queued,
        error: figures.error,
        alarm: figures.alarm && figures.alarm.length > 0 ? JSON.stringify(figures.alarm) : null,
      });
    },
    lastRun: (): CatchUpRunRow | undefined => lastRun.get(),
    lastOk: (): CatchUpRunRow | undefined => lastOk.get(),
    /** Runs a stopped process left "running" are failed: they never finished. */
    failInterrupted(now: string): void {
      interrupted.run(now);
    },
    /** When the last webhook delivery was received (an existing data dir's seed), undefined when none. */
    latestDeliveryAt: (): string | undefined => latestDelivery.get()?.received_at,
  };
}
export type CatchUpRepo = ReturnType<typeof createCatchUpRepo>;
