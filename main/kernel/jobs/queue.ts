import { setTimeout as sleep } from 'node:timers/promises';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { ActivityLog } from '../activity/activity-log.js';
import { capitalize, named, type ActivitySubject } from '../activity/subjects.js';
import type { GroupCommit } from '../commit-group.js';
import type { JobRow, JobStatus, JobsRepo } from './repo.js';
import { backoffDelayMs, peerRetryBackoff, type BackoffPolicy } from './backoff.js';
import type { Lane } from './lane.js';
import { LaneLocks } from './lane-locks.js';
import { RetryLaterError, retryAfterMsOf, retryClassOf } from './retry-class.js';

export { PermanentJobError, RetryLaterError } from './retry-class.js';

/** DESIGN §6.2: at most 10 attempts (2 s doubling, capped at 10 min: ≈ 45 min, a half-hour outage heals). */
export const MAX_JOB_ATTEMPTS = 10;

export interface JobContext {
  job: JobRow;
  /** This run's number: 1, then one more for each retry and each run a trigger asked for. */
  attempt: number;
  /** The run before this one failed and the queue tries again (not a run a new trigger asked for). */
  retrying: boolean;
  signal: AbortSignal;
}

/** How one run of a job ended. */
export type RunEnd =
  | { run: number; status: 'done'; result: unknown }
  /** Failed, tried again later by the queue (`error` is why). */
  | { run: number; status: 'retry'; error: string }
  | { run: number; status: 'failed'; error: string };

/** Writes that belong with a run's end, committed together with it (e.g. the outcome of what waited for it). */
export type RunEndObserver = (payload: unknown, end: RunEnd, job: JobRow) => void;

/** What `enqueueOrJoin` did: made the job, joined it while it waits, or marked it to run once more. */
export interface Joined {
  job: JobRow;
  /** The run that will answer this trigger: the first one that starts after it. */
  run: number;
  joined: 'new' | 'pending' | 'running';
}
export type JobHandler<P = unknown> = (payload: P, context: JobContext) => Promise<unknown>;

interface Registration {
  handler: JobHandler;
  maxAttempts: number;
  /** Record `job.done` in the activity log (off for chatty kinds that log their own outcome). */
  logDone: boolean;
  describe: (payload: unknown) => string;
  /** What the job concerns (issue #30.4): named in its job.* events' messages and `data.subject`. */
  subject: (payload: unknown) => JobSubject | undefined;
  /** The most jobs of this kind running at once: at most this many of the queue's slots. */
  maxRunning: number;
  /** Writes that belong with the job's done state: committed together with it. */
  onDone: ((payload: unknown, result: unknown) => void) | undefined;
  /** Writes that belong with the end of each run (its own and other areas'), committed with it. */
  onRunEnd: RunEndObserver[];
  /** Whether the kind's jobs take a slot: not for work that waits on nothing (no peer, no sleep). */
  holdsSlot: boolean;
  /** Aborted as soon as the queue stops, without the grace: long work that starts again from zero. */
  stopsAtOnce: boolean;
}

/** What a job concerns, and the word its messages call it by when not the kind's (e.g. `CRM post`). */
export interface JobSubject {
  subject: ActivitySubject;
  noun?: string;
}

/** A registration's subject; a naming that throws (a bad stored payload) leaves the job unnamed. */
function safeSubject(registration: Registration, payload: unknown): JobSubject | undefined {
  try {
    return registration.subject(payload);
  } catch {
    return undefined;
  }
}

/** A job this process enqueued, due now, with the payload it was given. */
interface FreshJob {
  job: JobRow;
  payload: unknown;
}

export interface EnqueueOptions {
  kind: string;
  /** Plain JSON data: stored as JSON, and a job run at once by this process gets this very value. */
  payload: unknown;
  /** Jobs sharing a lane run one at a time, in order (e.g. one CRM record: `crmRecordLane`). */
  lane?: Lane;
  /** A second enqueue with the same key returns the first job. */
  dedupeKey?: string;
  delayMs?: number;
}

export interface JobQueueOptions {
  repo: JobsRepo;
  activity: ActivityLog;
  logger: Logger;
  now?: () => Date;
  concurrency?: number;
  backoff?: BackoffPolicy;
  /** Where a job's done state is committed (with others of the same turn); a plain write without. */
  groupCommit?: GroupCommit;
}

