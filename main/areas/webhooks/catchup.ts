import type { Logger } from 'pino';
import type { CatchUpStatus } from '../../../shared/api/health.js';
import type { ItemOutcome } from '../../../shared/api/webhooks.js';
import type { ActivityLog } from '../../kernel/activity/activity-log.js';
import { backoffDelayMs, peerRetryBackoff } from '../../kernel/jobs/backoff.js';
import { crmRecordLane } from '../../kernel/jobs/lane.js';
import type { JobQueue, RunEnd } from '../../kernel/jobs/queue.js';
import type { KeyValueRepo } from '../../kernel/key-value-repo.js';
import type { CrmClient, CrmEntity, CrmRecord } from '../../peers/crm.js';
import type { CatchUpHandler, TrackedRecord } from '../area.js';
import {
  CATCHUP_PAGE,
  DELIVERY_WINDOW_MS,
  isMassDisappearance,
  nextCursor,
  nextMark,
  SEED_BEFORE_LAST_DELIVERY_MS,
  type PageCursor,
} from './catchup-paging.js';
import type { CatchUpFigures, CatchUpRepo } from './catchup-repo.js';

const RECORD_JOB = 'catchup.record';
/** How long a run waits for the jobs it queued before it reports (the rest show as queued). */
const REPORT_WAIT_MS = 60_000;
/** A listing that never ends (a CRM that ignores the filter) stops here: 200,000 records. */
const MAX_PAGES = 1_000;
/** Enough ids per existence check to stay well inside a URL's length. */
const IDS_PER_CHECK = 150;
const IDENTITY_KEY = 'crm.catchup.identity';

interface RecordJob {
  entity: CrmEntity;
  id: string;
  action: 'handle' | 'vanished';
}

export interface CatchUpDeps {
  crm: CrmClient | null;
  jobs: JobQueue;
  repo: CatchUpRepo;
  settings: KeyValueRepo;
  activity: ActivityLog;
  logger: Logger;
  now: () => Date;
}

/** A job catch-up queued or joined, and the run of it that answers this catch-up (null: a job of its own). */
interface Queued {
  id: number;
  run: number | null;
}

interface Tally {
  seen: number;
  jobs: Queued[];
  errors: string[];
  alarm: string[];
}

/**
 * CRM catch-up (DESIGN §6.9): what the CRM changed while the bridge was away (EspoCRM gives up
 * on a delivery after four tries) is listed by `modifiedAt` from a mark per entity and handed,
 * record by record, to the area that owns the entity, as a job in the record's lane: the same
 * lane as its webhooks, so whichever comes second finds nothing left to do.
 */
export class CrmCatchUp {
  private readonly handlers = new Map<CrmEntity, CatchUpHandler>();
  private running: Promise<void> | null = null;
  /** Consecutive failed runs: the next one waits §6.2's transient backoff instead of the interval. */
  private failures = 0;
  /** When the scheduler tries again after the last failed run (shown on the Overview). */
  private retryAt: Date | null = null;

  constructor(private readonly deps: CatchUpDeps) {
    deps.jobs.register<RecordJob>(RECORD_JOB, (payload, context) => this.runRecord(payload, context.signal), {
      describe: ({ entity, id, action }) =>
        `catch-up: ${entity} ${id}${action === 'vanished' ? ' (gone)' : ''}`,
      logDone: false,
      // Live webhooks always find a slot, however much catch-up found.
      maxRunning: 2,
    });
    deps.repo.failInterrupted(deps.now().toISOString());
  }

  setHandler(entity: CrmEntity, handler: CatchUpHandler): void {
    this.handlers.set(entity, handler);
  }

  /** Milliseconds until the next run: the interval, or the backoff after a failed one. */
  nextInMs(intervalMs: number): number {
    if (this.failures === 0 || !this.retryAt) return intervalMs;
    return Math.max(0, this.retryAt.getTime() - this.deps.now().getTime());
  }

  /** One catch-up at a time: a second call while one runs waits for it. */
  run(): Promise<void> {
    this.running ??= this.runOnce().finally(() => (this.running = null));
    return this.running;
  }

