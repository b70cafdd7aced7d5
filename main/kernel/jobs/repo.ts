import { preparedBySql, whereAll, type Db } from '../db.js';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface JobRow {
  id: number;
  kind: string;
  lane: string | null;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: string;
  dedupe_key: string | null;
  last_error: string | null;
  result: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface NewJob {
  kind: string;
  payload: unknown;
  lane?: string;
  runAt: string;
  maxAttempts: number;
  dedupeKey?: string;
}

interface ListFilters {
  status: JobStatus | undefined;
  kind: boolean;
}

/**
 * The job list's SQL, newest first: one statement per filter, so that a status reads its partial
 * index (migration 010) rather than every finished job of the retention period (with
 * `(:status IS NULL OR status = :status)` SQLite could use no index). A status is written as the
 * partial index's own condition, the form SQLite needs to use it; `kind` has no index (inserts do
 * not pay for one) and filters what the status finds.
 */
export function jobsListSql(by: ListFilters): string {
  const byStatus: Record<JobStatus, string> = {
    failed: "status = 'failed'",
    pending: "status IN ('pending', 'running') AND status = 'pending'",
    running: "status IN ('pending', 'running') AND status = 'running'",
    done: "status = 'done'",
  };
  const where = whereAll([by.status ? byStatus[by.status] : null, by.kind ? 'kind = :kind' : null]);
  // Without statistics SQLite would read every job newest first to spare itself a sort: the
  // unfinished ones are few by nature, and reading them through their index and sorting is cheaper.
  const unfinished = by.status === 'pending' || by.status === 'running';
  return `SELECT * FROM jobs${unfinished ? ' INDEXED BY jobs_by_lane' : ''}${where} ORDER BY id DESC LIMIT :limit`;
}

export function createJobsRepo(db: Db) {
  // Returns the id only: the rest of the new row is what the caller gave (no copy of the payload back).
  const insert = db.prepare<
    [string, string | null, string, number, string, string | null, string],
    { id: number }
  >(
    `INSERT INTO jobs (kind, lane, payload, status, max_attempts, run_at, dedupe_key, created_at)
     VALUES (?, ?, ?, 'pending', ?, ?, ?, ?)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
  );
  // A job its caller did at once (JobQueue.doneAtOnce): stored as the queue leaves a job done.
  const insertDone = db.prepare<
    [
      kind: string,
      lane: string | null,
      payload: string,
      maxAttempts: number,
      runAt: string,
      result: string | null,
      createdAt: string,
      startedAt: string,
      finishedAt: string,
    ],
    { id: number }
  >(
    `INSERT INTO jobs (kind, lane, payload, status, attempts, max_attempts, run_at, result, created_at,
       started_at, finished_at)
     VALUES (?, ?, ?, 'done', 1, ?, ?, ?, ?, ?, ?)
     RETURNING id`,
  );
  // Through the partial index of unfinished jobs by lane (migration 010): its condition, word for word.
  const laneUnfinished = db.prepare<[string], { found: 1 }>(
    "SELECT 1 AS found FROM jobs WHERE lane = ? AND status IN ('pending', 'running') LIMIT 1",
  );
  const byDedupe = db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE dedupe_key = ?');
  // The one unfinished job of a kind in a lane (a record's job), through the partial index by lane.
  const unfinishedOf = db.prepare<[string, string], JobRow>(
    "SELECT * FROM jobs WHERE lane = ? AND status IN ('pending', 'running') AND kind = ? ORDER BY id LIMIT 1",
  );
  const pullForward = db.prepare<[string, number, string]>(
    "UPDATE jobs SET run_at = ? WHERE id = ? AND status = 'pending' AND run_at > ?",
  );
  // A run that ended while a trigger came in: back to pending at once, with a fresh retry budget.
  const requeue = db.prepare<[string | null, string, number, number]>(
    "UPDATE jobs SET status = 'pending', result = ?, run_at = ?, last_error = NULL, max_attempts = ? WHERE id = ? AND status = 'running'",
  );
  const byId = db.prepare<[number], JobRow>('SELECT * FROM jobs WHERE id = ?');
  // The oldest due job whose lane has nothing running and no older unfinished job.
  const nextDue = db.prepare<{ now: string; kinds: string; held: string }, JobRow>(
    `SELECT j.* FROM jobs j
     WHERE j.status = 'pending' AND j.run_at <= :now
       AND (j.lane IS NULL OR NOT EXISTS (
         SELECT 1 FROM jobs o WHERE o.lane = j.lane AND o.id < j.id AND o.status IN ('pending', 'running')))
       AND j.kind IN (SELECT value FROM json_each(:kinds))
       AND (j.lane IS NULL OR j.lane NOT IN (SELECT value FROM json_each(:held)))
     ORDER BY j.run_at, j.id LIMIT 1`,
  );
  // Conditional update: only one claimer wins, even across processes.
  const claim = db.prepare<[string, number]>(
    "UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = ? WHERE id = ? AND status = 'pending'",
  );
  // Jobs this process enqueued, claimed by id in one statement (no search): those still pending,
  // due, and first in their lane.
  const claimKnown = db.prepare<{ ids: string; now: string }, { id: number }>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = :now
     WHERE id IN (SELECT value FROM json_each(:ids)) AND status = 'pending' AND run_at <= :now
       AND (lane IS NULL OR NOT EXISTS (
         SELECT 1 FROM jobs o WHERE o.lane = jobs.lane AND o.id < jobs.id AND o.status IN ('pending', 'running')))
     RETURNING id`,
  );
  const finish = db.prepare<[string | null, string, number]>(
    "UPDATE jobs SET status = 'done', result = ?, finished_at = ?, last_error = NULL WHERE id = ? AND status = 'running'",
  );
  const fail = db.prepare<[string, string, string | null, number], JobRow>(
    "UPDATE jobs SET status = 'failed', last_error = ?, finished_at = ?, result = ? WHERE id = ? AND status = 'running' RETURNING *",
  );
  const reschedule = db.prepare<[string, string, number]>(
    "UPDATE jobs SET status = 'pending', last_error = ?, run_at = ? WHERE id = ? AND status = 'running'",
  );
  // The indexes hold unfinished (and failed) jobs only (migration 010): each query names the
  // status set of the index it reads, so SQLite may use it.
  const recover = db.prepare(
    "UPDATE jobs SET status = 'pending' WHERE status IN ('pending', 'running') AND status = 'running'",
  );
  const counts = db.prepare<[], { status: JobStatus; n: number }>(
    `SELECT status, COUNT(*) AS n FROM jobs WHERE status IN ('pending', 'running') GROUP BY status
     UNION ALL SELECT 'failed', COUNT(*) FROM jobs WHERE status = 'failed'`,
  );
  const waitingInLanes = db.prepare<{ now: string; kinds: string; lanes: string }, { found: 1 }>(
    `SELECT 1 AS found FROM jobs
     WHERE lane IN (SELECT value FROM json_each(:lanes)) AND status IN ('pending', 'running') AND status = 'pending'
       AND run_at <= :now AND kind IN (SELECT value FROM json_each(:kinds))
     LIMIT 1`,
  );
  const nextRunAt = db.prepare<[string], { run_at: string }>(
    `SELECT run_at FROM jobs WHERE status = 'pending' AND kind IN (SELECT value FROM json_each(?))
     ORDER BY run_at LIMIT 1`,
  );
  // jobs_due's own condition: only pending jobs, read in run_at order.
  const overdue = db.prepare<[string, number], JobRow>(
    `SELECT * FROM jobs WHERE status = 'pending' AND run_at < ? ORDER BY run_at LIMIT ?`,
  );
  type ListParams = { kind?: string; limit: number };
  const listStatement = preparedBySql<ListParams, JobRow>(db);
  const pruneFinished = db.prepare<[string]>(
    "DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < ?",
  );
  const retryNow = db.prepare<[string, number]>(
    "UPDATE jobs SET status = 'pending', run_at = ?, attempts = 0, finished_at = NULL WHERE id = ? AND status = 'failed'",
  );

  return {
    /** Returns the new job, or the existing one with the same dedupe key. */
    insert(job: NewJob, now: string): JobRow {
      const payload = JSON.stringify(job.payload ?? null);
      const lane = job.lane ?? null;
      const dedupeKey = job.dedupeKey ?? null;
      const inserted = insert.get(job.kind, lane, payload, job.maxAttempts, job.runAt, dedupeKey, now);
      // Nothing returned: the dedupe key was taken, and the first job is the answer.
      if (!inserted) return byDedupe.get(job.dedupeKey!)!;
      return {
        id: inserted.id,
        kind: job.kind,
        lane,
        payload,
        status: 'pending',
        attempts: 0,
        max_attempts: job.maxAttempts,
        run_at: job.runAt,
        dedupe_key: dedupeKey,
        last_error: null,
        result: null,
        created_at: now,
        started_at: null,
        finished_at: null,
      };
    },
    /** A job done by its caller the moment it was created (no dedupe key: nothing to find again). */
    insertDone(job: Omit<NewJob, 'dedupeKey' | 'runAt'>, result: unknown, now: string): JobRow {
      const payload = JSON.stringify(job.payload ?? null);
      const lane = job.lane ?? null;
      const stored = result === undefined ? null : JSON.stringify(result);
      const { id } = insertDone.get(job.kind, lane, payload, job.maxAttempts, now, stored, now, now, now)!;
      return {
        id,
        kind: job.kind,
        lane,
        payload,
        status: 'done',
        attempts: 1,
        max_attempts: job.maxAttempts,
        run_at: now,
        dedupe_key: null,
        last_error: null,
        result: stored,
        created_at: now,
        started_at: now,
        finished_at: now,
      };
    },
    /** The job of `kind` in `lane` that is waiting or running, if any. */
    unfinishedOf: (kind: string, lane: string) => unfinishedOf.get(lane, kind),
    /** A waiting job due later is due now (a new trigger joined it). */
    pullForward: (id: number, now: string) => pullForward.run(now, id, now).changes > 0,
    /** A running job back to pending, due now; `maxAttempts` counts from its last run. */
    requeue: (id: number, result: unknown, now: string, maxAttempts: number) =>
      requeue.run(result === undefined ? null : JSON.stringify(result), now, maxAttempts, id).changes > 0,
    /** Whether a job of `lane` is waiting or running. */
    laneHasUnfinished: (lane: string) => laneUnfinished.get(lane) !== undefined,
    get: (id: number) => byId.get(id),
    /** Claims the next due job among `kinds` (those this process has handlers for), outside the `held` lanes. */
    claimNext(now: string, kinds: string[], held: readonly string[] = []): JobRow | undefined {
      return db
        .transaction(() => {
          const job = nextDue.get({ now, kinds: JSON.stringify(kinds), held: JSON.stringify(held) });
          if (!job || claim.run(now, job.id).changes === 0) return undefined;
          return byId.get(job.id);
        })
        .immediate();
    },
    /**
     * Jobs this process enqueued (their rows as `insert` returned them), claimed by id inside the
     * caller's transaction: those still pending, due and first in their lane (the caller checked
     * slots and lane locks). The others are left to `claimNext`.
     */
    claimKnown(jobs: readonly JobRow[], now: string): JobRow[] {
      const claimed = new Set(
        claimKnown.all({ ids: JSON.stringify(jobs.map((job) => job.id)), now }).map((row) => row.id),
      );
      return jobs.flatMap((job) =>
        claimed.has(job.id)
          ? [{ ...job, status: 'running' as const, attempts: job.attempts + 1, started_at: now }]
          : [],
      );
    },
    /** The same, in a transaction of its own. */
    claimKnownNow(jobs: readonly JobRow[], now: string): JobRow[] {
      return db.transaction(() => this.claimKnown(jobs, now))();
    },
    /** The finished job, or undefined when it was not running (recovered, or finished already). */
    markDone(job: JobRow, result: unknown, now: string): JobRow | undefined {
      const stored = result === undefined ? null : JSON.stringify(result);
      if (finish.run(stored, now, job.id).changes === 0) return undefined;
      return { ...job, status: 'done', result: stored, finished_at: now, last_error: null };
    },
    markFailed: (id: number, error: string, now: string, result?: unknown) =>
      fail.get(error, now, result === undefined ? null : JSON.stringify(result), id),
    reschedule: (id: number, error: string, runAt: string) => reschedule.run(error, runAt, id).changes > 0,
    /** At start-up: whatever was running belonged to a process that is gone. */
    recoverInterrupted: () => recover.run().changes,
    counts(): Record<'pending' | 'running' | 'failed', number> {
      const out = { pending: 0, running: 0, failed: 0 };
      for (const row of counts.all()) if (row.status !== 'done') out[row.status] = row.n;
      return out;
    },
    /** Whether a due job among `kinds` waits in one of `lanes` (busy ones: the search passed them by). */
    waitsInLanes: (now: string, kinds: readonly string[], lanes: readonly string[]) =>
      waitingInLanes.get({ now, kinds: JSON.stringify(kinds), lanes: JSON.stringify(lanes) }) !== undefined,
    /** Pending jobs that were due before `before`, longest waiting first. */
    overdue: (before: string, limit: number) => overdue.all(before, limit),
    /** When the next pending job among `kinds` is due. */
    nextRunAt: (kinds: string[]) => nextRunAt.get(JSON.stringify(kinds))?.run_at,
    list(filter: { status?: JobStatus; kind?: string; limit: number }): JobRow[] {
      const params: ListParams = { limit: filter.limit };
      if (filter.kind !== undefined) params.kind = filter.kind;
      return listStatement(jobsListSql({ status: filter.status, kind: filter.kind !== undefined })).all(
        params,
      );
    },
    pruneFinishedBefore: (isoTime: string) => pruneFinished.run(isoTime).changes,
    retryFailed: (id: number, now: string) => retryNow.run(now, id).changes > 0,
  };
}
export type JobsRepo = ReturnType<typeof createJobsRepo>;