/**
 * Durable queue in SQLite. Jobs survive a crash: on start, jobs left running by a dead
 * process go back to pending, so handlers must be idempotent (they check their ledgers).
 *
 * Slots: at most `concurrency` jobs run at once, oldest due first. A kind may be registered
 * with `maxRunning` below that: it never holds more slots than that, whatever its backlog, so
 * the other slots stay free for everyone else. Work nobody waits for (the test webhook's
 * sleeping job) takes one slot at most, and CRM item jobs always find one of the other three.
 */
export class JobQueue {
  private readonly handlers = new Map<string, Registration>();
  private readonly finished = new EventEmitter();
  private readonly inFlight = new Map<
    number,
    {
      kind: string;
      promise: Promise<void>;
      abort: AbortController;
      /** A trigger came in while it ran: it runs once more, reading everything again. */
      dirty: boolean;
    }
  >();
  /** The one lock per CRM record: jobs of a lane hold it while they run, `withLane` holders too. */
  private readonly lanes = new LaneLocks();
  private running = false;
  /** Running jobs that hold one of the `concurrency` slots. */
  private slotsTaken = 0;
  /**
   * Jobs enqueued since the last pump, due now: claimed by id, without a search, and run with the
   * payload they were given (not read back and parsed).
   */
  private fresh: FreshJob[] = [];
  /**
   * Whether due jobs may wait in the database that `fresh` does not name (delayed, retried,
   * recovered, blocked by a lane or a full slot count). While false the search is skipped: a
   * webhook's job is claimed by id and nothing else is read.
   */
  private backlog = true;
  /** The last search found nothing while some lanes were busy: a job of theirs may wait for them. */
  private searchSkippedBusyLanes = false;
  private timer: NodeJS.Timeout | undefined;
  private woken: NodeJS.Immediate | null = null;
  private pumpQueued = false;
  private readonly now: () => Date;
  private readonly concurrency: number;
  private readonly backoff: BackoffPolicy;

  constructor(private readonly options: JobQueueOptions) {
    this.now = options.now ?? (() => new Date());
    this.concurrency = options.concurrency ?? 4;
    options.groupCommit?.beforeCommit(() => this.claimInGroupCommit());
    this.backoff = options.backoff ?? peerRetryBackoff;
    this.finished.setMaxListeners(0);
  }

  register<P>(
    kind: string,
    handler: JobHandler<P>,
    options: {
      maxAttempts?: number;
      logDone?: boolean;
      /** The job in words, for its job.* events when it has no `subject` (e.g. `test webhook 4`). */
      describe?: (payload: P) => string;
      /**
       * What the job concerns, named from what the bridge holds (a ledger row, a local record;
       * never a peer call): its job.* events then say e.g. `CRM post “Teaser…” failed: …`.
       * Undefined: the job concerns no one record (the event uses `describe`).
       */
      subject?: (payload: P) => JobSubject | undefined;
      /** Below the queue's concurrency: the most slots this kind may hold at once. */
      maxRunning?: number;
      /** Writes committed together with the job's done state (e.g. the outcome it produced). */
      onDone?: (payload: P, result: unknown) => void;
      /** Writes committed together with the end of each run (done, tried again, failed). */
      onRunEnd?: (payload: P, end: RunEnd, job: JobRow) => void;
      /**
       * false: the kind's jobs wait on nothing (no peer call, no sleep), so they run without taking
       * one of the slots that bound how much peer work runs at once. A rule of the kind: the queue
       * asks nothing of an area while it picks a job.
       */
      holdsSlot?: boolean;
      /**
       * true: a running job of the kind is aborted as soon as the queue stops, not after the grace
       * (a render, minutes long, that starts again from zero at the next start anyway).
       */
      stopsAtOnce?: boolean;
    } = {},
  ): void {
    this.handlers.set(kind, {
      handler: handler as JobHandler,
      maxAttempts: options.maxAttempts ?? MAX_JOB_ATTEMPTS,
      logDone: options.logDone ?? true,
      describe: (options.describe as ((payload: unknown) => string) | undefined) ?? (() => kind),
      subject:
        (options.subject as ((payload: unknown) => JobSubject | undefined) | undefined) ?? (() => undefined),
      maxRunning: options.maxRunning ?? Infinity,
      onDone: options.onDone as Registration['onDone'],
      onRunEnd: options.onRunEnd ? [options.onRunEnd as RunEndObserver] : [],
      holdsSlot: options.holdsSlot ?? true,
      stopsAtOnce: options.stopsAtOnce ?? false,
    });
  }