  /** The last finished run, for /health and the Overview. */
  status(): CatchUpStatus | null {
    const run = this.deps.repo.lastRun();
    if (!run) return null;
    const at = run.finished_at ?? run.started_at;
    return {
      at,
      status: run.status === 'ok' ? 'ok' : 'failed',
      attempt: run.attempt,
      seen: run.seen,
      actedOn: run.acted,
      errors: run.errors,
      queued: run.queued,
      error: run.error,
      retryAt: run.status !== 'ok' && this.retryAt ? this.retryAt.toISOString() : null,
      running: this.running !== null,
      alarm: run.alarm === null ? [] : (JSON.parse(run.alarm) as string[]),
      lastOkAt: this.deps.repo.lastOk()?.finished_at ?? null,
    };
  }

  private async runOnce(): Promise<void> {
    const { crm, repo, activity, now } = this.deps;
    if (!crm || this.handlers.size === 0) return;
    const runId = repo.startRun(now().toISOString(), this.failures + 1);
    const tally: Tally = { seen: 0, jobs: [], errors: [], alarm: [] };
    try {
      for (const [entity, handler] of this.handlers) await this.catchUpEntity(crm, entity, handler, tally);
      for (const [entity, handler] of this.handlers) await this.checkTracked(crm, entity, handler, tally);
    } catch (error) {
      this.failures += 1;
      const retryInMs = backoffDelayMs(this.failures, peerRetryBackoff);
      this.retryAt = new Date(now().getTime() + retryInMs);
      const message = error instanceof Error ? error.message : String(error);
      repo.finishRun(
        runId,
        'failed',
        {
          seen: tally.seen,
          acted: 0,
          errors: 1,
          queued: tally.jobs.length,
          error: message,
          alarm: tally.alarm,
        },
        now().toISOString(),
      );
      activity.record(
        'catchup.failed',
        'warn',
        `CRM catch-up failed: ${message}; trying again in ${Math.round(retryInMs / 1000)} s`,
        { runId, attempt: this.failures, retryInS: Math.round(retryInMs / 1000) },
      );
      return;
    }
    this.failures = 0;
    this.retryAt = null;
    const figures = await this.figures(tally);
    repo.finishRun(runId, 'ok', figures, now().toISOString());
    const level = figures.errors > 0 ? 'warn' : 'info';
    activity.record(
      'catchup.finished',
      level,
      `CRM catch-up: ${figures.seen} changed record${figures.seen === 1 ? '' : 's'} seen, ${figures.acted} acted on` +
        `${figures.errors ? `, ${figures.errors} failed` : ''}${figures.queued ? `, ${figures.queued} still running` : ''}`,
      { runId, seen: figures.seen, acted: figures.acted, errors: figures.errors, queued: figures.queued },
    );
  }

