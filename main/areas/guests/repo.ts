import type {
  EmailMoment,
  GuestHold,
  HoldReason,
  HoldStatus,
  StageSource,
  WorkflowRun,
  WorkflowStage,
} from '../../../shared/api/guests.js';
import type { Db } from '../../kernel/db.js';

export interface StageRow {
  id: number;
  guest_id: string;
  stage: string;
  previous_stage: string | null;
  entered_at: string;
  source: StageSource;
  recorded_at: string;
}

export interface ContentStageRow {
  id: number;
  content_id: string;
  stage: string;
  previous_stage: string | null;
  entered_at: string;
  source: 'created' | 'webhook' | 'fetched' | 'catch-up';
  recorded_at: string;
}

export interface WorkflowRunRow {
  id: number;
  guest_id: string;
  guest_name: string | null;
  stage: WorkflowStage;
  workflow: string;
  trigger: 'stage-change' | 'run-again';
  stage_entry_id: number | null;
  status: 'queued' | 'started' | 'failed';
  message: string | null;
  hint: string | null;
  http_status: number | null;
  attempts: number;
  job_id: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  failed_at: string | null;
}

interface HoldRow {
  id: number;
  guest_id: string;
  guest_name: string | null;
  stage: WorkflowStage;
  workflow: string;
  moment: EmailMoment | null;
  stage_entry_id: number;
  content_id: string | null;
  /** JSON array of variable names. */
  missing: string;
  status: HoldStatus;
  run_id: number | null;
  created_at: string;
  checked_at: string;
  resolved_at: string | null;
  reason: HoldReason;
  note: string | null;
}

/** A held workflow (guest_holds, migrations 008 and 020) as the area uses it. */
export interface HoldRecord extends GuestHold {
  stageEntryId: number;
  /** The content linked when last checked: its events re-check the hold. */
  contentId: string | null;
}

export interface NewHold {
  guestId: string;
  guestName: string | null;
  stage: WorkflowStage;
  workflow: string;
  moment: EmailMoment | null;
  stageEntryId: number;
  contentId: string | null;
  missing: readonly string[];
  reason: HoldReason;
  note: string | null;
}

export interface NewRun {
  guestId: string;
  guestName: string | null;
  stage: WorkflowStage;
  workflow: string;
  trigger: WorkflowRunRow['trigger'];
  stageEntryId: number | null;
}