  /** Another area's writes at the end of each run of `kind` (e.g. the webhook items that waited for it). */
  onRunEnd(kind: string, observer: RunEndObserver): void {
    const registration = this.handlers.get(kind);
    if (!registration) throw new Error(`no handler registered for job kind "${kind}"`);
    registration.onRunEnd.push(observer);
  }

  /**
   * One job per lane and kind (a record's "bring it in line"): a trigger makes the job, or joins
   * the one waiting (due now, even if it was waiting out a retry), or marks the one running dirty,
   * so it runs once more when this run ends and reads everything again. `run` is the run that
   * answers the trigger: the first that starts after it. Call it inside the caller's transaction.
   */
  enqueueOrJoin(options: Omit<EnqueueOptions, 'dedupeKey' | 'delayMs' | 'lane'> & { lane: Lane }): Joined {
    const existing = this.options.repo.unfinishedOf(options.kind, options.lane);
    if (!existing) return { job: this.enqueue(options), run: 1, joined: 'new' };
    const run = existing.attempts + 1;
    if (existing.status === 'running') {
      // Not in flight: left by a process that is gone, it runs again at the next start anyway.
      const flight = this.inFlight.get(existing.id);
      if (flight) flight.dirty = true;
      return { job: existing, run, joined: 'running' };
    }
    if (this.options.repo.pullForward(existing.id, this.now().toISOString())) {
      this.backlog = true;
      this.wake();
    }
    return { job: existing, run, joined: 'pending' };
  }

  /** Whether a lane's lock is held: by a job of it that runs, or by work outside the queue (`withLane`). */
  laneHeld(lane: Lane): boolean {
    return this.lanes.busy(lane);
  }

  /** Whether a lane is held or has a job waiting or running: work for its record is under way. */
  laneBusy(lane: Lane): boolean {
    return this.lanes.busy(lane) || this.options.repo.laneHasUnfinished(lane);
  }

  enqueue(options: EnqueueOptions): JobRow {
    const registration = this.handlers.get(options.kind);
    if (!registration) throw new Error(`no handler registered for job kind "${options.kind}"`);
    const now = this.now();
    const job = this.options.repo.insert(
      {
        kind: options.kind,
        payload: options.payload,
        ...(options.lane ? { lane: options.lane } : {}),
        ...(options.dedupeKey ? { dedupeKey: options.dedupeKey } : {}),
        maxAttempts: registration.maxAttempts,
        runAt: new Date(now.getTime() + (options.delayMs ?? 0)).toISOString(),
      },
      now.toISOString(),
    );
    const due = (options.delayMs ?? 0) <= 0;
    if (due && job.status === 'pending' && job.attempts === 0) {
      this.fresh.push({ job, payload: options.payload });
    } else {
      this.backlog = true;
    }
    this.wake();
    return job;
  }

  /**
   * A job its caller does at once, inside the caller's transaction: `work` decides synchronously,
   * from what it is given, and waits on nothing (a new Draft's webhook item). The job is stored
   * done with its result, as the queue would have left it, so the job list and every ledger read
   * the same; the round through the queue (a claim, a turn of the event loop, a second commit for
   * its done state) is spared. Only while its lane is free (nothing of the lane waiting, running
   * or held by `withLane`), so a record's jobs still run in order. Returns undefined, storing
   * nothing, when the lane is not free or `work` cannot decide: the caller enqueues it instead.
   */
  doneAtOnce<R>(
    options: Omit<EnqueueOptions, 'dedupeKey' | 'delayMs'>,
    work: () => R | undefined,
  ): { job: JobRow; result: R } | undefined {
    const registration = this.handlers.get(options.kind);
    if (!registration) throw new Error(`no handler registered for job kind "${options.kind}"`);
    const { repo } = this.options;
    if (options.lane !== undefined && (this.lanes.busy(options.lane) || repo.laneHasUnfinished(options.lane)))
      return undefined;
    const result = work();
    if (result === undefined) return undefined;
    const job = repo.insertDone(
      {
        kind: options.kind,
        payload: options.payload,
        ...(options.lane !== undefined ? { lane: options.lane } : {}),
        maxAttempts: registration.maxAttempts,
      },
      result,
      this.now().toISOString(),
    );
    return { job, result };
  }