  /** Lists the entity's changes from its mark, page by page, and queues each record's handling. */
  private async catchUpEntity(crm: CrmClient, entity: CrmEntity, handler: CatchUpHandler, tally: Tally) {
    const { repo, now } = this.deps;
    const stored = repo.mark(entity);
    if (!stored) return this.seed(crm, entity);
    let cursor: PageCursor = { from: stored.list_from, offset: 0 };
    const listed = new Set<string>();
    let highest: string | null = null;
    let earliestDeferred: string | null = null;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await crm.listModifiedSince(entity, cursor.from, cursor.offset);
      const records = page.list.filter((record): record is CrmRecord & { modifiedAt: string } =>
        isTime(record.modifiedAt),
      );
      for (const record of records) {
        if (listed.has(record.id)) continue;
        listed.add(record.id);
        tally.seen += 1;
        const modifiedAt = record.modifiedAt;
        if (handler.drive === 'transition' && !handler.knows?.(record.id)) {
          // Unknown and recent: its create may still be delivered (EspoCRM retries for ~30 min).
          if (now().getTime() - Date.parse(modifiedAt) < DELIVERY_WINDOW_MS) {
            if (earliestDeferred === null || modifiedAt < earliestDeferred) earliestDeferred = modifiedAt;
            continue;
          }
        }
        if (highest === null || modifiedAt > highest) highest = modifiedAt;
        if (repo.seenAt(entity, record.id) === modifiedAt) continue; // this version was queued before
        tally.jobs.push(this.queue(entity, handler, record.id, 'handle', modifiedAt));
        repo.markSeen(entity, record.id, modifiedAt);
      }
      if (page.list.length < CATCHUP_PAGE) break;
      cursor = nextCursor(cursor, records);
    }
    const next = nextMark(stored.mark, highest, earliestDeferred);
    if (next.listFrom !== null) {
      repo.setMark(entity, next.mark, next.listFrom, now().toISOString());
      repo.pruneSeen(entity, next.listFrom);
    }
  }

  /**
   * No mark yet. A data dir that has received webhooks starts 45 min before its last delivery
   * (handling is idempotent: the overlap is harmless); a new one at the CRM's newest record, so
   * history is not replayed. CRM times are whole seconds: the listing starts at the newest
   * record's second, and the records already saved in it are remembered as seen, so that one
   * saved later in that same second is still listed (a new data dir missed it before).
   */
  private async seed(crm: CrmClient, entity: CrmEntity): Promise<void> {
    const { repo, now } = this.deps;
    const lastDelivery = repo.latestDeliveryAt();
    if (lastDelivery !== undefined) {
      const from = new Date(Date.parse(lastDelivery) - SEED_BEFORE_LAST_DELIVERY_MS).toISOString();
      repo.setMark(entity, null, from, now().toISOString());
      return;
    }
    const newest = await crm.newestModifiedAt(entity);
    if (newest === null) {
      repo.setMark(entity, null, new Date(0).toISOString(), now().toISOString());
      return;
    }
    let cursor: PageCursor = { from: newest, offset: 0 };
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await crm.listModifiedSince(entity, cursor.from, cursor.offset);
      const records = page.list.filter((record): record is CrmRecord & { modifiedAt: string } =>
        isTime(record.modifiedAt),
      );
      for (const record of records) repo.markSeen(entity, record.id, record.modifiedAt);
      if (page.list.length < CATCHUP_PAGE) break;
      cursor = nextCursor(cursor, records);
    }
    repo.setMark(entity, newest, newest, now().toISOString());
  }

  /**
   * Tracked records the CRM no longer lists: each is read (404 = gone), the CRM's identity is
   * checked (a CRM answering as another user, or another CRM, would make everything vanish), and
   * a mass disappearance cancels nothing and asks the operator instead.
   */
  private async checkTracked(crm: CrmClient, entity: CrmEntity, handler: CatchUpHandler, tally: Tally) {
    const tracked = handler.tracked?.() ?? [];
    if (tracked.length === 0 || (!handler.vanished && !handler.recordJob)) return;
    const present = new Set<string>();
    for (let i = 0; i < tracked.length; i += IDS_PER_CHECK) {
      const ids = tracked.slice(i, i + IDS_PER_CHECK).map((record) => record.id);
      const page = await crm.list(entity, {
        where: [{ type: 'in', attribute: 'id', value: ids }],
        select: ['id'],
        maxSize: CATCHUP_PAGE,
      });
      for (const record of page.list) present.add(record.id);
    }
    const missing: TrackedRecord[] = [];
    for (const record of tracked) {
      if (present.has(record.id)) continue;
      if ((await crm.find(entity, record.id)) === null) missing.push(record);
    }
    if (missing.length === 0) return;
    const identity = await this.sameCrmUser(crm);
    if (!identity.same) {
      tally.errors.push(
        `${missing.length} ${entity} record(s) answer 404, nothing cancelled: ${identity.why}`,
      );
      return;
    }
    if (isMassDisappearance(missing.length, tracked.length)) {
      const stillHappens = missing.map((record) => record.stillHappens);
      tally.alarm.push(...stillHappens);
      this.deps.activity.record(
        'catchup.alarm',
        'error',
        `${missing.length} of ${tracked.length} tracked ${entity} records vanished from the CRM at once: nothing cancelled. ` +
          `Still going out: ${stillHappens.join('; ')}`,
        { entity, vanished: missing.length, tracked: tracked.length, stillHappens },
      );
      return;
    }
    for (const record of missing)
      tally.jobs.push(this.queue(entity, handler, record.id, 'vanished', 'vanished'));
  }

  /**
   * A record's handling in its lane: the record's own job when its area has one (joined if it waits
   * or runs: it reads the record again), else a catch-up job for this version of the record.
   */
  private queue(
    entity: CrmEntity,
    handler: CatchUpHandler,
    id: string,
    action: RecordJob['action'],
    version: string,
  ): Queued {
    const lane = crmRecordLane(entity, id);
    if (handler.recordJob) {
      const joined = this.deps.jobs.enqueueOrJoin({
        kind: handler.recordJob.kind,
        payload: handler.recordJob.payload(id, 'catch-up'),
        lane,
      });
      return { id: joined.job.id, run: joined.run };
    }
    const job = this.deps.jobs.enqueue({
      kind: RECORD_JOB,
      payload: { entity, id, action } satisfies RecordJob,
      lane,
      dedupeKey: `${RECORD_JOB}:${entity}:${id}:${version}`,
    });
    return { id: job.id, run: null };
  }

  /** GET /App/user answers as the user the bridge first saw (remembered on first sight). */
  private async sameCrmUser(crm: CrmClient): Promise<{ same: boolean; why: string }> {
    const { userName } = await crm.checkCredentials();
    const known = this.deps.settings.get<string>(IDENTITY_KEY);
    if (known === undefined) {
      if (userName !== null) this.deps.settings.put(IDENTITY_KEY, userName, this.deps.now().toISOString());
      return { same: userName !== null, why: 'the CRM did not say which user it answers as' };
    }
    return {
      same: userName === known,
      why: `the CRM answers as "${userName ?? 'nobody'}", the bridge knew it as "${known}"`,
    };
  }

  private async runRecord({ entity, id, action }: RecordJob, signal: AbortSignal): Promise<ItemOutcome> {
    const handler = this.handlers.get(entity);
    if (!handler) return { success: true, skipped: true, reason: `${entity} has no catch-up handling` };
    if (action === 'vanished') {
      return handler.vanished
        ? handler.vanished(id, { signal })
        : { success: true, skipped: true, reason: 'nothing tracked' };
    }
    return handler.handle
      ? handler.handle(id, { signal })
      : { success: true, skipped: true, reason: `${entity} is handled by its own job` };
  }

  /** Waits a while for the queued jobs, then counts what they did. */
  private async figures(tally: Tally): Promise<CatchUpFigures> {
    const deadline = Date.now() + REPORT_WAIT_MS;
    let acted = 0;
    let errors = tally.errors.length;
    let queued = 0;
    for (const queuedJob of tally.jobs) {
      const end = await endOf(this.deps.jobs, queuedJob, Math.max(0, deadline - Date.now()));
      if (end === undefined || end.status === 'retry') {
        queued += 1;
        continue;
      }
      if (end.status === 'failed') {
        errors += 1;
        continue;
      }
      const outcome = (end.result ?? null) as ItemOutcome | null;
      if (outcome && !outcome.success) errors += 1;
      else if (outcome && !outcome.skipped) acted += 1;
    }
    return {
      seen: tally.seen,
      acted,
      errors,
      queued,
      error: tally.errors.length > 0 ? tally.errors.join('; ') : null,
      alarm: tally.alarm,
    };
  }
}

/** Its job's end as a run's end (a catch-up job's one run, or the record job's run for it). */
async function endOf(jobs: JobQueue, queued: Queued, timeoutMs: number): Promise<RunEnd | undefined> {
  if (queued.run !== null) return jobs.waitForRun(queued.id, queued.run, timeoutMs);
  const job = await jobs.waitFor(queued.id, timeoutMs);
  if (!job) return undefined;
  if (job.status === 'failed')
    return { run: job.attempts, status: 'failed', error: job.last_error ?? 'failed' };
  return {
    run: job.attempts,
    status: 'done',
    result: job.result === null ? null : (JSON.parse(job.result) as unknown),
  };
}

function isTime(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}