/** guest_stages, content_stages and workflow_runs (migration 005), guest_holds (008). */
export function createGuestsRepo(db: Db) {
  const lastStage = db.prepare<[string], StageRow>(
    'SELECT * FROM guest_stages WHERE guest_id = ? ORDER BY id DESC LIMIT 1',
  );
  const stagesOf = db.prepare<[string], StageRow>(
    'SELECT * FROM guest_stages WHERE guest_id = ? ORDER BY id',
  );
  const allStages = db.prepare<[], StageRow>('SELECT * FROM guest_stages ORDER BY guest_id, id');
  const insertStage = db.prepare<[string, string, string | null, string, StageSource, string]>(
    `INSERT INTO guest_stages (guest_id, stage, previous_stage, entered_at, source, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const lastContentStage = db.prepare<[string], ContentStageRow>(
    'SELECT * FROM content_stages WHERE content_id = ? ORDER BY id DESC LIMIT 1',
  );
  const contentStagesOf = db.prepare<[string], ContentStageRow>(
    'SELECT * FROM content_stages WHERE content_id = ? ORDER BY id',
  );
  const insertContentStage = db.prepare<
    [string, string, string | null, string, ContentStageRow['source'], string]
  >(
    `INSERT INTO content_stages (content_id, stage, previous_stage, entered_at, source, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertRun = db.prepare<
    [string, string | null, string, string, string, number | null, string, string],
    WorkflowRunRow
  >(
    `INSERT INTO workflow_runs (guest_id, guest_name, stage, workflow, trigger, stage_entry_id, status,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?)
     ON CONFLICT DO NOTHING
     RETURNING *`,
  );
  const runById = db.prepare<[number], WorkflowRunRow>('SELECT * FROM workflow_runs WHERE id = ?');
  const runsOf = db.prepare<[string], WorkflowRunRow>(
    'SELECT * FROM workflow_runs WHERE guest_id = ? ORDER BY id',
  );
  const autoRun = db.prepare<[string, string], WorkflowRunRow>(
    "SELECT * FROM workflow_runs WHERE guest_id = ? AND stage = ? AND trigger = 'stage-change'",
  );
  const recentRuns = db.prepare<[number], WorkflowRunRow>(
    'SELECT * FROM workflow_runs ORDER BY id DESC LIMIT ?',
  );
  const latestRuns = db.prepare<[], WorkflowRunRow>(
    `SELECT r.* FROM workflow_runs r
     WHERE r.id = (SELECT MAX(o.id) FROM workflow_runs o WHERE o.guest_id = r.guest_id AND o.stage = r.stage)
     ORDER BY r.guest_id, r.id`,
  );
  const insertHold = db.prepare<
    [
      string,
      string | null,
      string,
      string,
      string | null,
      number,
      string | null,
      string,
      HoldReason,
      string | null,
      string,
      string,
    ],
    HoldRow
  >(
    `INSERT INTO guest_holds (guest_id, guest_name, stage, workflow, moment, stage_entry_id, content_id,
       missing, reason, note, status, created_at, checked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?)
     ON CONFLICT DO NOTHING
     RETURNING *`,
  );
  const holdOf = db.prepare<[string, string], HoldRow>(
    'SELECT * FROM guest_holds WHERE guest_id = ? AND stage = ?',
  );
  const waitingHoldOf = db.prepare<[string], HoldRow>(
    "SELECT * FROM guest_holds WHERE guest_id = ? AND status = 'waiting'",
  );
  const waitingHolds = db.prepare<[], HoldRow>(
    "SELECT * FROM guest_holds WHERE status = 'waiting' ORDER BY id",
  );
  const waitingHoldsOfContent = db.prepare<[string], HoldRow>(
    "SELECT * FROM guest_holds WHERE content_id = ? AND status = 'waiting' ORDER BY id",
  );
  const checkedHold = db.prepare<[string, string | null, string, number]>(
    "UPDATE guest_holds SET missing = ?, content_id = ?, checked_at = ? WHERE id = ? AND status = 'waiting'",
  );
  const resolveHold = db.prepare<[string, string, string, string, number]>(
    "UPDATE guest_holds SET status = ?, missing = ?, checked_at = ?, resolved_at = ? WHERE id = ? AND status = 'waiting'",
  );
  const setHoldRun = db.prepare<[number, number]>('UPDATE guest_holds SET run_id = ? WHERE id = ?');
  const setJob = db.prepare<[number, number]>('UPDATE workflow_runs SET job_id = ? WHERE id = ?');
  const attempt = db.prepare<[number, string, number]>(
    "UPDATE workflow_runs SET attempts = ?, status = 'queued', updated_at = ? WHERE id = ?",
  );
  const retrying = db.prepare<[string, number | null, string, number]>(
    'UPDATE workflow_runs SET message = ?, http_status = ?, updated_at = ? WHERE id = ?',
  );
  const started = db.prepare<[string | null, number, string, string, number]>(
    `UPDATE workflow_runs SET status = 'started', message = ?, hint = NULL, http_status = ?,
       started_at = ?, updated_at = ?, failed_at = NULL WHERE id = ?`,
  );
  const failed = db.prepare<[string, string | null, number | null, string, string, number]>(
    `UPDATE workflow_runs SET status = 'failed', message = ?, hint = ?, http_status = ?, failed_at = ?,
       updated_at = ? WHERE id = ?`,
  );

  return {
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    lastStage: (guestId: string): StageRow | undefined => lastStage.get(guestId),
    stagesOf: (guestId: string): StageRow[] => stagesOf.all(guestId),
    allStages: (): StageRow[] => allStages.all(),
    addStage(
      entry: {
        guestId: string;
        stage: string;
        previous: string | null;
        enteredAt: string;
        source: StageSource;
      },
      now: string,
    ): StageRow {
      const { lastInsertRowid } = insertStage.run(
        entry.guestId,
        entry.stage,
        entry.previous,
        entry.enteredAt,
        entry.source,
        now,
      );
      return { ...stageRowOf(entry, Number(lastInsertRowid)), recorded_at: now };
    },
    lastContentStage: (contentId: string): ContentStageRow | undefined => lastContentStage.get(contentId),
    contentStagesOf: (contentId: string): ContentStageRow[] => contentStagesOf.all(contentId),
    addContentStage(
      entry: {
        contentId: string;
        stage: string;
        previous: string | null;
        enteredAt: string;
        source: ContentStageRow['source'];
      },
      now: string,
    ): number {
      return Number(
        insertContentStage.run(
          entry.contentId,
          entry.stage,
          entry.previous,
          entry.enteredAt,
          entry.source,
          now,
        ).lastInsertRowid,
      );
    },
    /** Undefined when a stage-change run for this guest and stage already exists (once per guest and stage). */
    insertRun(run: NewRun, now: string): WorkflowRunRow | undefined {
      return insertRun.get(
        run.guestId,
        run.guestName,
        run.stage,
        run.workflow,
        run.trigger,
        run.stageEntryId,
        now,
        now,
      );
    },
    autoRun: (guestId: string, stage: WorkflowStage): WorkflowRunRow | undefined =>
      autoRun.get(guestId, stage),
    getRun: (id: number): WorkflowRunRow | undefined => runById.get(id),
    runsOf: (guestId: string): WorkflowRunRow[] => runsOf.all(guestId),
    recentRuns: (limit: number): WorkflowRunRow[] => recentRuns.all(limit),
    /** The newest run per guest and stage. */
    latestRuns: (): WorkflowRunRow[] => latestRuns.all(),
    setJob: (runId: number, jobId: number): void => void setJob.run(jobId, runId),
    /** Undefined when this guest already had a hold for this stage (once per guest and stage). */
    insertHold(hold: NewHold, now: string): HoldRecord | undefined {
      const row = insertHold.get(
        hold.guestId,
        hold.guestName,
        hold.stage,
        hold.workflow,
        hold.moment,
        hold.stageEntryId,
        hold.contentId,
        JSON.stringify(hold.missing),
        hold.reason,
        hold.note,
        now,
        now,
      );
      return row && toHoldRecord(row);
    },
    holdOf: (guestId: string, stage: WorkflowStage): HoldRecord | undefined =>
      mapHold(holdOf.get(guestId, stage)),
    waitingHoldOf: (guestId: string): HoldRecord | undefined => mapHold(waitingHoldOf.get(guestId)),
    waitingHolds: (): HoldRecord[] => waitingHolds.all().map(toHoldRecord),
    waitingHoldsOfContent: (contentId: string): HoldRecord[] =>
      waitingHoldsOfContent.all(contentId).map(toHoldRecord),
    /** A re-check that still finds values missing. */
    markHoldChecked: (
      holdId: number,
      missing: readonly string[],
      contentId: string | null,
      now: string,
    ): void => void checkedHold.run(JSON.stringify(missing), contentId, now, holdId),
    /** Ends a waiting hold; false when it was no longer waiting (another re-check or the operator came first). */
    resolveHold: (
      holdId: number,
      status: Exclude<HoldStatus, 'waiting'>,
      missing: readonly string[],
      now: string,
    ): boolean => resolveHold.run(status, JSON.stringify(missing), now, now, holdId).changes === 1,
    setHoldRun: (holdId: number, runId: number): void => void setHoldRun.run(runId, holdId),
    markAttempt: (runId: number, attempts: number, now: string): void =>
      void attempt.run(attempts, now, runId),
    markRetrying: (runId: number, message: string, httpStatus: number | null, now: string): void =>
      void retrying.run(message, httpStatus, now, runId),
    markStarted: (runId: number, message: string | null, httpStatus: number, now: string): void =>
      void started.run(message, httpStatus, now, now, runId),
    markFailed: (
      runId: number,
      failure: { message: string; hint: string | null; httpStatus: number | null },
      now: string,
    ): void => void failed.run(failure.message, failure.hint, failure.httpStatus, now, now, runId),
  };
}
export type GuestsRepo = ReturnType<typeof createGuestsRepo>;

function stageRowOf(
  entry: { guestId: string; stage: string; previous: string | null; enteredAt: string; source: StageSource },
  id: number,
): Omit<StageRow, 'recorded_at'> {
  return {
    id,
    guest_id: entry.guestId,
    stage: entry.stage,
    previous_stage: entry.previous,
    entered_at: entry.enteredAt,
    source: entry.source,
  };
}

const mapHold = (row: HoldRow | undefined): HoldRecord | undefined => row && toHoldRecord(row);

function toHoldRecord(row: HoldRow): HoldRecord {
  return {
    id: row.id,
    guestId: row.guest_id,
    guestName: row.guest_name,
    stage: row.stage,
    workflow: row.workflow,
    moment: row.moment,
    missing: JSON.parse(row.missing) as string[],
    status: row.status,
    runId: row.run_id,
    createdAt: row.created_at,
    checkedAt: row.checked_at,
    resolvedAt: row.resolved_at,
    reason: row.reason,
    note: row.note,
    stageEntryId: row.stage_entry_id,
    contentId: row.content_id,
  };
}

/** The API's view of a hold (without the bridge's own links). */
export function toGuestHold({ stageEntryId: _entry, contentId: _content, ...hold }: HoldRecord): GuestHold {
  return hold;
}

export function toWorkflowRun(row: WorkflowRunRow): WorkflowRun {
  return {
    id: row.id,
    guestId: row.guest_id,
    guestName: row.guest_name,
    stage: row.stage,
    workflow: row.workflow,
    trigger: row.trigger,
    status: row.status,
    message: row.message,
    hint: row.hint,
    httpStatus: row.http_status,
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    failedAt: row.failed_at,
  };
}