  /**
   * Resolves with the job once it is done or failed, or undefined when `timeoutMs` passes first.
   * `justEnqueued`: the caller enqueued it in a commit that has just returned, so it cannot have
   * finished yet (a job's done state needs a later commit) and the database is not asked.
   */
  waitFor(jobId: number, timeoutMs: number, justEnqueued = false): Promise<JobRow | undefined> {
    if (!justEnqueued) {
      const current = this.options.repo.get(jobId);
      if (!current || current.status === 'done' || current.status === 'failed')
        return Promise.resolve(current);
    }
    return this.nextEvent<JobRow>(`job:${jobId}`, () => true, timeoutMs);
  }

  /**
   * Resolves with the end of the first run numbered `run` or later (for a trigger: the run that
   * answers it), or undefined when `timeoutMs` passes first. A run that ended before the call is
   * read from the job's row (its latest end).
   */
  waitForRun(jobId: number, run: number, timeoutMs: number): Promise<RunEnd | undefined> {
    const current = this.options.repo.get(jobId);
    if (!current) return Promise.resolve(undefined);
    const lastEnded = current.status === 'running' ? current.attempts - 1 : current.attempts;
    if (lastEnded >= run) return Promise.resolve(lastEndOf(current, lastEnded));
    return this.nextEvent<RunEnd>(`run:${jobId}`, (end) => end.run >= run, timeoutMs);
  }

  /** The first `event` whose value `accept`s, or undefined when `timeoutMs` passes first. */
  private nextEvent<T>(
    event: string,
    accept: (value: T) => boolean,
    timeoutMs: number,
  ): Promise<T | undefined> {
    return new Promise((resolve) => {
      const listener = (value: T) => {
        if (!accept(value)) return;
        clearTimeout(timer);
        this.finished.off(event, listener);
        resolve(value);
      };
      const timer = setTimeout(
        () => {
          this.finished.off(event, listener);
          resolve(undefined);
        },
        Math.max(0, timeoutMs),
      );
      this.finished.on(event, listener);
    });
  }

  start(): void {
    if (this.running) return;
    const recovered = this.options.repo.recoverInterrupted();
    if (recovered > 0) {
      this.options.activity.record(
        'jobs.recovered',
        'warn',
        `${recovered} interrupted job(s) resumed after a restart`,
      );
    }
    this.running = true;
    this.backlog = true;
    this.wake();
  }

  /**
   * Stops claiming; waits up to `graceMs` for running jobs, then aborts them (they run again next
   * start). Jobs of a `stopsAtOnce` kind are aborted at once.
   */
  async stop(graceMs = 5_000): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    if (this.woken) clearImmediate(this.woken);
    this.woken = null;
    for (const entry of this.inFlight.values())
      if (this.handlers.get(entry.kind)?.stopsAtOnce) entry.abort.abort();
    const pending = [...this.inFlight.values()];
    const settled = Promise.allSettled(pending.map((entry) => entry.promise));
    const grace = sleep(graceMs, undefined, { ref: false });
    await Promise.race([settled, grace]);
    for (const entry of this.inFlight.values()) entry.abort.abort();
  }

  /**
   * Runs `work` holding a lane, outside the queue (e.g. an API cancel of a record's post): it
   * waits for the lane's running job, and no job of the lane starts until it is done. Throws
   * LaneBusyError, having done nothing, when `waitMs` passes first.
   */
  withLane<T>(lane: Lane, work: () => Promise<T>, waitMs?: number): Promise<T> {
    return this.lanes.run(lane, work, waitMs).finally(() => {
      // The lane's jobs held back meanwhile may run now.
      this.backlog = true;
      this.wake();
    });
  }

  counts() {
    return this.options.repo.counts();
  }

  /**
   * Pending jobs due more than `graceMs` ago and still not run (DESIGN §6.9 "nothing overdue is
   * silent"), longest waiting first, each with the kind's own description.
   */
  overdue(graceMs: number, limit = 10): Array<{ id: number; kind: string; runAt: string; what: string }> {
    const before = new Date(this.now().getTime() - graceMs).toISOString();
    return this.options.repo.overdue(before, limit).map((job) => {
      let what = job.kind;
      try {
        what = this.handlers.get(job.kind)?.describe(JSON.parse(job.payload)) ?? job.kind;
      } catch {
        // A payload the description cannot read: the kind says enough.
      }
      return { id: job.id, kind: job.kind, runAt: job.run_at, what };
    });
  }

  /** Jobs newest first, as the operator's job list shows them. */
  list(filter: { status?: JobStatus; kind?: string; limit: number }) {
    return this.options.repo.list(filter).map((job) => ({
      id: job.id,
      kind: job.kind,
      status: job.status,
      attempts: job.attempts,
      runAt: job.run_at,
      lastError: job.last_error,
      createdAt: job.created_at,
      finishedAt: job.finished_at,
    }));
  }

  /**
   * A stored job in words for an activity message (the operator's retry): what it concerns when
   * its kind names a subject (`CRM post “Teaser…”`), else its description; undefined: no such job.
   */
  describeJob(id: number): { what: string; subject?: ActivitySubject } | undefined {
    const job = this.options.repo.get(id);
    const registration = job ? this.handlers.get(job.kind) : undefined;
    if (!job || !registration) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload) as unknown;
    } catch {
      return undefined;
    }
    const about = safeSubject(registration, payload);
    if (about) return { what: named(about.subject, about.noun), subject: about.subject };
    try {
      return { what: registration.describe(payload) };
    } catch {
      return undefined;
    }
  }

  /** The operator fixed the cause: run a failed job again now. False when no failed job has that id. */
  retryFailed(id: number): boolean {
    const retried = this.options.repo.retryFailed(id, this.now().toISOString());
    if (retried) {
      this.backlog = true;
      this.wake();
    }
    return retried;
  }

  private wake(): void {
    if (!this.running || this.woken) return;
    // After the current turn (an enqueue inside a transaction is committed first), without a
    // timer's millisecond: a webhook waits on its job, so every hop here is answer latency.
    this.woken = setImmediate(() => {
      this.woken = null;
      this.pump();
    });
  }

  /** Pumps once the current microtasks are done (same turn): a freed slot takes the next fresh job. */
  private pumpNow(): void {
    if (!this.running || this.pumpQueued) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    if (!this.running) return;
    this.claimFresh();
    if (!this.backlog) return;
    let searchedAll = false;
    for (;;) {
      const kinds = this.claimableKinds();
      if (kinds.length === 0) break;
      const now = this.now().toISOString();
      const busyLanes = this.lanes.busyKeys();
      const job = this.options.repo.claimNext(now, kinds, busyLanes);
      if (!job) {
        searchedAll = true;
        // Only a job left waiting in a busy lane needs that lane's end to search again; else every
        // lane job's end would start a search that finds nothing.
        this.searchSkippedBusyLanes =
          busyLanes.length > 0 && this.options.repo.waitsInLanes(now, kinds, busyLanes);
        break;
      }
      this.runJob(job);
    }
    // Nothing claimable is left: what still waits needs a lane or a kind's slot to free up first
    // (runJob's end sets `backlog` again for those), or its time to come (the timer below).
    if (searchedAll) this.backlog = false;
    this.scheduleNextPump();
  }

  /**
   * The fresh jobs that can run now (see chooseFresh), claimed by id in one transaction of their
   * own: those enqueued outside a group commit, or left waiting for a slot or a lane.
   */
  private claimFresh(): void {
    const chosen = this.chooseFresh();
    if (chosen.length === 0) return;
    const claimed = this.options.repo.claimKnownNow(
      chosen.map((entry) => entry.job),
      this.now().toISOString(),
    );
    this.startClaimed(chosen, claimed);
  }

  /**
   * Inside a group commit's transaction (after its works): claims the fresh jobs that can start,
   * so a webhook's job is claimed in the commit that stores it, not in a commit of its own. They
   * start once that commit is on disk; if it fails nothing was claimed and they stay fresh.
   */
  private claimInGroupCommit(): (() => void) | undefined {
    if (!this.running || this.fresh.length === 0) return undefined;
    const chosen = this.chooseFresh();
    if (chosen.length === 0) return undefined;
    const claimed = this.options.repo.claimKnown(
      chosen.map((entry) => entry.job),
      this.now().toISOString(),
    );
    return () => this.startClaimed(chosen, claimed);
  }

  /**
   * The fresh jobs that can start now: a slot free (if they take one), their kind below its
   * `maxRunning`, their lane free. Changes nothing: those not chosen stay fresh, in order, to be
   * claimed by id when a slot or lane frees.
   */
  private chooseFresh(): FreshJob[] {
    if (this.fresh.length === 0) return [];
    const running = this.runningByKind();
    const lanes = new Set<string>();
    const chosen: FreshJob[] = [];
    let slots = this.slotsTaken;
    for (const entry of this.fresh) {
      const candidate = entry.job;
      const registration = this.handlers.get(candidate.kind);
      const needsSlot = registration?.holdsSlot ?? true;
      const slotFree = !needsSlot || slots < this.concurrency;
      const kindFree =
        registration !== undefined && (running.get(candidate.kind) ?? 0) < registration.maxRunning;
      const laneFree =
        candidate.lane === null || (!this.lanes.busy(candidate.lane) && !lanes.has(candidate.lane));
      if (!slotFree || !kindFree || !laneFree) continue;
      chosen.push(entry);
      if (needsSlot) slots++;
      running.set(candidate.kind, (running.get(candidate.kind) ?? 0) + 1);
      if (candidate.lane !== null) lanes.add(candidate.lane);
    }
    return chosen;
  }

  /** Runs the claimed jobs; the chosen ones leave `fresh` whether claimed or not. */
  private startClaimed(chosen: readonly FreshJob[], claimed: readonly JobRow[]): void {
    const gone = new Set(chosen);
    this.fresh = this.fresh.filter((entry) => !gone.has(entry));
    // One not claimed was not pending, not due or not first in its lane: the search finds it later.
    if (claimed.length < chosen.length) this.backlog = true;
    const payloads = new Map(chosen.map((entry) => [entry.job.id, entry.payload]));
    for (const job of claimed) this.runJob(job, payloads.get(job.id));
  }

  private runningByKind(): Map<string, number> {
    const running = new Map<string, number>();
    for (const { kind } of this.inFlight.values()) running.set(kind, (running.get(kind) ?? 0) + 1);
    return running;
  }

  /** The kinds that may start a job now: below their `maxRunning`, and a slot free if they take one. */
  private claimableKinds(): string[] {
    const running = this.runningByKind();
    const slotFree = this.slotsTaken < this.concurrency;
    return [...this.handlers]
      .filter(
        ([kind, registration]) =>
          (slotFree || !registration.holdsSlot) && (running.get(kind) ?? 0) < registration.maxRunning,
      )
      .map(([kind]) => kind);
  }

  private scheduleNextPump(): void {
    clearTimeout(this.timer);
    // Poll at most every second; sooner when a job is due sooner. A kind at its maxRunning does not
    // count: one of its jobs finishing wakes the queue.
    const next = this.options.repo.nextRunAt(this.claimableKinds());
    const delay = next ? Math.min(1_000, Math.max(10, Date.parse(next) - this.now().getTime())) : 1_000;
    this.timer = setTimeout(() => {
      this.backlog = true;
      this.pump();
    }, delay);
    this.timer.unref();
  }

  /** `payload`: the enqueued value when this process enqueued it (else parsed from the row). */
  private runJob(job: JobRow, payload?: unknown): void {
    const registration = this.handlers.get(job.kind)!;
    const abort = new AbortController();
    const jobPayload = payload ?? JSON.parse(job.payload);
    // The slot bounds handler work (peer calls): it is given back as soon as the handler settles,
    // before the done state's commit, and the next fresh job is claimed in the same turn.
    let holdsSlot = registration.holdsSlot;
    if (holdsSlot) this.slotsTaken++;
    const releaseSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      this.slotsTaken--;
      this.pumpNow();
    };
    const run = () => this.execute(job, jobPayload, registration, abort.signal, releaseSlot);
    // Claimed only while its lane was free, so the lock is taken at once.
    const promise = (job.lane ? this.lanes.run(job.lane, run) : run()).finally(() => {
      this.inFlight.delete(job.id);
      releaseSlot();
      // What this job held back may run now: the next job of its lane, one of its capped kind.
      if (registration.maxRunning !== Infinity) this.backlog = true;
      else if (job.lane !== null && this.searchSkippedBusyLanes) this.backlog = true;
      this.wake();
    });
    this.inFlight.set(job.id, { kind: job.kind, promise, abort, dirty: false });
  }

  private async execute(
    job: JobRow,
    payload: unknown,
    registration: Registration,
    signal: AbortSignal,
    handlerSettled: () => void,
  ): Promise<void> {
    const { repo, activity, logger } = this.options;
    /** Named once, when the job's outcome is recorded (a local read at most, never on a peer). */
    const about = () => {
      const subject = safeSubject(registration, payload);
      return subject
        ? { what: capitalize(named(subject.subject, subject.noun)), data: { subject: subject.subject } }
        : { what: registration.describe(payload), data: {} };
    };
    const run = job.attempts;
    /** Read when the run's end is committed: a trigger may come in up to that moment. */
    const dirty = () => this.inFlight.get(job.id)?.dirty ?? false;
    const ended = (end: RunEnd) => {
      for (const observer of registration.onRunEnd) observer(payload, end, job);
    };
    let final: JobRow | undefined;
    let end: RunEnd | undefined;
    try {
      const result = await registration
        .handler(payload, { job, attempt: run, retrying: job.last_error !== null, signal })
        .finally(handlerSettled);
      if (signal.aborted) return; // shutting down: the job stays claimed and is recovered next start
      end = { run, status: 'done', result };
      const { onDone } = registration;
      final = await this.commit(
        () => {
          ended(end!);
          if (dirty()) {
            repo.requeue(job.id, result, this.now().toISOString(), run + registration.maxAttempts);
            return undefined;
          }
          onDone?.(payload, result);
          return repo.markDone(job, result, this.now().toISOString());
        },
        { oneStatement: onDone === undefined && registration.onRunEnd.length === 0 },
      );
      if (final && registration.logDone) {
        const { what, data } = about();
        activity.record('job.done', 'info', `${what}: done`, { jobId: job.id, kind: job.kind, ...data });
      }
    } catch (error) {
      if (signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const permanent = retryClassOf(error) === 'permanent';
      if (!permanent && run < job.max_attempts) {
        const backoff = backoffDelayMs(run, this.backoff);
        const delay =
          error instanceof RetryLaterError ? error.delayMs : Math.max(backoff, retryAfterMsOf(error) ?? 0);
        const runAt = new Date(this.now().getTime() + delay).toISOString();
        end = { run, status: 'retry', error: message };
        await this.commit(() => {
          ended(end!);
          repo.reschedule(job.id, message, runAt);
        });
        this.backlog = true; // the timer is set for its new time
        const { what, data } = about();
        activity.record('job.retry', 'warn', `${what}: ${message}; attempt ${run + 1} at ${runAt}`, {
          jobId: job.id,
          kind: job.kind,
          runAt,
          ...data,
        });
        return;
      }
      end = { run, status: 'failed', error: message };
      final = await this.commit(() => {
        ended(end!);
        // A trigger came in during the run: it still gets a run of its own, with a fresh budget.
        if (dirty()) {
          repo.requeue(job.id, undefined, this.now().toISOString(), run + registration.maxAttempts);
          return undefined;
        }
        return repo.markFailed(job.id, message, this.now().toISOString());
      });
      logger.warn({ jobId: job.id, kind: job.kind, err: error }, 'job failed');
      const { what, data } = about();
      activity.record('job.failed', 'error', `${what}: ${message}`, {
        jobId: job.id,
        kind: job.kind,
        attempts: run,
        ...data,
      });
    } finally {
      if (end) this.finished.emit(`run:${job.id}`, end);
      if (final) this.finished.emit(`job:${job.id}`, final);
      else if (end && end.status !== 'retry' && !signal.aborted) {
        // Back to pending for the run a trigger asked for.
        this.backlog = true;
        this.wake();
      }
    }
  }

  private commit<T>(work: () => T, options?: { oneStatement?: boolean }): Promise<T> {
    return this.options.groupCommit ? this.options.groupCommit(work, options) : Promise.resolve().then(work);
  }
}

/** A run's end as the job's row last recorded it (the row keeps only its latest run). */
function lastEndOf(job: JobRow, run: number): RunEnd {
  if (job.status === 'failed') return { run, status: 'failed', error: job.last_error ?? 'failed' };
  if (job.status === 'pending' && job.last_error !== null)
    return { run, status: 'retry', error: job.last_error };
  return {
    run,
    status: 'done',
    result: job.result === null ? undefined : (JSON.parse(job.result) as unknown),
  };
}
